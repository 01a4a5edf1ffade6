"""Spec 4.5 and 9.2: the deprecated /1/ tax and salary endpoints, still served."""
import pytest

ITEMS = {"taxes": {"month": "2024-03", "amount": "10", "code": "103"},
         "salaries": {"month": "2024-03", "amount": "10", "code": "103",
                      "tax_number": "8123456789"}}
MONTHLY = {"taxes": "/2/monthly-taxes/", "salaries": "/2/monthly-salaries/"}


def _assert_deprecated(resp, successor):
    assert resp.headers["Deprecation"] == "true"
    assert resp.headers["Link"] == f'<{successor}>; rel="successor-version"'


@pytest.mark.parametrize("kind", ["taxes", "salaries"])
def test_v1_create_is_served_and_marked_deprecated(api, kind):
    resp = api.post(f"/1/{kind}/create/", json=[ITEMS[kind]])
    assert resp.status_code == 201
    _assert_deprecated(resp, f"/2/{kind}/create/")
    months = resp.json()  # a bare list of months, as the live /1/ answers
    assert [month["month"] for month in months] == ["2024-03-01"]
    assert months[0][kind][0]["amount"] == "10.00"
    assert api.get(MONTHLY[kind]).json()[f"monthly_{kind}"][0]["amount"] == "10.00"


@pytest.mark.parametrize("kind", ["taxes", "salaries"])
def test_v1_list_is_page_numbered_and_points_to_monthly_listing(api, kind):
    api.post(f"/1/{kind}/create/", json=[ITEMS[kind], {**ITEMS[kind], "month": "2024-04",
                                                       "tax_number": "8234567890"}])
    resp = api.get(f"/1/{kind}/", params={"page_size": 1})
    assert resp.status_code == 200
    _assert_deprecated(resp, MONTHLY[kind])
    body = resp.json()
    assert body["count"] == 2 and body["next"] and len(body["results"]) == 1
    assert body["results"][0]["month"] == "2024-04-01"


@pytest.mark.parametrize("kind", ["taxes", "salaries"])
def test_v1_update_and_delete_are_served_and_marked_deprecated(api, kind):
    created = api.post(f"/1/{kind}/create/", json=[ITEMS[kind]]).json()
    record_id = created[0][kind][0]["id"]
    resp = api.post(f"/1/{kind}/update/", json=[{"id": record_id, "amount": "99"}])
    assert resp.status_code == 200
    updated = resp.json()[0][kind][0]  # a bare list of months here too
    assert (updated["id"], updated["amount"]) == (record_id, "99.00")
    _assert_deprecated(resp, f"/2/{kind}/update/")
    resp = api.post(f"/1/{kind}/delete/", json={"ids": [record_id]})
    assert resp.status_code == 204
    _assert_deprecated(resp, f"/2/{kind}/delete/")
    assert api.get(MONTHLY[kind]).json()[f"monthly_{kind}"] == []


def test_v1_rejections_follow_the_v2_rules_and_stay_marked(api):
    resp = api.post("/1/taxes/create/", json=[{**ITEMS["taxes"], "currency": 1}])
    assert resp.status_code == 400 and "currency" in resp.json()[0]
    _assert_deprecated(resp, "/2/taxes/create/")
