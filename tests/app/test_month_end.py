"""Month-end: "copy last month" fills the create grid with exactly the previous month's records
and one submit creates them all (one write); the checklist's counts equal the lists they link."""
from __future__ import annotations

import re

from app.numbers import parse_date, parse_month
from app.upstream import taxes as taxes_api
from tests.app.conftest import signed_in
from tests.app.incomes_helpers import page_form
from tests.app.taxes_support import (
    ACCOUNT,
    TAX_NUMBER,
    create,
    months,
    records,
    writes,
)
from tests.sandbox.expense_support import (  # noqa: F401 (ecat: a fixture)
    assignment,
    ecat,
    make_expense,
)
from tests.sandbox.incomes_support import make_income

COUNT = re.compile(r'data-check="(\w+)" data-count="(\d+)"')
LINK = re.compile(r'data-check="(\w+)" data-count="\d+">.*?<a href="([^"]+)"', re.S)
LISTED = re.compile(r'data-expense-id="(\d+)"')


def month_of(text: str) -> str:
    """A grid month as the page shows it (its language's words), as YYYY-MM."""
    return parse_month(text, "en").isoformat()[:7]


def day_of(text: str) -> str:
    """A grid date as the page shows it, as YYYY-MM-DD."""
    return parse_date(text, "en").isoformat()


def grid_rows(form) -> list[dict]:
    """The grid's filled rows as the browser would send them: {field: value}."""
    rows: dict[str, dict] = {}
    for key, value in form.pairs:
        if match := re.fullmatch(r"rows-(\d+)-(\w+)", key):
            rows.setdefault(match[1], {})
            if value:
                rows[match[1]].setdefault(match[2], []).append(value)
    return [row for row in rows.values() if set(row) - {"month", "paid_status"}]


def test_copy_last_month_prefills_the_previous_months_taxes_and_one_submit_creates_them(
        client, company, api, sandbox_log):
    create(api, {"month": "2026-04", "amount": "125000", "code": "103"},
           {"month": "2026-04", "amount": "4500.50", "name": "Iparűzési adó",
            "account_number": ACCOUNT, "description": "HIPA"},
           {"month": "2026-03", "amount": "999", "code": "104"},
           {"month": "2026-05", "amount": "777", "code": "104"})
    base = signed_in(client, company, "taxes/")
    form = page_form(client, base + "new?copy=2026-05")
    assert COPIED in client.get(base + "new?copy=2026-05").get_data(as_text=True)
    rows = grid_rows(form)
    assert sorted((r["amount"][0], r.get("code", [""])[0], month_of(r["month"][0]))
                  for r in rows) == [
        ("125000", "103", "2026-05"), ("4500.50", "", "2026-05")]
    assert all(r["paid_status"] == ["1"] for r in rows)
    sandbox_log.reset()
    response = client.post(base + "new", data=form.data())
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    sent = writes(sandbox_log, company.id, "/2/taxes/create")
    assert len(sent) == 1 and len(sent[0]["body"]) == 2
    may = months(api)["2026-05"]["taxes"]
    assert sorted((r["amount"], r.get("code") or r.get("name")) for r in may) == [
        ("125000.00", "103"), ("4500.50", "Iparűzési adó"), ("777.00", "104")]


def test_copy_last_month_of_salaries_moves_the_due_date_a_month(client, company, api):
    create(api, {"month": "2026-01", "amount": "420000", "name": "Kovács Anna",
                 "account_number": ACCOUNT, "tax_number": TAX_NUMBER, "due_at": "2026-01-31"},
           kind="salaries")
    base = signed_in(client, company, "salaries/")
    (row,) = grid_rows(page_form(client, base + "new?copy=2026-02"))
    assert month_of(row["month"][0]) == "2026-02" and day_of(row["due_at"][0]) == "2026-02-28"
    assert row["tax_number"] and row["name"] == ["Kovács Anna"]


