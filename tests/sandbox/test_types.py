"""Spec 2.6 and 4.6: expense types and revenue types."""
import pytest
from conftest import Api

PREFIXES = ["/2/expense-types/", "/2/revenue-types/"]


def _create(api, prefix, *names):
    resp = api.post(f"{prefix}create/", json=[{"name": n} for n in names])
    assert resp.status_code == 201, resp.text
    return resp.json()


@pytest.mark.parametrize("prefix", PREFIXES)
def test_type_list_is_sorted_by_name_case_insensitively(api, prefix):
    _create(api, prefix, "alma", "Zeller", "ábécé", "Banán", "Érték", "eper", "Öntöde")
    names = [t["name"] for t in api.get(prefix).json()]
    # Accented initials sort with their base letter, not after z as code points would.
    assert names.index("ábécé") < names.index("alma") < names.index("Banán")
    assert names.index("eper") < names.index("Érték") < names.index("Öntöde")
    assert names.index("Öntöde") < names.index("Zeller")
    assert names == sorted(names, key=lambda n: n.casefold().translate(
        str.maketrans("áéíóöőúüű", "aeiooouuu")))


@pytest.mark.parametrize("prefix", PREFIXES)
def test_type_list_entries_have_id_name_is_external(api, prefix):
    body = api.get(prefix).json()
    assert body and all(set(t) == {"id", "name", "is_external"} for t in body)


@pytest.mark.parametrize("prefix", PREFIXES)
def test_type_create_sets_is_external_true(api, prefix):
    created = _create(api, prefix, "Tanácsadás")
    assert created[0]["is_external"] is True
    assert created[0] in api.get(prefix).json()


@pytest.mark.parametrize("prefix", PREFIXES)
def test_type_create_accepts_single_object(api, prefix):
    resp = api.post(f"{prefix}create/", json={"name": "Egyetlen"})
    assert resp.status_code == 201 and resp.json()["name"] == "Egyetlen"


@pytest.mark.parametrize("prefix", PREFIXES)
def test_type_create_rejects_blank_and_duplicate_names(api, prefix):
    existing = api.get(prefix).json()[0]["name"]
    resp = api.post(f"{prefix}create/", json=[{"name": ""}, {"name": existing.upper()}])
    assert resp.status_code == 400
    assert "name" in resp.json()[0] and "name" in resp.json()[1]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_type_update_applies_in_bulk_and_sets_is_external(api, prefix):
    first, second = api.get(prefix).json()[:2]
    resp = api.post(f"{prefix}update/", json=[{"id": first["id"], "name": "Első"},
                                               {"id": second["id"], "name": "Második"}])
    assert resp.status_code == 200
    assert resp.json()["failed_ids"] == []
    assert {(t["id"], t["name"], t["is_external"]) for t in resp.json()["updated"]} == {
        (first["id"], "Első", True), (second["id"], "Második", True)}


@pytest.mark.parametrize("prefix", PREFIXES)
def test_type_update_reports_unknown_and_foreign_ids_in_failed_ids(api, make_company,
                                                                   sandbox_url, prefix):
    other = Api(sandbox_url, make_company())
    foreign = other.get(prefix).json()[0]
    own = api.get(prefix).json()[0]
    resp = api.post(f"{prefix}update/", json=[{"id": own["id"], "name": "Saját"},
                                               {"id": foreign["id"], "name": "Idegen"},
                                               {"id": 987654, "name": "Nincs"}])
    assert resp.status_code == 200
    assert resp.json()["failed_ids"] == [foreign["id"], 987654]
    assert [t["name"] for t in resp.json()["updated"]] == ["Saját"]
    assert foreign in other.get(prefix).json()


@pytest.mark.parametrize("prefix", PREFIXES)
def test_type_update_reports_invalid_names_in_failed_ids(api, prefix):
    first, second = api.get(prefix).json()[:2]
    resp = api.post(f"{prefix}update/", json=[{"id": first["id"], "name": ""},
                                               {"id": second["id"], "name": "Rendben"}])
    assert resp.json()["failed_ids"] == [first["id"]]
    assert "name" in resp.json()["errors"][str(first["id"])]
    assert [t["name"] for t in resp.json()["updated"]] == ["Rendben"]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_type_delete_removes_types(api, prefix):
    created = _create(api, prefix, "Törlendő")[0]
    resp = api.post(f"{prefix}delete/", json={"ids": [created["id"]]})
    assert resp.status_code == 200
    assert resp.json()["deleted"] == [created["id"]] and resp.json()["failed_ids"] == []
    assert created["id"] not in [t["id"] for t in api.get(prefix).json()]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_type_delete_reports_foreign_ids_in_failed_ids(api, make_company, sandbox_url, prefix):
    other = Api(sandbox_url, make_company())
    foreign = other.get(prefix).json()[0]["id"]
    created = _create(api, prefix, "Menjen")[0]
    resp = api.post(f"{prefix}delete/", json={"ids": [foreign, 424242, created["id"]]})
    assert resp.status_code == 200
    assert resp.json()["deleted"] == [created["id"]]
    assert resp.json()["failed_ids"] == [foreign, 424242]
    assert resp.json()["reasons"] == {str(foreign): "not_found", "424242": "not_found"}
    assert foreign in [t["id"] for t in other.get(prefix).json()]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_unused_api_types_are_not_removed_automatically(api, prefix):
    created = _create(api, prefix, "Nem használt")[0]
    api.post(f"{prefix}update/", json=[{"id": created["id"], "name": "Még mindig"}])
    assert created["id"] in [t["id"] for t in api.get(prefix).json()]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_type_writes_are_refused_for_viewer(api, prefix):
    assert api.post(f"{prefix}create/", json={"name": "X"}, token="viewer").status_code == 403
    assert api.post(f"{prefix}delete/", json={"ids": []}, token="viewer").status_code == 403
