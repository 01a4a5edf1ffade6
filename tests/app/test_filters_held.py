"""A list is held to its filters: when the accounting service lists rows outside a filter it
was sent (it passes over a filter it does not know, docs/sandbox-operations.md), the list says
so and shows no rows, count or totals, rather than a wrong list. The sandbox's `ignore_query`
fault passes the named parameters over as such a service would."""
from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from app.upstream.errors import FilterIgnored
from app.upstream.responses import Page, within_filter
from tests.app.conftest import signed_in
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import make_expense
from tests.app.test_review_support import review_base, waiting
from tests.sandbox.incomes_support import make_income

MESSAGE = "listed records outside the filter"


def test_an_income_filter_the_service_passes_over_shows_no_list(client, company, api, faults):
    make_income(api, invoice_number="LIVE-1")
    make_income(api, invoice_number="GONE-1", is_cancelled=True)
    base = signed_in(client, company, "incomes/")
    faults.add(path="/1/incomes", method="GET", kind="ignore_query", params=["is_cancelled"])
    response = client.get(f"{base}?cancelled=yes")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert f"{MESSAGE} “Cancelled”" in html and "LIVE-1" not in html and "GONE-1" not in html
    assert 'class="list-totals"' not in html
    assert not faults.unspent()


def test_a_filter_passed_over_on_a_later_page_shows_no_totals(client, company, api, faults):
    # The shown page (newest first) happens to fit; the totals' read of every page does not.
    make_income(api, invoice_number="LIVE-OLD", issued_at="2020-01-02")
    for n in range(21):
        make_income(api, invoice_number=f"GONE-{n}", issued_at="2026-01-05", is_cancelled=True)
    base = signed_in(client, company, "incomes/")
    faults.add(path="/1/incomes", method="GET", kind="ignore_query", params=["is_cancelled"])
    response = client.get(f"{base}?cancelled=yes&page_size=20")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert f"{MESSAGE} “Cancelled”" in html and 'class="list-totals"' not in html


def test_the_review_queue_with_its_filter_passed_over_shows_no_queue(client, company, api,
                                                                    faults):
    waiting(api, invoice_number="WAIT-1")
    make_income(api, invoice_number="DONE-1", needs_review=False)
    base = review_base(client, company)
    faults.add(path="/1/incomes", method="GET", kind="ignore_query", params=["needs_review"])
    html = client.get(base).get_data(as_text=True)
    assert f"{MESSAGE} “Review”" in html and "DONE-1" not in html


def test_an_expense_date_range_the_service_passes_over_shows_no_list(client, company, api,
                                                                     faults):
    ids = expense_catalogue(api)
    today = date.today()
    make_expense(api, ids, invoice_number="OLD-1", issued_at=str(today - timedelta(days=90)))
    make_expense(api, ids, invoice_number="NEW-1", issued_at=str(today))
    base = signed_in(client, company, "expenses/")
    faults.add(path="/2/expenses", method="GET", kind="ignore_query",
               params=["from_date", "to_date"])
    day = today.isoformat()
    html = client.get(f"{base}?date_field=issued_at&created_from={day}&created_to={day}"
                      ).get_data(as_text=True)
    assert f"{MESSAGE} “Issue date”" in html and "OLD-1" not in html


def test_a_page_whose_own_read_comes_back_unfiltered_says_so(client, company, api, faults):
    # The newest row fits the review filter: a count read one row deep would not see that the
    # filter was passed over.
    waiting(api, invoice_number="WAIT-2", issued_at="2026-01-05")
    make_income(api, invoice_number="DONE-2", needs_review=False, issued_at="2020-01-02")
    signed_in(client, company, "incomes/")
    faults.add(path="/1/incomes", method="GET", kind="ignore_query", params=["needs_review"])
    response = client.get(f"/c/{company.id}/")
    html = response.get_data(as_text=True)
    assert response.status_code == 502
    assert "outside the filter “Review” that this page reads" in html


def test_a_filter_the_service_applies_lists_as_before(client, company, api):
    make_income(api, invoice_number="LIVE-2")
    make_income(api, invoice_number="GONE-2", is_cancelled=True)
    base = signed_in(client, company, "incomes/")
    html = client.get(f"{base}?cancelled=yes").get_data(as_text=True)
    assert "GONE-2" in html and "LIVE-2" not in html and MESSAGE not in html


STATUSES = st.sampled_from((1, 2, 3))
DAYS = st.dates(min_value=date(2020, 1, 1), max_value=date(2030, 12, 31))


def _as_sent(values: set[int], shape: str):
    """Filter values as a client may send them: a comma list (spaces allowed) or a list."""
    ordered = sorted(values)
    return {"comma": ",".join(map(str, ordered)), "spaced": ", ".join(map(str, ordered)),
            "list": ordered}[shape]


@settings(max_examples=300, deadline=None)
@given(wanted=st.sets(STATUSES, min_size=1), rows=st.lists(STATUSES, max_size=8),
       cancelled=st.booleans(), flags=st.lists(st.booleans(), max_size=8),
       shape=st.sampled_from(("comma", "spaced", "list")),
       word=st.sampled_from((str, lambda flag: "1" if flag else "0", lambda flag: flag)))
def test_a_page_passes_exactly_when_every_row_shows_its_filters(wanted, rows, cancelled, flags,
                                                                 shape, word):
    params = {"paid_status": _as_sent(wanted, shape), "is_cancelled": word(cancelled)}
    items = [{"paid_status": status, "is_cancelled": flag}
             for status, flag in zip(rows, flags, strict=False)]
    fits = all(row["paid_status"] in wanted and row["is_cancelled"] == cancelled
               for row in items)
    try:
        within_filter(Page(items=items), params)
    except FilterIgnored:
        assert not fits
    else:
        assert fits


@settings(max_examples=300, deadline=None)
@given(start=DAYS, span=st.integers(0, 60), days=st.lists(DAYS, max_size=8),
       field=st.sampled_from(("issued_at", "fulfilled_at", "due_at")))
def test_a_page_passes_a_date_range_exactly_when_every_row_is_in_it(start, span, days, field):
    end = start + timedelta(days=span)
    params = {"date_field": field, "from_date": start.isoformat(), "to_date": end.isoformat()}
    items = [{field: day.isoformat()} for day in days] + [{field: None}]
    try:
        within_filter(Page(items=items), params)
    except FilterIgnored:
        assert not all(start <= day <= end for day in days)
    else:
        assert all(start <= day <= end for day in days)
