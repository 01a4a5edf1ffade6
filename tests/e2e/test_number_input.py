"""The amount rows of docs/number-input.md typed into real forms, on Hungarian and English pages:
new accounting document, income edit, expense edit, a policy threshold and the expense list's
amount filter. A refused row shows the table's message on its field, keeps the typed text and
sends nothing; an accepted row is read back from the sandbox API (or, for the draft-only policy
threshold, from the re-rendered form).

Record forms take the rows a document can hold as a positive net amount (sign rules and the
VAT of a twelve-digit amount belong to the totals checks); the threshold and the filter take
every row.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from decimal import ROUND_HALF_UP, Decimal

import pytest
import requests
from support.number_table import rows

from app.numbers import parse_number, plain
from tests.app.incomes_helpers import catalogue, creates, income, make_income, patches

LOCALES = ("hu", "en")
SPACES = str.maketrans({"\u00a0": " ", "\u202f": " "})
EXPECTED_4XX = ("Failed to load resource", "Response Status Error Code 400")


def _record_rows(locale):
    return [row for row in rows("amount", locale)
            if row.refused or Decimal(0) < row.value < Decimal(10) ** 9]


def _same_text(text: str) -> str:
    return text.translate(SPACES)


def _open(page, locale: str, path: str) -> None:
    """Go to path in the locale (the language is switched once, then remembered)."""
    if getattr(page, "number_locale", None) != locale:
        page.goto(f"/lang/{locale}?next={path}")
        page.number_locale = locale
    else:
        page.goto(path)


def _errors_of(page, selector: str) -> str:
    """The error list next to a field (its cell or its .field wrapper)."""
    holder = page.locator(selector).locator("xpath=ancestor::*[self::td or contains(@class,"
                                             "'field')][1]")
    errors = holder.locator(".field__errors")
    return _same_text(errors.inner_text()) if errors.count() else ""


def _amounts(row, locale: str, percent: Decimal) -> dict[str, str]:
    """Net as the row types it; VAT and gross worked out from it, written the page's way."""
    texts = {"net_amount": row.text}
    if row.value is not None:
        vat = (row.value * percent / 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        texts.update(vat_amount=plain(vat, locale), gross_amount=plain(row.value + vat, locale))
    return texts


def _fill_assignment(page, row, locale: str, percent: Decimal) -> None:
    for name, text in _amounts(row, locale, percent).items():
        page.fill(f"[name='assignments-0-{name}']", text)


def _assert_refused(page, row, selector: str) -> None:
    assert _errors_of(page, selector) == _same_text(row.refused), row
    assert page.input_value(selector) == row.text, f"{row}: the typed text is kept"


def _quiet(log, expected=EXPECTED_4XX) -> None:
    unexpected = [e for e in log.console_errors if not e.startswith(expected)]
    assert not unexpected + log.page_errors + log.csp_violations


@pytest.mark.parametrize("locale", LOCALES)
def test_new_accounting_document_reads_every_row(signed_in_page, company, api, sandbox_log,
                                                  browser_log, locale):
    ids = catalogue(api)
    page = signed_in_page(company)
    net = "[name='assignments-0-net_amount']"
    for number, row in enumerate(_record_rows(locale)):
        _open(page, locale, f"/c/{company.id}/incomes/new")
        page.fill("#invoice_number", f"NUM-{locale}-{number}")
        page.fill("#partner_name", "Szám Teszt Kft.")
        page.select_option("[name='assignments-0-revenue_type']", str(ids.revenue_types[0]))
        _fill_assignment(page, row, locale, Decimal(27))
        sandbox_log.reset()
        page.click("#create")
        if row.refused:
            page.wait_for_selector(f"{net}[aria-invalid=true]")
            _assert_refused(page, row, net)
            assert creates(sandbox_log, company.id) == [], row
            continue
        page.wait_for_url(re.compile(r"/incomes/\d+\?created=1$"))
        created = int(re.search(r"/incomes/(\d+)", page.url)[1])
        assert Decimal(income(api, created)["assignments"][0]["net_amount"]) == row.value, row
    _quiet(browser_log)


@pytest.mark.parametrize("locale", LOCALES)
def test_income_edit_reads_every_row(signed_in_page, company, api, sandbox_log, browser_log,
                                     locale):
    created = make_income(api, type=2, net_amount="1000.00", vat_amount="270.00",
                          gross_amount="1270.00")
    page = signed_in_page(company)
    net = "[name='assignments-0-net_amount']"
    for row in _record_rows(locale):
        _open(page, locale, f"/c/{company.id}/incomes/{created['id']}/edit")
        _fill_assignment(page, row, locale, Decimal(27))
        sandbox_log.reset()
        page.click("#save")
        if row.refused:
            page.wait_for_selector(f"{net}[aria-invalid=true]")
            _assert_refused(page, row, net)
            assert patches(sandbox_log, company.id) == [], row
            continue
        page.wait_for_url(re.compile(rf"/incomes/{created['id']}$"))
        stored = income(api, created["id"])["assignments"][0]["net_amount"]
        assert Decimal(stored) == row.value, row
    _quiet(browser_log)


def _expense(sandbox_url, company) -> tuple[dict, Decimal]:
    headers = {"Authorization": f"Token {company.tokens['admin']}"}
    get = lambda path: requests.get(sandbox_url + path, headers=headers, timeout=10).json()  # noqa: E731
    vat = next(v for v in get("/2/accounting/vat-categories/") if v["type"] == "cost")
    types = [t["id"] for t in get("/2/expense-types/")]
    response = requests.post(f"{sandbox_url}/_sandbox/expenses/", timeout=10, json={
        "company_id": company.id, "invoice_number": "NUM-EXP", "assignments": [{
            "expense_type": types[0], "net_amount": "1000.00", "vat": vat["id"],
            "vat_amount": str(Decimal(10 * vat["percent"]).quantize(Decimal("0.01"))),
            "gross_amount": str((1000 + Decimal(10 * vat["percent"])).quantize(
                Decimal("0.01")))}]})
    assert response.status_code == 201, response.text
    return response.json(), Decimal(str(vat["percent"]))


def _expense_now(sandbox_url, company, expense_id) -> dict:
    return requests.get(f"{sandbox_url}/2/expenses/{expense_id}/", timeout=10, headers={
        "Authorization": f"Token {company.tokens['admin']}"}).json()


@pytest.mark.parametrize("locale", LOCALES)
def test_expense_edit_reads_every_row(signed_in_page, company, sandbox_url, sandbox_log,
                                      browser_log, locale):
    created, percent = _expense(sandbox_url, company)
    page = signed_in_page(company)
    net = "[name='assignments-0-net_amount']"
    for row in _record_rows(locale):
        _open(page, locale, f"/c/{company.id}/expenses/{created['id']}/edit")
        _fill_assignment(page, row, locale, percent)
        sandbox_log.reset()
        page.click("#save")
        if row.refused:
            page.wait_for_selector(f"{net}[aria-invalid=true]")
            _assert_refused(page, row, net)
            assert sandbox_log.entries(company_id=company.id, method="PATCH") == [], row
            continue
        page.wait_for_url(re.compile(rf"/expenses/{created['id']}$"))
        stored = _expense_now(sandbox_url, company, created["id"])["assignments"][0]
        assert Decimal(stored["net_amount"]) == row.value, row
    _quiet(browser_log)


def _without_live_check(page) -> None:
    """Take out the form's live checker: typed faster than a person, its answers to earlier
    keystrokes would replace the form under the test's feet. The Check button stays."""
    page.evaluate("document.querySelectorAll('[data-rule-check]').forEach(e => e.remove())")


@contextmanager
def _form_replaced(page):
    """Wait until the rule form has been answered and replaced after the block's actions."""
    page.evaluate("document.querySelector('#rule-form').dataset.before = '1'")
    with page.expect_response(lambda r: "/policies/rule" in r.url and
                              "op=check" in (r.request.post_data or "")):
        yield
    page.wait_for_function("() => { const form = document.querySelector('#rule-form');"
                           " return form && !form.dataset.before && !document.querySelector("
                           "'.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added'); }")


@pytest.mark.parametrize("locale", LOCALES)
def test_policy_threshold_reads_every_row(signed_in_page, company, browser_log, locale):
    page = signed_in_page(company)
    value = "#conditions-0-value"
    _open(page, locale, f"/c/{company.id}/policies/rule?section=policies")
    page.wait_for_selector("#conditions-0-op")
    _without_live_check(page)
    page.fill("#name", "Küszöb")
    page.select_option("#conditions-0-field", "gross_amount")
    page.select_option("#conditions-0-op", "gte")
    for row in rows("amount", locale):
        page.fill(value, row.text)
        assert page.input_value(value) == row.text
        with _form_replaced(page):
            page.click("#rule-form button[value=check]")
        _without_live_check(page)
        if row.refused:
            _assert_refused(page, row, value)
            continue
        assert _errors_of(page, value) == "", row
        assert parse_number(page.input_value(value), locale) == row.value, row
    browser_log.assert_clean()


def _filters_sent(sandbox_log, company) -> list[dict]:
    return [r["args"] for r in sandbox_log.entries(company_id=company.id, method="GET")
            if r["path"].rstrip("/") == "/2/expenses"]


@pytest.mark.parametrize("locale", LOCALES)
def test_amount_filter_reads_every_row(signed_in_page, company, sandbox_log, browser_log,
                                       locale):
    page = signed_in_page(company)
    field = "#min_amount"
    for row in rows("amount", locale):
        _open(page, locale, f"/c/{company.id}/expenses/")
        sandbox_log.reset()
        page.fill(field, row.text)
        page.click("#apply-filters")
        page.wait_for_url(re.compile(r"min_amount="))
        page.wait_for_load_state("networkidle")
        if row.refused:
            # htmx swaps the list: the message is in its problems, the field keeps the text.
            problems = _same_text(page.inner_text("#expense-list .list-problems"))
            assert _same_text(row.refused) in problems, row
            assert page.input_value(field) == row.text, row
            assert all("min_amount" not in args for args in _filters_sent(sandbox_log, company))
            continue
        sent = [args["min_amount"] for args in _filters_sent(sandbox_log, company)
                if "min_amount" in args]
        assert sent and Decimal(sent[-1][0]) == row.value, row
    _quiet(browser_log)


def test_typed_amounts_are_stored_as_written_or_refused(signed_in_page, company, api,
                                                        sandbox_log, browser_log):
    created = make_income(api, type=2, net_amount="1000.00", vat_amount="270.00",
                          gross_amount="1270.00")
    page = signed_in_page(company)
    edit = f"/c/{company.id}/incomes/{created['id']}/edit"
    net = "[name='assignments-0-net_amount']"
    stored = lambda: income(api, created["id"])["assignments"][0]["net_amount"]  # noqa: E731
    typed = {("hu", "1.234"): None, ("hu", "1 234"): "1234.00", ("hu", "1 234,5"): "1234.50",
             ("en", "1,234"): None}
    for (locale, text), expected in typed.items():
        before = stored()
        _open(page, locale, edit)
        page.fill(net, text)
        if expected:
            vat = (Decimal(expected) * Decimal("0.27")).quantize(Decimal("0.01"))
            page.fill("[name='assignments-0-vat_amount']", plain(vat, locale))
            page.fill("[name='assignments-0-gross_amount']",
                      plain(Decimal(expected) + vat, locale))
        sandbox_log.reset()
        page.click("#save")
        if expected is None:
            page.wait_for_selector(f"{net}[aria-invalid=true]")
            assert page.input_value(net) == text
            assert "1234" in _errors_of(page, net)
            assert patches(sandbox_log, company.id) == [] and stored() == before
            continue
        page.wait_for_url(re.compile(rf"/incomes/{created['id']}$"))
        assert stored() == expected
    _quiet(browser_log)
