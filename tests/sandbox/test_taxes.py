"""Spec 2.9, 2.10, 4.5 and part 7: taxes and their monthly listing."""
import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.strategies import JSON_VALUES

ACCOUNT = "11784009-15490012"


def _create(api, *items, status=201):
    resp = api.post("/2/taxes/create/", json=list(items))
    assert resp.status_code == status, resp.text
    return resp.json()


def _ids(body, key="taxes"):
    return [t["id"] for m in body[f"monthly_{key}"] for t in m[key]]


def _tax(month="2024-03-01", amount="100.00", **extra):
    return {"month": month, "amount": amount, "code": "103", **extra}


def _sync(sandbox_url, api, *items, source="nav", kind="taxes"):
    resp = requests.post(f"{sandbox_url}/_sandbox/{kind}/sync/", timeout=10, json={
        "company_id": api.company.id, "source": source, "items": list(items)})
    assert resp.status_code == 201, resp.text
    return _ids(resp.json(), kind)[0]


def test_monthly_taxes_groups_by_payment_month_first_day_with_totals(api):
    _create(api, _tax("2024-03-05", "100.50"), _tax("2024-03-20", "20.00", code="104"),
            _tax("2024-04", "7.00"))
    body = api.get("/2/monthly-taxes/").json()
    assert set(body) == {"monthly_taxes", "tags"}
    months = {m["month"]: m for m in body["monthly_taxes"]}
    assert set(months) == {"2024-03-01", "2024-04-01"}
    assert months["2024-03-01"]["amount"] == "120.50" and months["2024-04-01"]["amount"] == "7.00"
    assert months["2024-03-01"]["paid_status"] == 1


def test_monthly_taxes_without_fields_returns_only_totals(api):
    _create(api, _tax())
    month = api.get("/2/monthly-taxes/").json()["monthly_taxes"][0]
    assert "taxes" not in month and {"month", "amount", "paid_status"} <= set(month)


def test_monthly_taxes_fields_taxes_adds_per_tax_detail_and_tags(api):
    tag = api.get("/2/tags/").json()[0]
    _create(api, _tax(description="Márciusi SZJA", tags=[tag["id"]]))
    body = api.get("/2/monthly-taxes/", params={"fields": "taxes"}).json()
    month = body["monthly_taxes"][0]
    detail = month["taxes"][0]
    assert detail["source"] == "manual" and detail["description"] == "Márciusi SZJA"
    assert detail["tags"] == [tag["id"]] and detail["code"] == "103"
    assert month["tags"] == [{"id": tag["id"], "name": tag["name"]}]
    assert body["tags"] == [{"id": tag["id"], "name": tag["name"]}]


def test_monthly_paid_status_is_partial_when_month_mixes_paid_and_unpaid(api):
    _create(api, _tax(paid_status=2), _tax(paid_status=1, code="104"), _tax("2024-05",
                                                                          paid_status=2))
    months = {m["month"]: m for m in api.get("/2/monthly-taxes/").json()["monthly_taxes"]}
    assert months["2024-03-01"]["paid_status"] == 3 and months["2024-05-01"]["paid_status"] == 2


def test_monthly_taxes_from_and_to_date_filter_months(api):
    _create(api, _tax("2024-01"), _tax("2024-02"), _tax("2024-03"), _tax("2024-04"))
    body = api.get("/2/monthly-taxes/", params={"from_date": "2024-02-15",
                                                 "to_date": "2024-03-31"}).json()
    assert [m["month"] for m in body["monthly_taxes"]] == ["2024-03-01", "2024-02-01"]


def test_monthly_taxes_is_paid_filter(api):
    _create(api, _tax(paid_status=2, amount="5"), _tax(paid_status=1, amount="7"),
            _tax(paid_status=3, amount="11"))
    paid = api.get("/2/monthly-taxes/", params={"is_paid": "true"}).json()["monthly_taxes"]
    unpaid = api.get("/2/monthly-taxes/", params={"is_paid": "false"}).json()["monthly_taxes"]
    assert paid[0]["amount"] == "5.00" and unpaid[0]["amount"] == "18.00"