COPIED = "The rows are last month’s records, copied for review"


def test_copy_of_an_empty_month_says_so_and_not_that_rows_were_copied(client, company):
    base = signed_in(client, company, "taxes/")
    html = client.get(base + "new?copy=2026-05", follow_redirects=True).get_data(as_text=True)
    assert "The previous month has no records to copy." in html
    assert COPIED not in html
    assert COPIED not in client.get(base + "new?copy=xyz").get_data(as_text=True)


def test_checklist_counts_equal_their_lists(client, company, api, ecat):  # noqa: F811
    for n, day in enumerate(("2026-02-01", "2026-03-31", "2026-04-01")):
        make_income(api, invoice_number=f"R-{n}", needs_review=True, review_done=False,
                    issued_at=day, fulfilled_at=day, due_at=day)
    for n, day in enumerate(("2026-03-05", "2026-03-25", "2026-04-02", None)):
        make_expense(api, ecat, invoice_number=f"E-{n}", fulfilled_at=day, issued_at=day,
                     processed=(n == 1))
    make_expense(api, ecat, invoice_number="OUT-1", excluded_from_accounting=True,
                 fulfilled_at="2026-03-10", issued_at="2026-03-10")
    _vat_periods(api, True)
    create(api, {"month": "2026-03", "amount": "10", "code": "103"},
           {"month": "2026-03", "amount": "20", "code": "104"})
    signed_in(client, company, "taxes/")
    html = client.get(f"/c/{company.id}/vat/month-end?month=2026-03").get_data(as_text=True)
    counts = {name: int(count) for name, count in COUNT.findall(html)}
    links = dict(LINK.findall(html))
    assert counts["taxes"] == 2 and counts["salaries"] == 0
    review = client.get(links["review"].replace("&amp;", "&")).get_data(as_text=True)
    # R-2 and E-2 are April's: they do not hold March's close up. E-3 has no date yet.
    assert counts["review"] == 2 and "R-0" in review and "R-1" in review
    assert "R-2" not in review
    for name in ("unprocessed", "no_vat_period"):
        listed = client.get(links[name].replace("&amp;", "&")).get_data(as_text=True)
        assert counts[name] == len(LISTED.findall(listed))
    unprocessed = api.get("/2/expenses", params={"is_processed": "false",
                                                "page_size": 1000}).json()["results"]["expenses"]
    to_process = [e["invoice_number"] for e in unprocessed
                  if e["accounting_status"] == "unprocessed"]  # not OUT-1
    assert sorted(to_process) == ["E-0", "E-2", "E-3"] and counts["unprocessed"] == 2
    listed = client.get(links["unprocessed"].replace("&amp;", "&")).get_data(as_text=True)
    assert "E-0" in listed and "E-3" in listed and "E-2" not in listed
    in_march = api.get("/2/expenses", params={"date_field": "fulfilled_at",
                                             "from_date": "2026-03-01", "to_date": "2026-03-31",
                                             "has_vat_period": "false"}).json()
    # OUT-1 is excluded from accounting: it needs no VAT period, as the VAT summary agrees.
    assert counts["no_vat_period"] == len(in_march["results"]["expenses"]) - 1 == 2
    tax_list = client.get(links["taxes"].replace("&amp;", "&")).get_data(as_text=True)
    assert counts["taxes"] == len(re.findall(r'data-record-id="\d+"', tax_list))
    assert f'href="/c/{company.id}/salaries/new?copy=2026-03"' in html


def _vat_periods(api, on: bool) -> None:
    company_id = api.get("/2/company-info/").json()["id"]
    assert api.patch(f"/2/company-info/update/{company_id}/",
                     json={"enable_vat_period": on}).status_code == 200


