"""Every list envelope becomes a Page, and iter_all follows next links until null."""

from __future__ import annotations

import pytest

from app.upstream import Unavailable
from app.upstream.responses import MalformedPage, Page, id_names, parse_page, resource_from_path


def test_bare_list():
    assert parse_page([{"id": 1}], "tags") == Page(items=[{"id": 1}], count=1)


def test_flat_results_page_number_style():
    body = {"count": 41, "next": "http://u/1/incomes?page=3", "previous": "http://u/1/incomes",
            "results": [{"id": 1}, {"id": 2}]}
    page = parse_page(body, "incomes")
    assert page.items == [{"id": 1}, {"id": 2}]
    assert (page.count, page.next, page.previous) == (41, body["next"], body["previous"])
    assert page.lookups == {}


def test_cursor_style_has_no_count():
    page = parse_page({"next": "http://u/2/expenses?cursor=x", "previous": None,
                       "results": []}, "expenses")
    assert page.count is None and page.next.endswith("cursor=x") and page.items == []


def test_a_cursor_page_reads_its_cursors_out_of_the_links():
    page = parse_page({"next": "http://u/2/expenses?page_size=50&cursor=cD0y%2B&x=1",
                       "previous": "http://u/2/expenses?cursor=cj0x", "results": []}, "expenses")
    assert (page.next_cursor, page.previous_cursor) == ("cD0y+", "cj0x")
    assert Page(items=[], next="http://u/2/expenses?page=2").next_cursor is None
    assert Page(items=[]).previous_cursor is None


def test_nested_results_with_lookup_tables():
    body = {
        "count": 1, "next": None, "previous": None,
        "results": {
            "incomes": [{"id": 5, "revenue_type": 2, "tags": [7]}],
            "revenue_types": [{"id": 2, "name": "Sales"}],
            "tags": [{"id": 7, "name": "Q1"}],
        },
    }
    page = parse_page(body, "incomes")
    assert page.items == [{"id": 5, "revenue_type": 2, "tags": [7]}]
    assert page.lookups == {"revenue_types": {2: "Sales"}, "tags": {7: "Q1"}}


def test_top_level_resource_key_with_lookups_monthly_taxes():
    body = {"monthly_taxes": [{"month": "2024-03-01", "amount": "10.00"}],
            "tags": [{"id": 1, "name": "Tax"}]}
    page = parse_page(body, resource_from_path("/2/monthly-taxes/"))
    assert page.items == body["monthly_taxes"] and page.lookups == {"tags": {1: "Tax"}}


@pytest.mark.parametrize(
    "body", [{"detail": "x"}, {"results": {"expenses": []}}, "text", None, {"results": None}]
)
def test_unknown_envelopes_are_malformed(body):
    with pytest.raises(MalformedPage):
        parse_page(body, "incomes")


def test_resource_from_path():
    assert resource_from_path("/1/incomes") == "incomes"
    assert resource_from_path("/2/expense-types/") == "expense_types"
    assert resource_from_path("http://u/2/expenses?cursor=1") == "expenses"


def test_id_names_uses_name_then_code():
    items = [{"id": 1, "name": "HUF"}, {"id": 2, "code": "EUR"}, {"id": 3}, {"name": "no id"}]
    assert id_names(items) == {1: "HUF", 2: "EUR", 3: "3"}
    assert id_names([{"id": 1, "name": "A", "code": "a"}], "code") == {1: "a"}


def test_iter_all_follows_absolute_next_links_until_null(stub, stub_client):
    stub.then(
        stub.reply(body={"count": 3, "next": f"{stub.url}/1/incomes?page=2&page_size=2",
                         "previous": None, "results": [{"id": 1}, {"id": 2}]}),
        stub.reply(body={"count": 3, "next": None, "previous": f"{stub.url}/1/incomes",
                         "results": [{"id": 3}]}),
    )
    ids = [item["id"] for item in stub_client.iter_all("/1/incomes", {"page_size": 2})]
    assert ids == [1, 2, 3]
    assert [r["path"] for r in stub.requests] == [
        "/1/incomes?page_size=2", "/1/incomes?page=2&page_size=2",
    ]


def test_iter_pages_over_nested_cursor_pages_keeps_each_pages_lookups(stub, stub_client):
    def nested(ids, tag, next_url):
        return {"next": next_url, "previous": None, "results": {
            "expenses": [{"id": i} for i in ids], "tags": [{"id": tag, "name": f"T{tag}"}]}}

    stub.then(
        stub.reply(body=nested([1], 10, f"{stub.url}/2/expenses?cursor=b")),
        stub.reply(body=nested([2], 20, None)),
    )
    pages = list(stub_client.iter_pages("/2/expenses"))
    assert [p.items for p in pages] == [[{"id": 1}], [{"id": 2}]]
    assert [p.lookups["tags"] for p in pages] == [{10: "T10"}, {20: "T20"}]


def test_a_next_link_that_loops_stops_with_unavailable(stub, stub_client):
    looping = {"next": f"{stub.url}/2/expenses?cursor=a", "results": []}
    stub.default = stub.reply(body=looping)
    with pytest.raises(Unavailable, match="loops"):
        list(stub_client.iter_all("/2/expenses"))
    assert len(stub.requests) == 2


def test_page_with_an_unknown_envelope_raises_unavailable(stub, stub_client):
    stub.then(stub.reply(body={"unexpected": True}))
    with pytest.raises(Unavailable, match="malformed list body"):
        stub_client.page("/1/incomes")