def test_monthly_taxes_is_installment_filter_means_partially_paid(api):
    _create(api, _tax(paid_status=3, amount="11"), _tax(paid_status=1, amount="7"))
    body = api.get("/2/monthly-taxes/", params={"is_installment": "true"}).json()
    assert body["monthly_taxes"][0]["amount"] == "11.00"
    assert body["monthly_taxes"][0]["paid_status"] == 3


def test_monthly_taxes_source_filter(api, sandbox_url):
    _create(api, _tax(amount="1"))
    _sync(sandbox_url, api, _tax(amount="2"), source="nav")
    manual = api.get("/2/monthly-taxes/", params={"source": "manual", "fields": "taxes"}).json()
    synced = api.get("/2/monthly-taxes/", params={"source": "nav", "fields": "taxes"}).json()
    assert [t["source"] for t in manual["monthly_taxes"][0]["taxes"]] == ["manual"]
    assert [t["source"] for t in synced["monthly_taxes"][0]["taxes"]] == ["nav"]


def test_monthly_taxes_unrecognised_source_returns_400(api):
    resp = api.get("/2/monthly-taxes/", params={"source": "excel"})
    assert resp.status_code == 400 and "source" in resp.json()


@pytest.mark.parametrize("name", ["from_date", "to_date"])
def test_monthly_taxes_invalid_date_format_returns_400(api, name):
    resp = api.get("/2/monthly-taxes/", params={name: "2024.03.01"})
    assert resp.status_code == 400 and name in resp.json()


def test_tax_create_is_bulk_and_answers_monthly_listing_of_created(api):
    body = _create(api, _tax(amount="1"), _tax("2024-04", amount="2"))
    assert len(_ids(body)) == 2 and body["monthly_taxes"][0]["taxes"][0]["source"] == "manual"


def test_tax_create_accepts_a_single_object(api):
    resp = api.post("/2/taxes/create/", json=_tax())
    assert resp.status_code == 201 and len(_ids(resp.json())) == 1


def test_tax_create_rejects_currency(api):
    resp = api.post("/2/taxes/create/", json=[_tax(currency=1)])
    assert resp.status_code == 400 and "currency" in resp.json()[0]
    assert api.get("/2/monthly-taxes/").json()["monthly_taxes"] == []


def test_tax_create_takes_tag_ids_for_tags_and_simple_tags(api):
    first, second = api.get("/2/tags/").json()[:2]
    body = _create(api, _tax(tags=[first["id"]], simple_tags=[second["id"], first["id"]]))
    detail = body["monthly_taxes"][0]["taxes"][0]
    assert detail["tags"] == [first["id"]]
    assert sorted(detail["simple_tags"]) == sorted([first["id"], second["id"]])


def test_tax_create_rejects_unknown_or_foreign_tag_ids(api, make_company, sandbox_url):
    from conftest import Api

    foreign = Api(sandbox_url, make_company()).get("/2/tags/").json()[0]["id"]
    resp = api.post("/2/taxes/create/", json=[_tax(tags=[foreign]), _tax(simple_tags=[0])])
    assert resp.status_code == 400
    assert "tags" in resp.json()[0] and "simple_tags" in resp.json()[1]


@pytest.mark.parametrize("extra", [{"name": "SZJA"}, {"account_number": ACCOUNT},
                                   {"name": "SZJA", "account_number": ACCOUNT}])
def test_tax_create_rejects_code_together_with_name_or_account_number(api, extra):
    resp = api.post("/2/taxes/create/", json=[_tax(**extra)])
    assert resp.status_code == 400 and "non_field_errors" in resp.json()[0]


