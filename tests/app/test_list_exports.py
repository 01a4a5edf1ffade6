"""The exports of the taxes, salaries, partner, bank and review lists, over real HTTP.

Each export holds the rows its list shows for the same filter, in the same order, read from the
API the test asks itself; its amounts are numbers (CSV: bare, with the page language's decimal
mark; XLSX: numeric cells) and add up to the API's Decimal sum; its dates are date cells; its
headers are in the page's language (Hungarian and English).
"""
from __future__ import annotations

import html
import re
from datetime import datetime
from decimal import Decimal
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.exports import TOTAL_HEADER
from tests.app.conftest import csrf_token, sign_in, signed_in
from tests.app.incomes_helpers import make_income, set_state
from tests.app.list_pages import csv_rows, listed, xlsx_rows
from tests.app.taxes_support import ACCOUNT, TAX_NUMBER, create
from tests.app.test_bank_page import bank, record_unmatched  # noqa: F401 (the bank fixture)
from tests.sandbox import expense_support

ecat = expense_support.ecat  # a fixture, found by name
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
HU, EN = {"Accept-Language": "hu"}, {"Accept-Language": "en"}
# Data made once per test, read by every example: the fixtures do not change between them.
PROPERTY = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _csv(response) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of a CSV export; asserts the BOM and the separator of its language."""
    assert response.status_code == 200 and response.mimetype == "text/csv", response.status
    text = response.get_data().decode("utf-8")
    assert text.startswith("\ufeff")
    rows = csv_rows(text)
    return rows[0], rows[1:]


def _sheet(response) -> list[tuple]:
    """The cells of an XLSX export, row by row (openpyxl opens it)."""
    assert response.status_code == 200 and response.mimetype == XLSX, response.status
    return xlsx_rows(response.get_data(), values_only=False)


def _number(text: str) -> Decimal:
    """A CSV number cell (either decimal mark) as a Decimal."""
    return Decimal(text.replace(",", "."))


def _column(header: list, rows: list, title: str) -> list:
    index = [str(getattr(cell, "value", cell)) for cell in header].index(title)
    return [row[index] for row in rows]


def _api_sum(values) -> Decimal:
    return sum((Decimal(str(value)) for value in values), Decimal(0))


# Taxes and salaries.

TAX_ITEMS = [
    {"month": "2024-03", "amount": "150000", "code": "103", "description": "=SZJA"},
    {"month": "2024-03", "amount": "25000.50", "name": "Iparűzési adó", "account_number": ACCOUNT,
     "paid_status": 2},
    {"month": "2024-04", "amount": "7000", "code": "104", "paid_status": 3},
    {"month": "2024-06", "amount": "1234.56", "code": "104"},
    {"month": "2024-06", "amount": "0.01", "code": "103", "paid_status": 2},
]
TAX_FILTERS = st.fixed_dictionaries({
    "from": st.sampled_from(["", "2024-04", "2024-06"]),
    "to": st.sampled_from(["", "2024-03", "2024-04"]),
    "paid": st.sampled_from(["", "yes", "no"]),
    "partial": st.sampled_from(["", "yes", "no"]),
})
API_TAX_PARAMS = {"paid": ("is_paid", {"yes": "true", "no": "false"}),
                  "partial": ("is_installment", {"yes": "true", "no": "false"})}


def _api_taxes(api, args: dict, kind: str = "taxes") -> list[dict]:
    """The records the API lists for the page's filter, newest month first (the page's order)."""
    params = {"fields": kind}
    for key, (name, values) in API_TAX_PARAMS.items():
        if args.get(key):
            params[name] = values[args[key]]
    if args.get("from"):
        params["from_date"] = args["from"] + "-01"
    if args.get("to"):
        params["to_date"] = args["to"] + "-30"
    body = api.get(f"/2/monthly-{kind}/", params=params).json()
    months = sorted(body[f"monthly_{kind}"], key=lambda m: m["month"], reverse=True)
    return [record for month in months for record in month[kind]]


def test_tax_export_is_the_filtered_listing_with_numbers_for_any_filter(client, company, api):
    create(api, *TAX_ITEMS)
    base = signed_in(client, company, "taxes/")

    @PROPERTY
    @given(TAX_FILTERS)
    def check(args):
        query = urlencode({k: v for k, v in args.items() if v})
        header, rows = _csv(client.get(f"{base}export?{query}", headers=EN))
        records = _api_taxes(api, args)
        assert [row[1] for row in rows] == [r.get("code") or "" for r in records]
        amounts = [_number(cell) for cell in _column(header, rows, "Amount")]
        assert amounts == [Decimal(str(r["amount"])) for r in records]
        assert sum(amounts, Decimal(0)) == _api_sum(r["amount"] for r in records)

    check()


def test_tax_export_xlsx_has_month_dates_numbers_and_the_page_filter(client, company, api):
    create(api, *TAX_ITEMS)
    base = signed_in(client, company, "taxes/")
    page = client.get(base + "?paid=no").get_data(as_text=True)
    assert f'href="{base}export?paid=no"' in page
    rows = _sheet(client.get(base + "export?paid=no&format=xlsx", headers=EN))
    titles = [cell.value for cell in rows[0]]
    assert titles[:3] == ["Payment month", "Tax code", "Tax name"]
    assert [row[1].value for row in rows[1:]] == ["104", "104", "103"]  # partly paid: not paid
    assert [row[0].value for row in rows[1:]] == [datetime(2024, m, 1) for m in (6, 4, 3)]
    assert all(row[0].is_date for row in rows[1:])
    amount = rows[1][titles.index("Amount")]
    assert amount.data_type == "n" and amount.value == 1234.56
    assert rows[3][titles.index("Description")].value == "=SZJA"
    assert rows[3][titles.index("Description")].data_type == "s"


def test_salary_export_has_the_tax_number_and_due_date_cells(client, company, api):
    create(api, {"month": "2024-05", "amount": "420000", "name": "Kovács Anna",
                 "account_number": ACCOUNT, "tax_number": TAX_NUMBER},
           {"month": "2024-04", "amount": "380000.50", "name": "Nagy Béla",
            "account_number": ACCOUNT, "tax_number": "8412345684"}, kind="salaries")
    base = signed_in(client, company, "salaries/")
    assert f'href="{base}export"' in client.get(base).get_data(as_text=True)
    rows = _sheet(client.get(base + "export?format=xlsx", headers=EN))
    titles = [cell.value for cell in rows[0]]
    assert titles[:3] == ["Payment month", "Employee", "Tax identification number"]
    records = _api_taxes(api, {}, "salaries")
    assert [row[1].value for row in rows[1:]] == [r["name"] for r in records]
    due = rows[1][titles.index("Due date")]
    assert due.is_date and due.value == datetime.fromisoformat(records[0]["due_at"])
    assert [row[titles.index("Amount")].value for row in rows[1:]] == [420000, 380000.5]
    header, lines = _csv(client.get(base + "export", headers=HU))
    assert header[:2] == ["Kifizetés hónapja", "Munkavállaló"] and lines[1][-2] == "380000,50"


# Partners.

PARTNER_ROW = re.compile(r'<tr data-partner-id="\d+">\s*<td><a [^>]*>([^<]*)</a>')
PARTNER_FILTERS = st.fixed_dictionaries({
    "q": st.sampled_from(["", "kft", "Á", "nincs"]),
    "role": st.sampled_from(["", "customer", "vendor"]),
    "ordering": st.sampled_from(["", "-name", "created_at", "-created_at"]),
})


def _partner_rows(client, url: str) -> list[str]:
    """The partner names of every page of the list, following its Next links."""
    names = []
    for _ in range(20):
        text = client.get(url).get_data(as_text=True)
        names += [html.unescape(name) for name in PARTNER_ROW.findall(text)]
        found = re.search(r'<a [^>]*rel="next" href="([^"]+)"', text)
        if not found:
            return names
        url = html.unescape(found.group(1))
    raise AssertionError("too many pages")


def test_partner_export_is_every_page_of_the_list_for_any_search(client, company, api):
    for n in range(31):
        first = ("Ábel", "Béta", "Alfa", "Őz", "Cukor")[n % 5]
        name = f"{first} {n:02d} " + ("Kft.", "Bt.")[n % 2]
        response = api.post("/2/partners/create/", json={
            "name": name, "is_customer": n % 3 != 0, "is_vendor": n % 3 != 1})
        assert response.status_code == 201, response.text
    base = signed_in(client, company, "partners/")

    @PROPERTY
    @given(PARTNER_FILTERS)
    def check(args):
        query = urlencode({k: v for k, v in args.items() if v})
        shown = _partner_rows(client, f"{base}?{query}")
        _header, rows = _csv(client.get(f"{base}export?{query}"))
        assert [row[0] for row in rows] == shown
        sheet = _sheet(client.get(f"{base}export?{query}&format=xlsx"))
        assert [row[0].value for row in sheet[1:]] == shown
        assert all(row[-1].is_date for row in sheet[1:])

    check()
    assert len(_partner_rows(client, base)) == 31


def test_partner_export_link_follows_the_search_and_has_translated_headers(client, company, api):
    api.post("/2/partners/create/", json={"name": "Árvíztűrő Kft.", "is_customer": True,
                                          "tax_number": "12345676-2-42"})
    base = signed_in(client, company, "partners/")
    fragment = client.get(base + "?q=Kft", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert f'id="export-csv" href="{base}export?q=Kft" download hx-swap-oob="true"' in fragment
    header, rows = _csv(client.get(base + "export?q=Kft", headers=HU))
    assert header[:3] == ["Név", "Adószám", "Vevő"]
    assert rows == [["Árvíztűrő Kft.", "12345676-2-42", "Igen", "Nem", "", "",
                     rows[0][-1]]]
    header, _rows = _csv(client.get(base + "export?q=Kft", headers=EN))
    assert header[:3] == ["Name", "Tax number", "Customer"]


# Bank.

BANK_FILTERS = st.fixed_dictionaries({
    "from_date": st.sampled_from(["", "2026-03-05", "2026-04-01"]),
    "to_date": st.sampled_from(["", "2026-04-10", "2026-04-30"]),
    "partner": st.sampled_from(["", "alfa", "Delta"]),
    "match": st.sampled_from(["", "matched", "unmatched"]),
    "amount_min": st.sampled_from(["", "100"]),
})
BANK_TOTAL = re.compile(r'class="bank-row-total" data-currency="([^"]*)" data-count="(\d+)" '
                        r'data-sum="([^"]*)"')


def _api_transactions(api, args: dict) -> list[dict]:
    """The API's transactions for the filter's days, the rest of the filter applied here."""
    days = {key: args[key] for key in ("from_date", "to_date") if args.get(key)}
    kept = []
    for payment in api.get("/1/payments/", params=days).json():
        for item in payment["transactions"]:
            amount = Decimal(str(item["amount"]))
            if args.get("amount_min") and amount < Decimal(args["amount_min"]):
                continue
            partner = (item["partner"] or "").lower()
            if args.get("partner") and args["partner"].lower() not in partner:
                continue
            if args.get("match") and (item.get("expense_id") is not None) != (
                    args["match"] == "matched"):
                continue
            kept.append({**item, "date": payment["date"]})
    return kept


def test_bank_transaction_export_is_the_filtered_rows_and_adds_up_to_the_footer(
        client, company, api, bank):  # noqa: F811 (the fixture)
    base = signed_in(client, company, "bank/")

    @PROPERTY
    @given(BANK_FILTERS)
    def check(args):
        query = urlencode({k: v for k, v in args.items() if v})
        header, rows = _csv(client.get(f"{base}transactions/export?{query}", headers=EN))
        expected = _api_transactions(api, args)
        assert [(r[0], r[2]) for r in rows] == [(t["date"], t["partner"]) for t in expected]
        amounts = [_number(cell) for cell in _column(header, rows, "Amount")]
        assert sum(amounts, Decimal(0)) == _api_sum(t["amount"] for t in expected)
        footer = {code: Decimal(total) for code, _n, total in
                  BANK_TOTAL.findall(client.get(f"{base}?{query}").get_data(as_text=True))}
        assert set(footer) == set(_column(header, rows, "Currency")), "a footer per currency"
        for code in footer:
            assert sum((a for a, c in zip(amounts, _column(header, rows, "Currency"),
                                          strict=True) if c == code), Decimal(0)) == footer[code]

    check()


def test_bank_exports_have_number_and_date_cells_and_hungarian_headers(client, company, api,
                                                                       bank):  # noqa: F811
    base = signed_in(client, company, "bank/")
    page = client.get(base + "?match=unmatched&page=1").get_data(as_text=True)
    assert f'href="{base}transactions/export?match=unmatched"' in page
    assert f'href="{base}accounts/export"' in page
    sheet = _sheet(client.get(base + "transactions/export?match=unmatched&format=xlsx",
                              headers=EN))
    assert [row[2].value for row in sheet[1:]] == ["Delta GmbH", "OTP Bank Nyrt."]
    assert all(row[0].is_date and row[4].data_type == "n" for row in sheet[1:])
    assert sorted(row[4].value for row in sheet[1:]) == [12.5, 1500]
    accounts = _sheet(client.get(base + "accounts/export?format=xlsx", headers=EN))
    pulse = {a["id"]: a for a in api.get("/1/pulse/").json()["accounts"]}
    names = [a["name"] for a in api.get("/1/accounts/").json()["results"]]
    assert [row[0].value for row in accounts[1:]] == names
    balances = [row[3] for row in accounts[1:]]
    assert all(cell.data_type == "n" for cell in balances)
    assert _api_sum(cell.value for cell in balances) == _api_sum(
        a["current_balance"] for a in pulse.values())
    header, _rows = _csv(client.get(base + "accounts/export", headers=HU))
    assert header == ["Név", "Bankszámlaszám", "Pénznem", "Egyenleg", "Időpont", "Idő"]
    timed = [row for row in accounts[1:] if row[4].value is not None]
    assert timed and all(row[4].is_date and re.fullmatch(r"\d\d:\d\d", row[5].value)
                         for row in timed), "the balance's time as the page shows it"


# The review queue and its log.

QUEUE_FILTERS = st.fixed_dictionaries({
    "date_from": st.sampled_from(["", "2025-03-01", "2025-03-10"]),
    "amount_min": st.sampled_from(["", "1200", "1500"]),
    "amount_max": st.sampled_from(["", "1400", "1800"]),
    "ordering": st.sampled_from(["", "gross_amount", "-invoice_number"]),
    "page_size": st.sampled_from(["", "20"]),
})


def _queue(api, count: int) -> None:
    for n in range(count):
        created = make_income(api, invoice_number=f"REV-{n:03d}",
                              issued_at=f"2025-03-{n % 28 + 1:02d}",
                              gross_amount=f"{1000 + 37 * n}.00")
        set_state(api, created["id"], needs_review=True, review_done=n % 5 == 0)


def _api_incomes(api) -> list[dict]:
    """The incomes waiting for review, as the API lists them."""
    body = api.get("/1/incomes/", params={"needs_review": "true", "review_done": "false",
                                          "page_size": 100}).json()
    results = body["results"]
    return results["incomes"] if isinstance(results, dict) else results


def test_review_queue_export_is_the_queue_for_any_filter_and_adds_up(client, company, api):
    _queue(api, 26)
    waiting = {i["invoice_number"]: i["gross_amount"] for i in _api_incomes(api)}
    base = signed_in(client, company, "review/")

    @PROPERTY
    @given(QUEUE_FILTERS)
    def check(args):
        query = urlencode({k: v for k, v in args.items() if v})
        rows, _pages = listed(client, f"{base}?{query}")
        response = client.get(f"{base}export?{query}", headers=HU)
        header, lines = _csv(response)
        assert [line[0] for line in lines] == rows
        assert response.headers.get(TOTAL_HEADER, str(len(rows))) == str(len(rows))
        gross = [_number(cell) for cell in _column(header, lines, "Bruttó összeg")]
        assert sum(gross, Decimal(0)) == _api_sum(waiting[number] for number in rows)

    check()


def test_review_queue_export_link_keeps_the_filter_and_xlsx_has_cells(client, company, api):
    _queue(api, 3)
    base = signed_in(client, company, "review/")
    fragment = client.get(base + "?amount_min=1030", headers={"HX-Request": "true"})
    assert f'href="{base}export?amount_min=1030" download hx-swap-oob' in fragment.get_data(
        as_text=True)
    shown, _pages = listed(client, base + "?amount_min=1030")
    sheet = _sheet(client.get(base + "export?amount_min=1030&format=xlsx", headers=EN))
    titles = [cell.value for cell in sheet[0]]
    assert titles[:3] == ["Invoice number", "Document type", "Partner"]
    assert [row[0].value for row in sheet[1:]] == shown and sorted(shown) == ["REV-001",
                                                                             "REV-002"]
    line = next(row for row in sheet[1:] if row[0].value == "REV-001")
    assert line[titles.index("Issue date")].value == datetime(2025, 3, 2)
    gross = line[titles.index("Gross amount")]
    assert gross.data_type == "n" and gross.value == 1037


def test_review_log_export_lists_the_actions_the_log_page_shows(client, company, api):
    _queue(api, 3)
    base = signed_in(client, company, "review/")
    page = client.get(base).get_data(as_text=True)
    boxes = re.findall(r'name="ids" value="(\d+:[0-9a-f]+)"', page)
    done = client.post(f"{base}bulk", data={"csrf_token": csrf_token(page), "scope": "selected",
                                            "ids": boxes})
    assert done.status_code == 303
    log = client.get(base + "actions").get_data(as_text=True)
    assert f'href="{base}actions/export"' in log
    header, rows = _csv(client.get(base + "actions/export", headers=EN))
    assert header[:6] == ["When", "Time", "Who", "Action", "Undone", "Income"]
    # Each income named by its invoice number, as the queue and the log page name it.
    numbers = sorted(row[5] for row in rows)
    assert numbers == ["REV-001", "REV-002"] and all(f">{n}</a>" in log for n in numbers)
    assert {row[3] for row in rows} == {"Bulk: marked done"}
    sheet = _sheet(client.get(base + "actions/export?format=xlsx", headers=HU))
    assert sheet[0][0].value == "Mikor" and sheet[1][0].is_date


@pytest.mark.parametrize("path", ["taxes/export", "salaries/export", "partners/export",
                                  "bank/accounts/export", "bank/transactions/export",
                                  "review/export", "review/actions/export"])
def test_every_new_export_answers_an_empty_company_with_just_the_header(client, company, path):
    sign_in(client, company)
    header, rows = _csv(client.get(f"/c/{company.id}/{path}", headers=EN))
    assert header and rows == []


FORMULA = '=HYPERLINK("http://x","y")'


def _formula_records(api) -> None:
    create(api, {"month": "2024-03", "amount": "100.5", "code": "103", "description": FORMULA})
    create(api, {"month": "2024-03", "amount": "5", "name": FORMULA, "account_number": ACCOUNT,
                 "tax_number": TAX_NUMBER}, kind="salaries")
    api.post("/2/partners/create/", json={"name": FORMULA, "is_customer": True})
    created = make_income(api, invoice_number="F-1", partner_name=FORMULA,
                          gross_amount="-1270.64")
    set_state(api, created["id"], needs_review=True, review_done=False)


@pytest.mark.parametrize(("path", "column", "number"), [
    ("taxes/export", 4, ";100,50;"), ("salaries/export", 1, ";5,00;"),
    ("partners/export", 0, None), ("review/export", 2, ";-1270,64;")])
def test_formula_shaped_text_is_neutralised_and_amounts_stay_bare_numbers(
        client, company, api, path, column, number):
    _formula_records(api)
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/{path}", headers=HU)
    text = response.get_data().decode("utf-8")
    _header, rows = _csv(response)
    assert [row[column] for row in rows] == ["'" + FORMULA]
    assert number is None or number in text
