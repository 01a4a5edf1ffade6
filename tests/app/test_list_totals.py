"""The list footers' totals equal the sums of the company's rows that the filter selects, the
rows read whole from the API and filtered in the test by what each filter means (a property
over filters), the Overdue tabs list exactly the unpaid, past-due rows by days
overdue, and a filter too large to read through says its totals are of the shown page only.

The data: HUF and EUR incomes (EUR at a known rate), paid, unpaid, partially paid and
cancelled, due before, on and after today, issued across months; expenses alike.
"""
from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.numbers import company_today, local_time
from tests.app.conftest import sign_in
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import make_expense, row
from tests.app.incomes_helpers import make_income
from tests.app.list_pages import csv_rows
from tests.app.totals_support import (
    api_rows,
    by_currency,
    expense_sums,
    footer,
    gross_in_huf,
    income_sums,
)

DAY_OFFSETS = (-70, -40, -12, -3, -1, 0, 2, 25)
PROPERTY = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _day(offset: int) -> str:
    return (company_today() + timedelta(days=offset)).isoformat()


def _codes(api) -> dict:
    return {c["id"]: c["code"] for c in api.get("/2/currencies/").json()}


@pytest.fixture
def books(client, company, api) -> dict:
    """Incomes and expenses on every side of the filters, signed in; the currency codes."""
    codes = _codes(api)
    eur = next(i for i, code in codes.items() if code == "EUR")
    for n, offset in enumerate(DAY_OFFSETS):
        payments = ([{"amount": "1270.00"}], [{"amount": "100.00"}], [])[n % 3]
        make_income(api, invoice_number=f"H-{n}", issued_at=_day(offset - 5),
                    fulfilled_at=_day(offset - 5), due_at=_day(offset),
                    net_amount=f"{1000 + n}.00", gross_amount=f"{1270 + n}.00",
                    payments=payments)
        make_income(api, invoice_number=f"E-{n}", issued_at=_day(offset), due_at=_day(offset),
                    currency=eur, exchange_rate="391.25", net_amount=f"{10 + n}.50",
                    gross_amount=f"{12 + n}.70")
    make_income(api, invoice_number="X-1", due_at=_day(-9), is_cancelled=True)
    ids = expense_catalogue(api)
    for n, offset in enumerate(DAY_OFFSETS):
        make_expense(api, ids, invoice_number=f"K-{n}", paid_status=(1, 2, 3)[n % 3],
                     issued_at=_day(offset - 3), fulfilled_at=_day(offset - 3),
                     due_at=_day(offset),
                     assignments=[row(ids, net=f"{500 + n}.00", vat=f"{135 + n}.00",
                                      gross=f"{635 + 2 * n}.00"),
                                  row(ids, net="100.00", vat="27.00", gross="127.00")])
    sign_in(client, company)
    return {"codes": codes, "company": company}


def _page(client, company, area: str, args: dict) -> str:
    response = client.get(f"/c/{company.id}/{area}/?{urlencode(args)}")
    assert response.status_code == 200, response.get_data(as_text=True)[:800]
    return response.get_data(as_text=True)


def _exported_forints(client, company, area: str, args: dict) -> Decimal:
    """The sum of the list's CSV export's last column, its gross in forints."""
    response = client.get(f"/c/{company.id}/{area}/export?{urlencode(args)}")
    rows = csv_rows(response.get_data(as_text=True))
    assert rows[0][-2:] == ["Exchange rate", "Gross in forints"]
    return sum((Decimal(row[-1]) for row in rows[1:]), Decimal(0))


def _within(value: str | None, start: str, end: str) -> bool:
    """True when the day of value lies in the inclusive [start, end] range (ends optional)."""
    if not start and not end:
        return True
    day = (value or "")[:10]
    return bool(day) and (not start or day >= start) and (not end or day <= end)


def _overdue(row: dict) -> bool:
    """Unpaid or partly paid, not cancelled, no storno, due before today in the company's
    zone."""
    return (row["paid_status"] != 2 and not row.get("is_cancelled") and bool(row.get("due_at"))
            and row.get("invoice_type") != 1 and row["due_at"] < company_today().isoformat())