def test_tax_create_with_code_carries_the_codes_name_and_account(api):
    detail = _create(api, _tax(code="104"))["monthly_taxes"][0]["taxes"][0]
    assert detail["code"] == "104" and "ÁFA" in detail["name"]
    assert detail["account_number"] == "10032000-01076868"


def test_tax_create_with_name_and_account_number_instead_of_code(api):
    item = {"month": "2024-03", "amount": "9", "name": "Helyi iparűzési adó",
            "account_number": "11784009 15490012"}
    detail = _create(api, item)["monthly_taxes"][0]["taxes"][0]
    assert detail["code"] is None and detail["name"] == "Helyi iparűzési adó"
    assert detail["account_number"] == ACCOUNT


def test_tax_create_without_code_needs_name_and_account_number(api):
    resp = api.post("/2/taxes/create/", json=[{"month": "2024-03", "amount": "9",
                                               "name": "Valami"}])
    assert resp.status_code == 400 and "account_number" in resp.json()[0]


def test_tax_create_rejects_unknown_code(api):
    resp = api.post("/2/taxes/create/", json=[_tax(code="999")])
    # DRF checks the rule across fields (a code, or a name and an account) only once every
    # field is valid: the refused code alone is named, not a missing name and account.
    assert resp.status_code == 400 and set(resp.json()[0]) == {"code"}


@pytest.mark.parametrize("bad", [{"month": "március"}, {"amount": "-1"}, {"amount": "1.234"},
                                 {"paid_status": 4}, {"month": None}])
def test_tax_create_validates_fields(api, bad):
    resp = api.post("/2/taxes/create/", json=_tax(**bad))
    assert resp.status_code == 400 and set(bad) <= set(resp.json())


def test_tax_create_is_all_or_nothing(api):
    resp = api.post("/2/taxes/create/", json=[_tax(), _tax(amount="x")])
    assert resp.status_code == 400 and resp.json()[0] == {}
    assert api.get("/2/monthly-taxes/").json()["monthly_taxes"] == []


def test_tax_update_by_id_in_bulk_answers_monthly_listing_of_updated_taxes(api):
    first, second, third = sorted(_ids(_create(api, _tax(amount="1"), _tax(amount="2"),
                                               _tax("2024-06", amount="3"))))
    resp = api.post("/2/taxes/update/", json=[{"id": first, "amount": "10", "paid_status": 2},
                                              {"id": third, "description": "Június"}])
    assert resp.status_code == 200
    body = resp.json()
    assert sorted(_ids(body)) == sorted([first, third]) and second not in _ids(body)
    months = {m["month"]: m for m in body["monthly_taxes"]}
    assert months["2024-03-01"]["amount"] == "10.00"
    assert months["2024-03-01"]["paid_status"] == 2
    assert months["2024-06-01"]["taxes"][0]["description"] == "Június"


def test_tax_update_rejects_code_together_with_name(api):
    tax_id = _ids(_create(api, _tax()))[0]
    resp = api.post("/2/taxes/update/", json=[{"id": tax_id, "code": "104", "name": "X"}])
    assert resp.status_code == 400


def test_tax_update_from_code_to_name_needs_account_number(api):
    tax_id = _ids(_create(api, _tax()))[0]
    resp = api.post("/2/taxes/update/", json=[{"id": tax_id, "name": "Egyéb adó"}])
    assert resp.status_code == 400 and "account_number" in resp.json()[0]
    resp = api.post("/2/taxes/update/", json=[{"id": tax_id, "name": "Egyéb adó",
                                               "account_number": ACCOUNT}])
    detail = resp.json()["monthly_taxes"][0]["taxes"][0]
    assert (detail["code"], detail["name"], detail["account_number"]) == (None, "Egyéb adó",
                                                                          ACCOUNT)


def test_tax_update_rejects_currency(api):
    tax_id = _ids(_create(api, _tax()))[0]
    resp = api.post("/2/taxes/update/", json=[{"id": tax_id, "currency": 2}])
    assert resp.status_code == 400 and "currency" in resp.json()[0]


