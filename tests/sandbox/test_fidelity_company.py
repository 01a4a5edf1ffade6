"""The company settings as the live API serves them (live-api-shapes.json): key set and types of
GET /2/company-info/ and of the update's answer, and every update field read back."""
from __future__ import annotations

from tests.sandbox.live_shapes import live_response, shape_problems


def test_company_info_has_the_live_keys_and_types(api):
    body = api.get("/2/company-info/").json()
    assert shape_problems(body, live_response("GET", "/2/company-info")) == []
    assert body["id"] == api.company.id


def test_update_answers_the_live_shape_and_stores_every_field(api):
    changes = {"enable_accounting_id": True, "enable_vat_period": True,
               "income_policies": {"v": 2, "policies": [], "ignore_policies": []}}
    resp = api.patch(f"/2/company-info/update/{api.company.id}/", json=changes)
    assert resp.status_code == 200, resp.text
    shape = live_response("PATCH", "/2/company-info/update/{company_id}")
    assert shape_problems(resp.json(), shape) == []
    stored = api.get("/2/company-info/").json()
    assert {key: stored[key] for key in changes} == changes


def test_null_income_policies_deletes_them(api):
    path = f"/2/company-info/update/{api.company.id}/"
    api.patch(path, json={"income_policies": {"v": 2, "policies": [], "ignore_policies": []}})
    assert api.patch(path, json={"income_policies": None}).status_code == 200
    assert api.get("/2/company-info/").json()["income_policies"] is None


def test_malformed_setting_is_a_400_naming_it(api):
    resp = api.patch(f"/2/company-info/update/{api.company.id}/",
                     json={"enable_vat_period": "igen"})
    assert resp.status_code == 400 and "enable_vat_period" in resp.json()
    assert api.get("/2/company-info/").json()["enable_vat_period"] is False


def test_a_comparison_that_does_not_suit_its_field_is_a_400_naming_both(api):
    path = f"/2/company-info/update/{api.company.id}/"
    rule = {"name": "R", "conditions": [{"field": "currency", "op": "gt", "value": "EUR"}],
            "set": {"tags": ["T"]}}
    response = api.patch(path, json={"income_policies": {
        "v": 2, "policies": [rule], "ignore_policies": []}})
    assert response.status_code == 400, response.text  # the engine's words, not a 500
    assert "“currency” is text: “gt” works only on amounts" in " ".join(
        response.json()["income_policies"])