def _overdue_refused(args: dict, asks_paid: bool, start: str, end: str) -> bool:
    """Whether the filter asks the Overdue tab for what it never lists: paid (or cancelled)
    documents, or a range (start, end) over another date than the due date."""
    dated = args.get(start) or args.get(end)
    return args.get("tab") == "overdue" and (
        asks_paid or bool(dated and args["date_field"] != "due_at"))


def _income_matches(row: dict, args: dict) -> bool:
    """Whether an income belongs to the list at args, by what each filter means; the Overdue
    tab narrows the filter further."""
    paid = args.get("paid_status") or ""
    if args.get("tab") == "overdue" and not _overdue(row):
        return False
    wanted = {"open": {1, 3}, "": None}[paid] if paid in ("open", "") else {int(paid)}
    if wanted and row["paid_status"] not in wanted:
        return False
    cancelled = {"yes": True, "no": False}.get(args.get("cancelled"))
    if cancelled is not None and bool(row.get("is_cancelled")) != cancelled:
        return False
    return _within(row.get(args["date_field"]), args.get("date_from"), args.get("date_to"))


income_filters = st.fixed_dictionaries({
    "paid_status": st.sampled_from(["", "1", "2", "3", "open"]),
    "cancelled": st.sampled_from(["", "yes", "no"]),
    "date_field": st.sampled_from(["issued_at", "fulfilled_at", "due_at"]),
    "date_from": st.sampled_from(["", _day(-45), _day(-4)]),
    "date_to": st.sampled_from(["", _day(-2), _day(30)]),
    "tab": st.sampled_from(["", "overdue"]),
    "page_size": st.sampled_from(["20", "50"]),
})


@PROPERTY
@given(args=income_filters)
def test_income_totals_equal_the_sum_of_the_rows_the_filter_selects(books, client, api, args):
    sent = {k: v for k, v in args.items() if v}
    asks_paid = args.get("paid_status") == "2" or args.get("cancelled") == "yes"
    if _overdue_refused(args, asks_paid, "date_from", "date_to"):
        refused = client.get(f"/c/{books['company'].id}/incomes/?{urlencode(sent)}")
        assert refused.status_code == 400 and "The Overdue tab " in refused.get_data(as_text=True)
        return
    page = _page(client, books["company"], "incomes", sent)
    shown = footer(page)
    rows = [r for r in api_rows(api, "/1/incomes", {}) if _income_matches(r, args)]
    assert shown["whole"]
    assert shown["count"] == len(rows)
    assert shown["rows"] == by_currency(rows, books["codes"], income_sums)
    assert _exported_forints(client, books["company"], "incomes", sent) == shown["huf"]["gross"]


def _local_day(value: str | None) -> str | None:
    """The company-zone day of a timestamp (a plain day stays as it is)."""
    moment = local_time(value) if value and len(value) > 10 else None
    return moment.date().isoformat() if moment else value


def _expense_matches(row: dict, args: dict) -> bool:
    """Whether an expense belongs to the list at args, by what each filter means. The Overdue
    tab narrows the filter further."""
    if args.get("tab") == "overdue" and not _overdue(row):
        return False
    paid = {"true": True, "false": False}.get(args.get("is_paid"))
    if paid is not None and (row["paid_status"] == 2) != paid:
        return False
    day = _local_day(row.get(args["date_field"]))
    return _within(day, args.get("created_from"), args.get("created_to"))


expense_filters = st.fixed_dictionaries({
    "is_paid": st.sampled_from(["", "true", "false"]),
    "date_field": st.sampled_from(["issued_at", "fulfilled_at", "due_at", "created_at"]),
    "created_from": st.sampled_from(["", _day(-45), _day(-4)]),
    "created_to": st.sampled_from(["", _day(-2), _day(30)]),
    "tab": st.sampled_from(["", "overdue"]),
    "page_size": st.sampled_from(["20", "50"]),
})