def test_tax_update_of_unknown_or_foreign_id_is_rejected(api, make_company, sandbox_url):
    from conftest import Api

    other = Api(sandbox_url, make_company())
    foreign = _ids(_create(other, _tax()))[0]
    resp = api.post("/2/taxes/update/", json=[{"id": foreign, "amount": "1"}])
    assert resp.status_code == 400 and "id" in resp.json()[0]


def test_synced_tax_update_ignores_every_change_except_tags(api, sandbox_url):
    tax_id = _sync(sandbox_url, api, _tax(amount="50", description="NAV"))
    tag = api.get("/2/tags/").json()[0]["id"]
    resp = api.post("/2/taxes/update/", json=[{"id": tax_id, "amount": "1", "code": "104",
                                               "description": "kézi", "paid_status": 2,
                                               "simple_tags": [tag], "tags": [tag]}])
    assert resp.status_code == 200
    detail = resp.json()["monthly_taxes"][0]["taxes"][0]
    assert detail["tags"] == [tag] and detail["simple_tags"] == []
    assert (detail["amount"], detail["code"], detail["description"], detail["paid_status"]) == (
        "50.00", "103", "NAV", 1)


def test_synced_tax_lists_only_tags_as_editable(api, sandbox_url):
    _sync(sandbox_url, api, _tax())
    detail = api.get("/2/monthly-taxes/?fields=taxes").json()["monthly_taxes"][0]["taxes"][0]
    assert detail["source"] == "nav" and detail["editable_fields"] == ["tags"]


def test_tax_delete_answers_204_with_no_content(api):
    tax_id = _ids(_create(api, _tax()))[0]
    resp = api.post("/2/taxes/delete/", json={"ids": [tax_id]})
    assert resp.status_code == 204 and resp.content == b""
    assert api.get("/2/monthly-taxes/").json()["monthly_taxes"] == []


def test_tax_delete_leaves_other_companies_taxes_alone(api, make_company, sandbox_url):
    from conftest import Api

    other = Api(sandbox_url, make_company())
    foreign = _ids(_create(other, _tax()))[0]
    assert api.post("/2/taxes/delete/", json={"ids": [foreign]}).status_code == 204
    assert _ids(other.get("/2/monthly-taxes/?fields=taxes").json()) == [foreign]


def test_tax_writes_are_refused_for_viewer(api):
    assert api.post("/2/taxes/create/", json=[_tax()], token="viewer").status_code == 403
    assert api.post("/2/taxes/delete/", json={"ids": []}, token="viewer").status_code == 403
    assert api.get("/2/monthly-taxes/", token="viewer").status_code == 200


def test_tax_code_list_names_each_code_with_its_account(api):
    codes = {c["code"]: c for c in api.get("/1/tax-codes/").json()}
    assert codes["103"]["account_number"] == "10032000-06056353"


@pytest.mark.parametrize(("field", "value", "message"), [
    ("code", [], '"[]" is not a valid choice.'),
    ("code", {"id": 104}, "is not a valid choice."),
    ("code", True, '"True" is not a valid choice.'),
    ("title", "9999-12-31", "between 0001-02 and 9999-11"),
    ("month", "0001-01", "between 0001-02 and 9999-11"),
])
def test_a_value_the_months_or_codes_cannot_take_is_a_400_on_its_field(api, field, value,
                                                                      message):
    body = _create(api, {**_tax(), field: value}, status=400)
    assert message in body[0][field][0]


FIELDS = ("month", "title", "due_at", "amount", "code", "name", "account_number",
          "external_id", "tags", "simple_tags", "exchange_rate", "paid_status")


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(FIELDS), value=JSON_VALUES)
def test_any_value_in_any_tax_field_is_taken_or_refused_never_a_server_error(api, field, value):
    resp = api.post("/2/taxes/create/", json=[{**_tax(), field: value}])
    assert resp.status_code in (201, 400), (field, value, resp.text)
