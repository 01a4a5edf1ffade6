"""GET /1/partners/: page envelope, filters, ordering."""
import pytest
from conftest import Api, create_company


@pytest.fixture(scope="module")
def papi(sandbox_url) -> Api:
    """A company with four partners, shared by these read-only tests."""
    api = Api(sandbox_url, create_company(sandbox_url))
    for name, tax, customer, vendor in (("Alfa Kft.", "11111111-2-41", True, False),
                                        ("Béta Bt.", "22222222-1-13", False, True),
                                        ("Gamma Zrt.", None, True, True),
                                        ("Alföld Trade Kft.", "33333333-2-42", True, False)):
        resp = api.post("/2/partners/create/", json={"name": name, "tax_number": tax,
                                                     "is_customer": customer,
                                                     "is_vendor": vendor})
        assert resp.status_code == 201
    return api


def _names(api, **params) -> list[str]:
    resp = api.get("/1/partners/", params=params)
    assert resp.status_code == 200, resp.text
    return [p["name"] for p in resp.json()["results"]]


def test_partner_list_uses_the_page_envelope(papi):
    body = papi.get("/1/partners/", params={"page_size": 3}).json()
    assert body["count"] == 4 and len(body["results"]) == 3
    assert "page=2" in body["next"] and body["previous"] is None


@pytest.mark.parametrize(("params", "expected"), [
    ({}, ["Alfa Kft.", "Alföld Trade Kft.", "Béta Bt.", "Gamma Zrt."]),
    ({"name": "alf"}, ["Alfa Kft.", "Alföld Trade Kft."]),
    ({"search": "22222222"}, ["Béta Bt."]),
    ({"search": "gamma"}, ["Gamma Zrt."]),
    ({"tax_number": "11111111-2-41"}, ["Alfa Kft."]),
    ({"tax_number": "11111111241"}, ["Alfa Kft."]),
    ({"is_customer": "true", "is_vendor": "true"}, ["Gamma Zrt."]),
    ({"is_vendor": "false"}, ["Alfa Kft.", "Alföld Trade Kft."]),
    ({"ordering": "-name"}, ["Gamma Zrt.", "Béta Bt.", "Alföld Trade Kft.", "Alfa Kft."]),
    ({"ordering": "id"}, ["Alfa Kft.", "Béta Bt.", "Gamma Zrt.", "Alföld Trade Kft."]),
])
def test_partner_list_filters_and_ordering(papi, params, expected):
    assert _names(papi, **params) == expected


def test_partner_list_rejects_invalid_boolean(papi):
    assert papi.get("/1/partners/", params={"is_customer": "maybe"}).status_code == 400


def test_partner_list_works_without_trailing_slash(papi):
    assert papi.get("/1/partners").json()["count"] == 4
