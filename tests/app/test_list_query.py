"""A ListQuery's link, read back by its list, gives the upstream query the query counted with."""
from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qsl, urlsplit

from flask import g
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from app.dashboard.service import cards
from app.expenses import forms as expense_filters
from app.incomes import forms as income_filters
from app.numbers import company_today
from app.review import forms as review_filters
from tests.app.test_exports_follow_lists import EXPENSE_FILTERS, INCOME_FILTERS, QUEUE_FILTERS

READERS = {"incomes": income_filters.list_query, "expenses": expense_filters.list_query,
           "review": review_filters.queue_query}
COMPANY = 7


def _read_back(app, url: str, area: str):
    """What the list at url sends upstream, read by the list's own reader."""
    path, query = urlsplit(url).path, urlsplit(url).query
    assert path == f"/c/{COMPANY}/{area}/"
    with app.test_request_context(url):
        return READERS[area](MultiDict(parse_qsl(query))).params()


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(*(st.tuples(st.just(area), strategy) for area, strategy in (
    ("incomes", INCOME_FILTERS), ("expenses", EXPENSE_FILTERS), ("review", QUEUE_FILTERS)))))
def test_the_link_of_a_query_reads_back_as_the_query(app, area_args):
    area, args = area_args
    with app.test_request_context(f"/c/{COMPANY}/"):
        g.company_id = COMPANY
        query = READERS[area](args)
        url, params = query.url(), query.params()
    assert _read_back(app, url, area) == params


def test_overdue_card_is_the_overdue_tab_and_links_the_same(app):
    with app.test_request_context(f"/c/{COMPANY}/"):
        g.company_id = COMPANY
        overdue = cards()["overdue"]
        url, params = overdue.url(), overdue.params()
    yesterday = (company_today() - timedelta(days=1)).isoformat()
    assert {k: params[k] for k in ("paid_status", "date_field", "to_date", "is_cancelled")} == {
        "paid_status": "1,3", "date_field": "due_at", "to_date": yesterday,
        "is_cancelled": "false"}  # partly paid ones are overdue too; cancelled ones are not
    assert "tab=overdue" in url and _read_back(app, url, "incomes") == params
