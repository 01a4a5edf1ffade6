"""Spec 2.5 and 4.7: tags."""


def _create(api, name, **kw):
    resp = api.post("/2/tags/create/", json={"name": name}, **kw)
    assert resp.status_code == 200, resp.text
    return resp.json()


def test_tag_list_is_plain_list_of_id_name_is_external(api):
    body = api.get("/2/tags/").json()
    assert isinstance(body, list) and body
    assert set(body[0]) == {"id", "name", "is_external"}


def test_tag_list_name_filter_is_case_insensitive_substring(api):
    _create(api, "Árbevétel Projekt")
    names = [t["name"] for t in api.get("/2/tags/", params={"name": "PROJEKT"}).json()]
    assert "Árbevétel Projekt" in names and "Projekt A" in names
    assert "Budapest" not in names


def test_tag_list_name_filter_ignores_accents_and_case(api):
    _create(api, "Székesfehérvár")
    names = [t["name"] for t in api.get("/2/tags/", params={"name": "szekesFEHERVAR"}).json()]
    assert names == ["Székesfehérvár"]


def test_tag_list_is_external_filter(api):
    created = _create(api, "Külső")
    external = api.get("/2/tags/", params={"is_external": "true"}).json()
    internal = api.get("/2/tags/", params={"is_external": "false"}).json()
    assert [t["id"] for t in external] == [created["id"]]
    assert created["id"] not in [t["id"] for t in internal] and internal


def test_tag_list_rejects_invalid_is_external_value(api):
    assert api.get("/2/tags/", params={"is_external": "maybe"}).status_code == 400


def test_tag_create_single_object_returns_external_tag(api):
    tag = _create(api, "Új címke")
    assert tag["is_external"] is True and tag["name"] == "Új címke"
    assert tag in api.get("/2/tags/").json()


def test_tag_create_accepts_a_list(api):
    resp = api.post("/2/tags/create/", json=[{"name": "Egy"}, {"name": "Kettő"}])
    assert resp.status_code == 200
    assert [t["name"] for t in resp.json()] == ["Egy", "Kettő"]
    assert all(t["is_external"] for t in resp.json())


def test_tag_create_rejects_blank_name(api):
    resp = api.post("/2/tags/create/", json={"name": "  "})
    assert resp.status_code == 400 and "name" in resp.json()


def test_tag_create_rejects_duplicate_name_case_insensitively(api):
    resp = api.post("/2/tags/create/", json={"name": "budapest"})
    assert resp.status_code == 400 and "name" in resp.json()


def test_tag_create_list_is_all_or_nothing_with_per_item_errors(api):
    resp = api.post("/2/tags/create/", json=[{"name": "Jó"}, {"name": ""}])
    assert resp.status_code == 400
    assert resp.json()[0] == {} and "name" in resp.json()[1]
    assert "Jó" not in [t["name"] for t in api.get("/2/tags/").json()]


def test_tag_create_is_refused_for_viewer(api):
    assert api.post("/2/tags/create/", json={"name": "X"}, token="viewer").status_code == 403


def test_tag_update_renames_and_sets_is_external(api):
    tag = next(t for t in api.get("/2/tags/").json() if t["name"] == "Budapest")
    assert tag["is_external"] is False
    resp = api.patch("/2/tags/update/", json={"id": tag["id"], "name": "Budapest XI."})
    assert resp.status_code == 200
    assert resp.json() == {"id": tag["id"], "name": "Budapest XI.", "is_external": True}


def test_tag_update_rejects_foreign_tag_id(api, make_company, sandbox_url):
    from conftest import Api

    other = Api(sandbox_url, make_company())
    foreign = other.get("/2/tags/").json()[0]["id"]
    resp = api.patch("/2/tags/update/", json={"id": foreign, "name": "Elvitt"})
    assert resp.status_code == 400 and "id" in resp.json()
    assert other.get("/2/tags/").json()[0]["name"] != "Elvitt"


def test_tag_update_rejects_name_of_another_tag(api):
    tag = next(t for t in api.get("/2/tags/").json() if t["name"] == "Budapest")
    resp = api.patch("/2/tags/update/", json={"id": tag["id"], "name": "DEBRECEN"})
    assert resp.status_code == 400 and "name" in resp.json()


def test_unused_api_tags_are_not_removed_automatically(api):
    tag = _create(api, "Árva címke")
    api.patch("/2/tags/update/", json={"id": tag["id"], "name": "Még mindig árva"})
    assert tag["id"] in [t["id"] for t in api.get("/2/tags/").json()]


def test_tag_delete_removes_unreferenced_tags(api):
    tag = _create(api, "Törlendő")
    resp = api.post("/2/tags/delete/", json={"ids": [tag["id"]]})
    assert resp.status_code == 200
    assert resp.json()["deleted"] == [tag["id"]] and resp.json()["not_deleted"] == []
    assert tag["id"] not in [t["id"] for t in api.get("/2/tags/").json()]


def test_tag_delete_keeps_unknown_and_foreign_ids_in_not_deleted(api, make_company, sandbox_url):
    from conftest import Api

    other = Api(sandbox_url, make_company())
    foreign = other.get("/2/tags/").json()[0]["id"]
    body = api.post("/2/tags/delete/", json={"ids": [foreign, 999999]}).json()
    assert body["deleted"] == [] and body["not_deleted"] == [foreign, 999999]
    assert foreign in [t["id"] for t in other.get("/2/tags/").json()]


def _tax_with(api, path, field, tag_id, **extra):
    item = {"month": "2024-03", "amount": "1", "code": "103", field: [tag_id], **extra}
    assert api.post(path, json=[item]).status_code == 201


def test_tag_delete_keeps_referenced_tags_in_not_deleted(api):
    tax_tag, salary_tag, free = (_create(api, n)["id"] for n in ("Adó", "Bér", "Szabad"))
    _tax_with(api, "/2/taxes/create/", "tags", tax_tag)
    _tax_with(api, "/2/salaries/create/", "simple_tags", salary_tag, tax_number="8123456789")
    body = api.post("/2/tags/delete/", json={"ids": [tax_tag, salary_tag, free]}).json()
    assert body["deleted"] == [free] and body["not_deleted"] == [tax_tag, salary_tag]
    assert body["references"] == {str(tax_tag): ["tax_tag"],
                                  str(salary_tag): ["salary_simple_tag"]}
    remaining = [t["id"] for t in api.get("/2/tags/").json()]
    assert tax_tag in remaining and salary_tag in remaining


def test_tag_delete_keeps_tags_named_by_income_policies(api):
    tag = _create(api, "Szabályban")["id"]
    policies = {"v": 2, "skip_for_multiple_match": False, "ignore_policies": [], "policies": [
        {"name": "Címkéz", "enabled": True, "match": "all", "set": {"tags": [tag]},
         "conditions": [{"field": "partner_name", "op": "contains", "value": "Kft"}]}]}
    resp = api.patch(f"/2/company-info/update/{api.company.id}/",
                     json={"income_policies": policies})
    assert resp.status_code == 200, resp.text
    body = api.post("/2/tags/delete/", json={"ids": [tag]}).json()
    assert body["not_deleted"] == [tag] and body["references"] == {str(tag): ["income_policies"]}
