"""Partners as the live API serves them: the /1/partners record's key set and types
(live-api-shapes.json), every list filter, and every create field read back."""
from __future__ import annotations

import pytest
import requests

from tests.conftest import Api, create_company
from tests.sandbox.live_shapes import live_response, shape_problems

FULL = {"name": "Alfa Kft.", "tax_number": "12345676-2-42", "eu_tax_number": "HU12345676",
        "zip_code": "1011", "city": "Budapest", "address": "Fő utca 1.", "country": "hu",
        "email": "info@alfa.hu", "phone": "+36 1 234 5678", "is_customer": True,
        "is_vendor": False, "default_account_number": "11773016-11111018",
        "default_account_name": "OTP Bank"}


def _create(api: Api, **fields) -> dict:
    resp = api.post("/2/partners/create/", json=fields)
    assert resp.status_code == 201, resp.text
    return resp.json()


@pytest.fixture(scope="module")
def partners(sandbox_url, sandbox_db_path):
    """Four partners that differ in every filtered field, the last synced from an integration."""
    api = Api(sandbox_url, create_company(sandbox_url))
    rows = [_create(api, **FULL),
            _create(api, name="Béta Bt.", tax_number="24387136-2-41", is_vendor=True,
                    city="Győr", address="Baross út 2.", zip_code="9021",
                    default_account_number="10918001-00000012-34560001"),
            _create(api, name="Gamma Zrt.", is_customer=True, is_vendor=True, city="Pécs"),
            _create(api, name="Delta Alfa Kft.", tax_number="10773381-2-44", is_vendor=True)]
    resp = requests.patch(f"{sandbox_url}/_sandbox/partners/{rows[3]['id']}/",
                          json={"source": "szamlazz.hu"}, timeout=10)
    assert resp.status_code == 200, resp.text
    return api, rows


def test_list_has_every_live_key_with_its_live_type(partners):
    api = partners[0]
    body = api.get("/1/partners/?page_size=1&page=2&ordering=id").json()
    assert shape_problems(body, live_response("GET", "/1/partners")) == []


def test_account_number_is_the_default_account_number(partners):
    api, rows = partners
    body = api.get(f"/1/partners/{rows[1]['id']}/").json()
    assert body["account_number"] == body["default_account_number"] == \
        "10918001-00000012-34560001"


def _names(api: Api, query: str) -> set[str]:
    resp = api.get(f"/1/partners/?page_size=100&{query}")
    assert resp.status_code == 200, resp.text
    return {row["name"] for row in resp.json()["results"]}


@pytest.mark.parametrize(("query", "expected"), [
    ("name=alfa", {"Alfa Kft.", "Delta Alfa Kft."}),
    ("name=BÉTA", {"Béta Bt."}),
    ("search=24387136", {"Béta Bt."}),
    ("search=gamma", {"Gamma Zrt."}),
    ("tax_number=12345676-2-42", {"Alfa Kft."}),
    ("tax_number=12345676242", {"Alfa Kft."}),
    ("is_customer=true", {"Alfa Kft.", "Gamma Zrt."}),
    ("is_customer=false", {"Béta Bt.", "Delta Alfa Kft."}),
    ("is_vendor=true&is_customer=true", {"Gamma Zrt."}),
    ("source=szamlazz.hu", {"Delta Alfa Kft."}),
    ("source=manual,szamlazz.hu", {"Alfa Kft.", "Béta Bt.", "Gamma Zrt.", "Delta Alfa Kft."}),
    ("source=manual&source=szamlazz.hu",
     {"Alfa Kft.", "Béta Bt.", "Gamma Zrt.", "Delta Alfa Kft."}),
    ("colour=blue&name=gamma", {"Gamma Zrt."}),
])
def test_filter_keeps_exactly_the_matching_partners(partners, query, expected):
    assert _names(partners[0], query) == expected


def test_ordering_by_name_descending(partners):
    body = partners[0].get("/1/partners/?ordering=-name").json()
    assert [r["name"] for r in body["results"]] == [
        "Gamma Zrt.", "Delta Alfa Kft.", "Béta Bt.", "Alfa Kft."]


@pytest.mark.parametrize("query", ["is_customer=maybe", "is_vendor=2"])
def test_malformed_filter_value_is_a_400_naming_the_parameter(partners, query):
    resp = partners[0].get(f"/1/partners/?{query}")
    assert resp.status_code == 400
    assert query.split("=")[0] in resp.json()


def test_every_create_field_is_stored_and_read_back(partners):
    api, rows = partners
    stored = api.get(f"/1/partners/{rows[0]['id']}/").json()
    expected = {**FULL, "tax_number": "12345676242", "country": "HU"}
    assert {key: stored[key] for key in FULL} == expected


def test_update_fields_are_stored_and_null_clears(partners):
    api, rows = partners
    changes = {"city": "Szeged", "address": None, "phone": "+36 62 123 456",
               "default_account_name": "K&H"}
    resp = api.patch(f"/2/partners/{rows[2]['id']}/update/", json=changes)
    assert resp.status_code == 200, resp.text
    stored = api.get(f"/1/partners/{rows[2]['id']}/").json()
    assert {key: stored[key] for key in changes} == changes