@PROPERTY
@given(args=expense_filters)
def test_expense_totals_equal_the_sum_of_the_rows_the_filter_selects(books, client, api, args):
    sent = {k: v for k, v in args.items() if v}
    if _overdue_refused(args, args.get("is_paid") == "true", "created_from", "created_to"):
        refused = client.get(f"/c/{books['company'].id}/expenses/?{urlencode(sent)}")
        assert refused.status_code == 400 and "The Overdue tab " in refused.get_data(as_text=True)
        return
    page = _page(client, books["company"], "expenses", sent)
    shown = footer(page)
    rows = [r for r in api_rows(api, "/2/expenses", {}) if _expense_matches(r, args)]
    assert shown["whole"]
    assert shown["count"] == len(rows)
    assert shown["rows"] == by_currency(rows, books["codes"], expense_sums)
    assert _exported_forints(client, books["company"], "expenses", sent) == shown["huf"]["gross"]


def _more_incomes(api, count: int = 10) -> None:
    for n in range(count):
        make_income(api, invoice_number=f"M-{n}", net_amount=f"{200 + n}.00",
                    gross_amount=f"{254 + n}.00")


def test_totals_cover_every_page_not_only_the_shown_one(books, client, api):
    _more_incomes(api)
    page = _page(client, books["company"], "incomes", {"page_size": "20", "page": "2"})
    rows = api_rows(api, "/1/incomes", {})
    assert len(rows) > 20
    assert footer(page)["count"] == len(rows)


def test_foreign_currency_rows_get_their_huf_equivalent(books, client, api):
    page = _page(client, books["company"], "incomes", {})
    rows = api_rows(api, "/1/incomes", {})
    expected = sum((gross_in_huf(income_sums(r), Decimal(1) if books["codes"][r["currency"]] ==
                                 "HUF" else Decimal(r["exchange_rate"])) for r in rows),
                   Decimal(0))
    assert footer(page)["huf"]["gross"] == expected
    assert "EUR" in footer(page)["rows"]


def test_a_filter_past_the_row_limit_says_its_totals_are_of_the_shown_page(books, client, api,
                                                                          monkeypatch):
    _more_incomes(api)
    monkeypatch.setattr("app.totals.ROW_LIMIT", 5)
    page = _page(client, books["company"], "incomes", {"page_size": "20"})
    shown = footer(page)
    assert not shown["whole"]
    assert shown["count"] == 20  # the shown page's rows, not the 27 of the filter
    note = page[page.index('class="list-totals"'):]
    assert "Totals of the shown page" in note and "more than 5 records" in note, note[:3000]


def test_the_footer_comes_with_the_filtered_fragment(books, client, api):
    company = books["company"]
    response = client.get(f"/c/{company.id}/incomes/?paid_status=2",
                          headers={"HX-Request": "true", "HX-Target": "income-list"})
    body = response.get_data(as_text=True)
    paid = api_rows(api, "/1/incomes", {"paid_status": "2"})
    assert "<!doctype" not in body.lower() and '<section id="income-list"' in body
    assert 0 < footer(body)["count"] == len(paid)


OVERDUE_ROW = {
    "incomes": re.compile(r'data-income-id="\d+">.*?<a [^>]*>([^<]*)</a>.*?'
                          r'data-days-overdue="(\d+)"', re.S),
    "expenses": re.compile(r'data-expense-id="\d+">.*?<span class="cell-sub">([^<]*)</span>.*?'
                           r'data-days-overdue="(\d+)"', re.S),
}


@pytest.mark.parametrize("area, path, number", [("incomes", "/1/incomes", "invoice_number"),
                                                ("expenses", "/2/expenses", "invoice_number")])
def test_overdue_tab_lists_exactly_the_unpaid_past_due_rows_by_days_overdue(books, client, api,
                                                                           area, path, number):
    page = _page(client, books["company"], area, {"tab": "overdue", "page_size": "100"})
    shown = [(key, int(days)) for key, days in OVERDUE_ROW[area].findall(page)]
    today = company_today()
    expected = [(r[number], (today - date.fromisoformat(r["due_at"])).days)
                for r in api_rows(api, path, {}) if _overdue(r)]
    assert sorted(shown) == sorted(expected)
    assert [days for _key, days in shown] == sorted((d for _k, d in expected), reverse=True)
    assert all(days > 0 for _key, days in shown)
