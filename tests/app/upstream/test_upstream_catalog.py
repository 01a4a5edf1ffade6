"""Catalogue cache: fresh for its TTL, dropped on invalidation, scoped to company and token."""

from __future__ import annotations

import json
import threading
import time
from functools import partial

import pytest

from app.catalog import service
from app.upstream import UpstreamClient, ValidationError, catalog, partners
from app.upstream.catalog import ScopedCache

TAGS = [{"id": 1, "name": "Q1"}, {"id": 2, "name": "Rent"}]


class Clock:
    """A hand-moved monotonic clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _paths(stub) -> list[str]:
    return [r["path"] for r in stub.requests]


def test_a_catalogue_is_loaded_once_within_its_ttl_and_again_after(stub, stub_client):
    clock = Clock()
    cache = ScopedCache(clock)
    stub.default = stub.reply(body=TAGS)
    load = partial(stub_client.get, "/2/tags/")
    assert cache.get(stub_client, "tags", load, ttl=60) == TAGS
    clock.now += 59
    assert cache.get(stub_client, "tags", load, ttl=60) == TAGS
    assert _paths(stub) == ["/2/tags/"]
    clock.now += 2
    cache.get(stub_client, "tags", load, ttl=60)
    assert _paths(stub) == ["/2/tags/", "/2/tags/"]


def test_ttl_comes_from_the_client(stub):
    stub.default = stub.reply(body=[])
    client = UpstreamClient(stub.url, "t", 1, catalog_ttl=0.5)
    catalog.get(client, "currencies")
    catalog.get(client, "currencies")
    time.sleep(0.6)
    catalog.get(client, "currencies")
    assert _paths(stub) == ["/2/currencies/"] * 2


def test_invalidate_drops_one_catalogue_of_one_company(stub):
    stub.default = stub.reply(body=TAGS)
    one, two = UpstreamClient(stub.url, "t", 1), UpstreamClient(stub.url, "t2", 2)
    for client in (one, two):
        catalog.get(client, "tags")
        catalog.get(client, "revenue_types")
    catalog.invalidate(1, "tags")
    for client in (one, two):
        catalog.get(client, "tags")
        catalog.get(client, "revenue_types")
    assert len(stub.requests) == 5
    assert stub.requests[-1]["headers"]["Service-Company-Id"] == "1"


def test_invalidate_without_a_name_drops_all_of_the_company_whatever_the_id_type(stub):
    stub.default = stub.reply(body=[])
    client = UpstreamClient(stub.url, "t", "3")
    catalog.get_many(client, ["tags", "currencies"])
    catalog.invalidate(3)
    catalog.get_many(client, ["tags", "currencies"])
    assert sorted(_paths(stub)) == ["/2/currencies/"] * 2 + ["/2/tags/"] * 2


def test_another_token_does_not_read_a_cached_catalogue(stub):
    stub.default = stub.reply(body=TAGS)
    catalog.get(UpstreamClient(stub.url, "admin-token", 1), "tags")
    catalog.get(UpstreamClient(stub.url, "someone-else", 1), "tags")
    assert len(stub.requests) == 2


def test_a_load_running_while_invalidated_is_not_stored(stub):
    stub.then(stub.reply(body=[{"id": 1, "name": "old"}], delay=0.3))
    stub.default = stub.reply(body=[{"id": 1, "name": "new"}])
    client = UpstreamClient(stub.url, "t", 1)
    loader = threading.Thread(target=catalog.get, args=(client, "tags"))
    loader.start()
    deadline = time.monotonic() + 2
    while not stub.requests and time.monotonic() < deadline:
        time.sleep(0.01)
    catalog.invalidate(1, "tags")
    loader.join()
    assert catalog.names(client, "tags") == {1: "new"}


def test_concurrent_gets_load_once(stub):
    stub.default = stub.reply(body=TAGS, delay=0.1)
    client = UpstreamClient(stub.url, "t", 1)
    threads = [threading.Thread(target=catalog.get, args=(client, "tags")) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(stub.requests) == 1


def test_get_many_loads_every_catalogue_path_in_parallel(stub):
    stub.default = stub.reply(body=TAGS, delay=0.3)
    client = UpstreamClient(stub.url, "t", 1)
    started = time.monotonic()
    found = catalog.get_many(client, ["tags", "expense_types", "revenue_types"])
    assert time.monotonic() - started < 0.75  # one after another would take 0.9 s
    assert found["expense_types"] == TAGS
    assert catalog.names(client, "expense_types") == {1: "Q1", 2: "Rent"}  # from the cache
    catalog.get_many(client, ["vat_categories", "ledger_numbers", "currencies"])
    assert sorted(_paths(stub)) == sorted([
        "/2/tags/", "/2/expense-types/", "/2/revenue-types/",
        "/2/accounting/vat-categories/", "/2/accounting/ledger-numbers/", "/2/currencies/",
    ])


def test_paginated_catalogue_is_read_whole(stub):
    stub.then(
        stub.reply(body={"next": f"{stub.url}/2/tags/?page=2", "results": TAGS[:1]}),
        stub.reply(body={"next": None, "results": TAGS[1:]}),
    )
    assert catalog.get(UpstreamClient(stub.url, "t", 1), "tags") == TAGS


def test_callers_cannot_change_the_cached_list(stub):
    stub.default = stub.reply(body=TAGS)
    client = UpstreamClient(stub.url, "t", 1)
    catalog.get(client, "tags").append({"id": 99})
    assert catalog.get(client, "tags") == TAGS


def test_currencies_are_named_by_code_unless_another_field_is_asked(stub):
    stub.default = stub.reply(body=[{"id": 1, "name": "Forint", "code": "HUF"}])
    client = UpstreamClient(stub.url, "t", 1)
    assert catalog.names(client, "currencies") == {1: "HUF"}
    assert catalog.names(client, "currencies", "name") == {1: "Forint"}


def test_unknown_catalogue_is_refused(stub_client):
    with pytest.raises(ValueError, match="unknown catalogue"):
        catalog.get(stub_client, "partners")


def test_two_cold_partner_scans_read_the_partner_pages_once(stub):
    stub.default = stub.reply(body={"count": 1, "next": None, "previous": None,
                                    "results": [{"id": 1, "name": "Kovács Kft"}]}, delay=0.2)
    client = UpstreamClient(stub.url, "t", 1)
    found = []
    threads = [threading.Thread(target=lambda: found.append(partners.everyone(client)))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == [[{"id": 1, "name": "Kovács Kft"}]] * 2
    assert len(stub.requests) == 1
    partners.forget(1)
    partners.everyone(client)
    assert len(stub.requests) == 2


def test_a_tag_create_goes_as_the_live_list_and_an_enveloped_refusal_lands_on_the_name(
        stub, stub_client):
    stub.then(stub.reply(400, {"tags": [{"name": ["A tag with this name already exists."]}]}))
    with pytest.raises(ValidationError) as refused:
        service.create(stub_client, service.TAGS, "Budapest")
    assert json.loads(stub.requests[-1]["body"]) == {"tags": [{"name": "Budapest"}]}
    assert refused.value.field_errors == {"name": ["A tag with this name already exists."]}
