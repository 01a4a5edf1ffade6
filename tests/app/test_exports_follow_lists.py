"""An export, CSV and XLSX, holds exactly the rows its list shows; a list's count is its rows.

The export link comes from the list as htmx swaps it in (the out-of-band copy in the fragment)
and from the full page; for random filter combinations (Hypothesis) the export's rows, in order,
are the rows of every page of the list, and "N records" is how many there are.
"""
from __future__ import annotations

import html
import re
from datetime import date, timedelta
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.app.conftest import sign_in, signed_in
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import make_expense
from tests.app.expenses_helpers import row as expense_row
from tests.app.incomes_helpers import make_income, set_state
from tests.app.list_pages import exported, listed, shown_count

HX = {"HX-Request": "true"}
EXPORT = re.compile(r'<a class="button" id="export-csv" href="([^"]+)" download( hx-swap-oob)?')
XLSX_EXPORT = re.compile(r'<a class="button" id="export-xlsx" href="([^"]+)" download hx-swap-oob')
# Data made once per test, read by every example: the fixtures do not change between them.
PROPERTY = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _day(offset: int) -> str:
    return (date(2025, 3, 15) + timedelta(days=offset)).isoformat()


def _make_incomes(api) -> None:
    partners = ("Alfa Kft.", "Béta Zrt.", "Gamma Bt.")
    for n in range(27):
        created = make_income(
            api, invoice_number=f"INC-{n:03d}", partner_name=partners[n % 3], type=(1, 2)[n % 2],
            issued_at=_day(-n), fulfilled_at=_day(-n // 2), due_at=_day(n % 9 - 4),
            gross_amount=str(1000 + 37 * n) + ".00",
            payments=[{"amount": ("0.00", "10.00", str(1000 + 37 * n) + ".00")[n % 3]}])
        if n % 4 == 0:
            set_state(api, created["id"], needs_review=True, review_done=n % 8 == 0)
        if n % 6 == 3:  # accounting documents: INC-003 and INC-015 void, INC-009 reversed
            set_state(api, created["id"], is_cancelled=True)
    _storno(api, "INC-009", "STO-009", _day(-1))


def _storno(api, original: str, number: str, day: str) -> None:
    """A storno document naming the original (the API cancels it when it is live)."""
    make_income(api, invoice_number=number, type=2, invoice_type=1,
                referred_invoice_number=original, issued_at=day, fulfilled_at=day,
                due_at=day, gross_amount="-1333.00", partner_name="Alfa Kft.")


def _make_expenses(api) -> None:
    ids = expense_catalogue(api)
    partners = ("Delta Kft.", "Epszilon Bt.")
    for n in range(24):
        gross = f"{500 + 250 * n}.00"
        make_expense(api, invoice_number=f"EXP-{n:03d}", partner_name=partners[n % 2],
                     paid_status=1 + n % 3, assignments=[expense_row(ids, gross, "0.00", gross)])


def _export_links(text: str) -> list[tuple[str, bool]]:
    return [(html.unescape(href), bool(oob)) for href, oob in EXPORT.findall(text)]


def _with_format(url: str) -> str:
    return url + ("&" if "?" in url else "?") + "format=xlsx"


def _list_and_export_agree(client, path: str, args: dict) -> None:
    url = f"{path}?{urlencode({k: v for k, v in args.items() if v})}"
    fragment = client.get(url, headers=HX).get_data(as_text=True)
    links = _export_links(fragment)
    assert len(links) == 1 and links[0][1], "the fragment carries the export link out of band"
    rows, pages = listed(client, url)
    assert _export_links(pages[0]) == [(links[0][0], False)]
    assert exported(client, links[0][0]) == rows
    xlsx = XLSX_EXPORT.findall(fragment)
    assert [html.unescape(x) for x in xlsx] == [_with_format(links[0][0])]
    assert exported(client, _with_format(links[0][0])) == rows
    count = shown_count(pages[0])
    assert count == len(rows) or (count is None and "/expenses/" in path)


INCOME_FILTERS = st.fixed_dictionaries({
    "q": st.sampled_from(["", "Alfa", "béta", "INC-01", "nincs"]),
    "date_field": st.sampled_from(["issued_at", "fulfilled_at", "due_at"]),
    "date_from": st.sampled_from(["", _day(-20), _day(-3), _day(0)]),
    "date_to": st.sampled_from(["", _day(-10), _day(-1), _day(2)]),
    "paid_status": st.sampled_from(["", "1", "2", "3"]),
    "type": st.sampled_from(["", "1", "2"]),
    "review": st.sampled_from(["", "to_review", "reviewed", "none"]),
    "cancelled": st.sampled_from(["", "yes", "no", "not_void"]),
    "storno": st.sampled_from(["", "yes", "no"]),
    "ordering": st.sampled_from(["", "gross_amount", "-due_at", "partner_name", "issued_at"]),
    "page_size": st.sampled_from(["", "20"]),
})

EXPENSE_FILTERS = st.fixed_dictionaries({
    "q": st.sampled_from(["", "Delta", "EXP-01", "nincs"]),
    "is_paid": st.sampled_from(["", "true", "false"]),
    "is_installment": st.sampled_from(["", "true", "false"]),
    "min_amount": st.sampled_from(["", "1000", "3000"]),
    "max_amount": st.sampled_from(["", "2500", "6000"]),
    "page_size": st.sampled_from(["", "20"]),
})


LISTS = {"incomes": (_make_incomes, INCOME_FILTERS), "expenses": (_make_expenses, EXPENSE_FILTERS)}


@pytest.mark.parametrize("area", sorted(LISTS))
def test_export_is_the_filtered_list_for_any_filter(client, company, api, area):
    maker, filters = LISTS[area]
    maker(api)
    sign_in(client, company)

    @PROPERTY
    @given(filters)
    def check(args):
        _list_and_export_agree(client, f"/c/{company.id}/{area}/", args)

    check()


def test_htmx_filter_swap_sends_an_export_link_with_that_filter(client, company, api):
    make_income(api, invoice_number="OPEN-1")
    make_income(api, invoice_number="PAID-1", payments=[{"amount": "1270.00"}])
    base = signed_in(client, company, "incomes/")
    page = client.get(base).get_data(as_text=True)
    assert _export_links(page) == [(f"{base}export", False)]
    fragment = client.get(base + "?paid_status=2", headers=HX).get_data(as_text=True)
    ((link, oob),) = _export_links(fragment)
    assert oob and link == f"{base}export?paid_status=2"
    assert exported(client, link) == ["PAID-1"]


QUEUE_FILTERS = st.fixed_dictionaries({
    "date_field": st.sampled_from(["issued_at", "due_at"]),
    "date_from": st.sampled_from(["", _day(-15), _day(-2)]),
    "date_to": st.sampled_from(["", _day(-8), _day(3)]),
    "amount_min": st.sampled_from(["", "1200", "1500"]),
    "amount_max": st.sampled_from(["", "1400", "1800"]),
    "ordering": st.sampled_from(["", "gross_amount", "-invoice_number"]),
    "page_size": st.sampled_from(["", "20"]),
})


def test_review_queue_count_is_its_rows_for_any_filter(client, company, api):
    for n in range(30):
        created = make_income(api, invoice_number=f"REV-{n:03d}", issued_at=_day(-n),
                              due_at=_day(n % 9 - 4), gross_amount=f"{1000 + 37 * n}.00")
        set_state(api, created["id"], needs_review=True, review_done=n % 5 == 0)
    sign_in(client, company)
    assert len(listed(client, f"/c/{company.id}/review/?page_size=20")[0]) == 24

    @PROPERTY
    @given(QUEUE_FILTERS)
    def check(args):
        url = f"/c/{company.id}/review/?{urlencode({k: v for k, v in args.items() if v})}"
        rows, pages = listed(client, url)
        heading = re.search(r'id="queue-count">[^<]*?(\d+)</h2>', pages[0])
        assert heading and int(heading.group(1)) == len(rows) == len(set(rows))
        assert f'name="expected" value="{len(rows)}"' in pages[0] or not rows

    check()
