"""Paging through the live sandbox's page-number, cursor and nested-results lists."""

from __future__ import annotations

import pytest
import requests

from app.upstream import UpstreamClient, ValidationError, catalog


@pytest.fixture
def client(sandbox_url, company):
    """An admin client for the test company."""
    return UpstreamClient(sandbox_url, company.tokens["admin"], company.id, backoff=0.01)


def _make(sandbox_url, kind: str, company_id: int, count: int, **fields) -> None:
    for n in range(count):
        spec = {"company_id": company_id, **fields}
        if kind == "incomes":
            spec.update(type=2, invoice_number=f"INV-{n}", gross_amount="100.00",
                        net_amount="100.00")
        response = requests.post(f"{sandbox_url}/_sandbox/{kind}/", json=spec, timeout=10)
        assert response.status_code == 201, response.text


def test_page_number_list_is_read_to_the_end(client, company, sandbox_log):
    for n in range(5):
        client.post("/2/partners/create/", json={"name": f"Partner {n}", "is_customer": True})
    first = client.page("/1/partners/", {"page_size": 2})
    assert first.count == 5 and first.next and len(first.items) == 2
    names = [p["name"] for p in client.iter_all("/1/partners/", {"page_size": 2})]
    assert sorted(names) == [f"Partner {n}" for n in range(5)]
    assert len(sandbox_log.entries(method="GET", path="/1/partners", sent_for=company.id)) == 1 + 3


def test_nested_income_pages_carry_lookups(client, sandbox_url, company):
    tag = client.get("/2/tags/")[0]
    _make(sandbox_url, "incomes", company.id, 3, tags=[tag["id"]])
    pages = list(client.iter_pages("/1/incomes/", {"page_size": 2}))
    assert [len(p.items) for p in pages] == [2, 1]
    assert pages[0].count == 3
    assert [p.lookups["tags"] for p in pages] == [{tag["id"]: tag["name"]}] * 2
    assert {i["invoice_number"] for p in pages for i in p.items} == {"INV-0", "INV-1", "INV-2"}


def test_cursor_expense_pages_have_no_count_and_end(client, sandbox_url, company):
    _make(sandbox_url, "expenses", company.id, 3)
    first = client.page("/2/expenses/", {"page_size": 2})
    assert first.count is None and first.next
    ids = [e["id"] for e in client.iter_all("/2/expenses/", {"page_size": 2})]
    assert len(ids) == 3 == len(set(ids))


def test_partner_collision_names_the_existing_partner(client):
    body = {"name": "Same", "is_customer": True, "tax_number": "12345678-2-41"}
    existing = client.post("/2/partners/create/", json=body)
    with pytest.raises(ValidationError) as caught:
        client.post("/2/partners/create/", json=body)
    assert existing["id"] in caught.value.extra.values()
    assert caught.value.field_errors or caught.value.non_field_errors


def test_catalogue_cache_sees_a_new_tag_only_after_invalidation(client, company):
    before = catalog.names(client, "tags")
    client.post("/2/tags/create/", json={"name": "Fresh tag"})
    assert catalog.names(client, "tags") == before
    catalog.invalidate(company.id, "tags")
    assert "Fresh tag" in catalog.names(client, "tags").values()


def test_currency_names_default_to_their_code(client):
    assert "HUF" in catalog.names(client, "currencies").values()
