"""Spec 2.8 and 4.8: company VAT categories."""
import pytest

PATH = "/2/accounting/vat-categories/"
FIELDS = {"id", "name", "code", "percent", "vat_area", "country", "type"}


def _create(api, body):
    return api.post(f"{PATH}create/", json=body)


def test_vat_list_entries_carry_type_and_float_percent(api):
    body = api.get(PATH).json()
    assert body and all(set(v) == FIELDS for v in body)
    assert {v["type"] for v in body} == {"cost", "revenue"}
    assert all(isinstance(v["percent"], float) for v in body)


def test_vat_list_type_filter(api):
    body = api.get(PATH, params={"type": "revenue"}).json()
    assert body and {v["type"] for v in body} == {"revenue"}


def test_vat_create_type_defaults_to_cost(api):
    resp = _create(api, {"name": "Kedvezményes", "percent": 5, "vat_area": "HU", "country": "HU"})
    assert resp.status_code == 200
    created = resp.json()["created_vat_categories"]
    assert len(created) == 1 and set(created[0]) == FIELDS
    assert created[0]["type"] == "cost" and created[0]["percent"] == 5.0


def test_vat_create_accepts_revenue_type_and_returns_full_objects(api):
    resp = _create(api, [{"name": "EU szolgáltatás", "percent": 0, "vat_area": "EU",
                          "country": "DE", "type": "revenue"},
                         {"name": "Belföldi 27%", "percent": 27.0}])
    created = resp.json()["created_vat_categories"]
    assert [(c["name"], c["type"], c["vat_area"], c["country"]) for c in created] == [
        ("EU szolgáltatás", "revenue", "EU", "DE"), ("Belföldi 27%", "cost", "HU", "HU")]
    listed = api.get(PATH).json()
    assert all(c in listed for c in created)


@pytest.mark.parametrize("bad", [{"percent": 101}, {"percent": -1}, {"percent": "sok"},
                                 {"vat_area": "US"}, {"type": "income"}, {"country": "Hun"}])
def test_vat_create_validates_fields(api, bad):
    resp = _create(api, {"name": "Rossz", "percent": 27, **bad})
    assert resp.status_code == 400 and set(bad) <= set(resp.json())


def test_vat_create_requires_name_and_percent(api):
    resp = _create(api, {"vat_area": "HU"})
    assert resp.status_code == 400 and {"name", "percent"} <= set(resp.json())


def test_vat_update_changes_type_and_fields(api):
    vat = api.get(PATH, params={"type": "cost"}).json()[0]
    resp = api.post(f"{PATH}update/{vat['id']}/", json={"type": "revenue", "percent": 18.5})
    assert resp.status_code == 200
    assert resp.json() == {**vat, "type": "revenue", "percent": 18.5}


def test_vat_update_validates_fields(api):
    vat = api.get(PATH).json()[0]
    resp = api.post(f"{PATH}update/{vat['id']}/", json={"vat_area": "XX", "percent": 200})
    assert resp.status_code == 400 and {"vat_area", "percent"} <= set(resp.json())


def test_vat_update_of_foreign_category_is_404(api, make_company, sandbox_url):
    from conftest import Api

    other = Api(sandbox_url, make_company())
    foreign = other.get(PATH).json()[0]
    assert api.post(f"{PATH}update/{foreign['id']}/", json={"name": "X"}).status_code == 404


def test_vat_writes_are_refused_for_viewer(api):
    assert _create(api, {"name": "X", "percent": 1}).status_code == 200
    resp = api.post(f"{PATH}create/", json={"name": "X", "percent": 1}, token="viewer")
    assert resp.status_code == 403
