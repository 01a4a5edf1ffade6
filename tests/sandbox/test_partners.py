"""Spec 2.4 and 4.4 rules 1-4: partner create and update; 7 rows about partners."""
import pytest
import requests
from incomes_support import make_income

TEXT_FIELDS = ("name", "tax_number", "eu_tax_number", "zip_code", "city", "address", "country",
               "email", "phone", "default_account_number", "default_account_name")


def _create(api, **fields) -> requests.Response:
    return api.post("/2/partners/create/", json={"name": "Alfa Kft.", "is_customer": True,
                                                 **fields})


def _partner(api, **fields) -> dict:
    resp = _create(api, **fields)
    assert resp.status_code == 201, resp.text
    return resp.json()


def _mark_synced(api, partner_id: int, source: str = "billingo") -> None:
    resp = requests.patch(f"{api.base}/_sandbox/partners/{partner_id}/", json={"source": source},
                          timeout=10)
    assert resp.status_code == 200


def test_partner_create_returns_the_partner(api):
    body = _partner(api, tax_number="12345678-2-41", city="Budapest", is_vendor=True)
    assert body["name"] == "Alfa Kft." and body["is_customer"] and body["is_vendor"]
    assert {"id", "default_account_number", "default_account_name"} <= set(body)


@pytest.mark.parametrize(("customer", "vendor"), [(True, False), (False, True), (True, True)])
def test_partner_with_at_least_one_role_is_accepted(api, customer, vendor):
    assert _create(api, is_customer=customer, is_vendor=vendor).status_code == 201


def test_partner_with_neither_customer_nor_vendor_returns_400(api):
    resp = _create(api, is_customer=False, is_vendor=False)
    assert resp.status_code == 400 and "non_field_errors" in resp.json()
    assert _create(api, is_customer=None).status_code == 400


def test_partner_update_cannot_clear_both_roles(api):
    partner = _partner(api)
    resp = api.patch(f"/2/partners/{partner['id']}/update/", json={"is_customer": False})
    assert resp.status_code == 400


def test_hungarian_tax_number_is_normalised_without_dashes(api):
    assert _partner(api, tax_number="12345678-2-41")["tax_number"] == "12345678241"


def test_tax_number_is_normalised_on_update_too(api):
    partner = _partner(api)
    body = api.patch(f"/2/partners/{partner['id']}/update/",
                     json={"tax_number": "87654321-1-13"}).json()
    assert body["tax_number"] == "87654321113"


def test_foreign_tax_number_is_kept_as_given(api):
    assert _partner(api, tax_number="ATU12345678", country="at")["tax_number"] == "ATU12345678"


@pytest.mark.parametrize("field", TEXT_FIELDS)
def test_empty_string_is_rejected_on_every_text_field(api, field):
    resp = _create(api, **{field: ""})
    assert resp.status_code == 400
    assert resp.json()[field] == ["This field may not be blank."]
    partner = _partner(api, name=f"P {field}")
    upd = api.patch(f"/2/partners/{partner['id']}/update/", json={field: ""})
    assert upd.status_code == 400 and field in upd.json()


def test_null_clears_a_text_field(api):
    partner = _partner(api, city="Pécs", default_account_number="11773016-11111111")
    body = api.patch(f"/2/partners/{partner['id']}/update/",
                     json={"city": None, "default_account_number": None}).json()
    assert body["city"] is None and body["default_account_number"] is None


def test_partner_name_cannot_be_null(api):
    partner = _partner(api)
    assert api.patch(f"/2/partners/{partner['id']}/update/",
                     json={"name": None}).status_code == 400


def test_partner_colliding_by_tax_number_returns_existing_partner_id(api):
    first = _partner(api, tax_number="12345678-2-41")
    resp = _create(api, name="Más Név Kft.", tax_number="12345678241")
    assert resp.status_code == 400
    assert resp.json()["existing_partner_id"] == first["id"] and "tax_number" in resp.json()


def test_partner_colliding_by_name_without_tax_number_is_rejected_not_merged(api):
    first = _partner(api, name="Omega Bt.")
    resp = _create(api, name="OMEGA BT.")
    assert resp.status_code == 400 and resp.json()["existing_partner_id"] == first["id"]
    assert api.get("/1/partners/").json()["count"] == 1


def test_same_name_with_different_tax_numbers_does_not_collide(api):
    _partner(api, name="Omega Bt.", tax_number="11111111-1-11")
    assert _create(api, name="Omega Bt.", tax_number="22222222-2-22").status_code == 201


def test_partner_update_into_a_collision_is_rejected(api):
    first = _partner(api, tax_number="11111111-1-11")
    second = _partner(api, name="Második Kft.", tax_number="22222222-2-22")
    resp = api.patch(f"/2/partners/{second['id']}/update/",
                     json={"tax_number": "11111111-1-11"})
    assert resp.status_code == 400 and resp.json()["existing_partner_id"] == first["id"]


def test_partner_update_restricted_set_names_offending_fields(api):
    partner = _partner(api)
    _mark_synced(api, partner["id"])
    resp = api.patch(f"/2/partners/{partner['id']}/update/",
                     json={"name": "Új Név", "city": "Eger", "is_vendor": True})
    assert resp.status_code == 400
    body = resp.json()
    assert body["offending_fields"] == ["name", "city"]
    assert "non_field_errors" in body and "name" in body


def test_partner_update_restricted_set_accepts_the_allowed_fields(api):
    partner = _partner(api)
    _mark_synced(api, partner["id"], "szamlazz.hu")
    resp = api.patch(f"/2/partners/{partner['id']}/update/", json={
        "default_account_number": "11773016-11111111", "default_account_name": "OTP",
        "is_customer": False, "is_vendor": True})
    assert resp.status_code == 200
    assert resp.json()["default_account_name"] == "OTP" and resp.json()["is_vendor"] is True


def test_partner_referenced_by_booked_income_takes_only_the_restricted_set(api):
    partner = _partner(api)
    make_income(api, type=2, partner_id=partner["id"], is_booked=True)
    resp = api.patch(f"/2/partners/{partner['id']}/update/", json={"address": "Fő tér 1."})
    assert resp.status_code == 400 and resp.json()["offending_fields"] == ["address"]


def test_unrestricted_partner_accepts_any_field(api):
    partner = _partner(api)
    make_income(api, type=2, partner_id=partner["id"])
    resp = api.patch(f"/2/partners/{partner['id']}/update/", json={"address": "Fő tér 1."})
    assert resp.status_code == 200 and resp.json()["address"] == "Fő tér 1."


def test_partner_update_of_foreign_partner_is_404(api, make_company, sandbox_url):
    from conftest import Api

    other = _partner(Api(sandbox_url, make_company()))
    assert api.patch(f"/2/partners/{other['id']}/update/", json={}).status_code == 404


def test_partner_writes_are_refused_for_viewer(api):
    resp = api.post("/2/partners/create/", token="viewer",
                    json={"name": "V Kft.", "is_customer": True})
    assert resp.status_code == 403


def test_partner_paths_work_without_trailing_slash(api):
    partner = api.post("/2/partners/create", json={"name": "X Kft.", "is_vendor": True}).json()
    assert api.patch(f"/2/partners/{partner['id']}/update", json={"city": "Vác"}).ok
    assert api.get(f"/1/partners/{partner['id']}").json()["city"] == "Vác"