def test_without_vat_periods_the_checklist_asks_for_none(client, company, api, ecat,  # noqa: F811
                                                        sandbox_log):
    make_expense(api, ecat, invoice_number="E-1", fulfilled_at="2026-03-05",
                 issued_at="2026-03-05")
    _vat_periods(api, False)
    signed_in(client, company, "taxes/")
    sandbox_log.reset()
    html = client.get(f"/c/{company.id}/vat/month-end?month=2026-03").get_data(as_text=True)
    assert not [e for e in sandbox_log.entries(company_id=company.id, path="/2/expenses")
                if "has_vat_period" in e["args"]], "the expenses without a period are not read"
    assert "no_vat_period" not in dict(COUNT.findall(html))
    assert "unprocessed" in dict(COUNT.findall(html))
    drill = client.get(f"/c/{company.id}/vat/month-end?month=2026-03&show=no_vat_period")
    assert drill.status_code == 200 and not LISTED.findall(drill.get_data(as_text=True))


def test_the_unprocessed_list_shows_each_gross_as_the_expense_list_does(client, company, api,
                                                                      ecat):  # noqa: F811
    made = make_expense(api, ecat, invoice_number="SPLIT-1", gross_amount="0.00", assignments=[
        assignment(ecat, "1000.00", "270.50", "1270.50"), assignment(ecat, "10.00", "0", "10.00")])
    base = signed_in(client, company, "vat/month-end?show=unprocessed")
    html = client.get(base).get_data(as_text=True)
    row = html.split(f'data-expense-id="{made["id"]}"')[1].split("</tr>")[0]
    assert "SPLIT-1" in row and "HUF\u00a01,280.50" in row.replace("&nbsp;", "\u00a0"), row
    shown = client.get(f"/c/{company.id}/expenses/").get_data(as_text=True)
    assert "1,280.50" in shown.split("SPLIT-1")[1].split("</tr>")[0]


ITEM = re.compile(r'data-check="(\w+)" data-count="\d+">\s*<span class="badge[^"]*">([^<]+)'
                  r'</span>\s*<a href="[^"]+">([^:<]+):', re.S)


def test_taxes_and_salaries_are_done_once_recorded_and_the_items_say_recorded(client, company,
                                                                             api):
    create(api, {"month": "2026-03", "amount": "10", "code": "103"})
    signed_in(client, company, "taxes/")
    html = client.get(f"/c/{company.id}/vat/month-end?month=2026-03").get_data(as_text=True)
    items = {name: (status, label) for name, status, label in ITEM.findall(html)}
    assert items["taxes"] == ("Done", "Taxes recorded for the month")
    assert items["salaries"] == ("To do", "Salaries recorded for the month")


def test_the_checklist_and_the_taxes_pages_read_records_through_one_reader(client, company, api,
                                                                         monkeypatch):
    create(api, {"month": "2026-03", "amount": "10", "code": "103"},
           {"month": "2026-04", "amount": "20", "code": "104"})
    march = [key for key, record in records(api).items() if record["month"][:7] == "2026-03"]
    read = []
    original = taxes_api.records

    def spy(body, kind):
        found = original(body, kind)
        read.append((kind, sorted(record["id"] for record in found)))
        return found

    monkeypatch.setattr(taxes_api, "records", spy)
    signed_in(client, company, "taxes/")
    assert client.get(f"/c/{company.id}/vat/month-end?month=2026-03").status_code == 200
    assert ("taxes", march) in read and ("salaries", []) in read and len(march) == 1
    assert sorted(original(api.get("/2/monthly-taxes/", params={"fields": "taxes"}).json(),
                           "taxes"), key=lambda r: r["id"]) == sorted(
        records(api).values(), key=lambda r: r["id"])


def test_copying_into_the_first_month_of_year_one_says_there_is_nothing_to_copy(client,
                                                                               company):
    base = signed_in(client, company, "taxes/")
    response = client.get(base + "new?copy=0001-01", follow_redirects=True)
    assert response.status_code == 200
    assert "The previous month has no records to copy." in response.get_data(as_text=True)
