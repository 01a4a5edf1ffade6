"""Spec 2.9, 2.10, 4.5 and part 8: salary costs and their monthly listing."""
import pytest
import requests

ANNA, BELA = "8123456789", "8234567890"


def _salary(tax_number=ANNA, month="2024-03", amount="450000", **extra):
    return {"month": month, "amount": amount, "tax_number": tax_number,
            "name": "Kovács Anna", "account_number": "11773016-01234567", **extra}


def _create(api, *items, status=201):
    resp = api.post("/2/salaries/create/", json=list(items))
    assert resp.status_code == status, resp.text
    return resp.json()


def _ids(body):
    return [s["id"] for m in body["monthly_salaries"] for s in m["salaries"]]


def test_monthly_salaries_have_month_amount_paid_status_and_due_at(api):
    _create(api, _salary(due_at="2024-03-12"), _salary(BELA, amount="300000",
                                                       due_at="2024-03-08"))
    body = api.get("/2/monthly-salaries/").json()
    assert set(body) == {"monthly_salaries", "tags"}
    month = body["monthly_salaries"][0]
    assert (month["month"], month["amount"], month["paid_status"], month["due_at"]) == (
        "2024-03-01", "750000.00", 1, "2024-03-08")
    assert "salaries" not in month


def test_monthly_salaries_fields_salaries_adds_per_salary_detail(api):
    tag = api.get("/2/tags/").json()[0]
    _create(api, _salary(description="Márciusi bér", simple_tags=[tag["id"]]))
    body = api.get("/2/monthly-salaries/", params={"fields": "salaries"}).json()
    detail = body["monthly_salaries"][0]["salaries"][0]
    assert (detail["tax_number"], detail["source"], detail["description"]) == (
        ANNA, "manual", "Márciusi bér")
    assert detail["simple_tags"] == [tag["id"]] and detail["due_at"] == "2024-03-10"
    assert body["tags"] == [{"id": tag["id"], "name": tag["name"]}]


def test_salary_second_tax_number_in_month_is_rejected(api):
    first = _ids(_create(api, _salary()))[0]
    resp = api.post("/2/salaries/create/", json=[_salary(month="2024-03-20")])
    assert resp.status_code == 400
    assert "tax_number" in resp.json()[0] and resp.json()[0]["existing_salary_id"] == first


def test_salary_same_tax_number_twice_in_one_request_is_rejected(api):
    resp = api.post("/2/salaries/create/", json=[_salary(), _salary(amount="1")])
    assert resp.status_code == 400 and "tax_number" in resp.json()[1]
    assert api.get("/2/monthly-salaries/").json()["monthly_salaries"] == []


def test_salary_same_tax_number_in_another_month_is_accepted(api):
    body = _create(api, _salary(), _salary(month="2024-04"), _salary(BELA))
    assert len(_ids(body)) == 3


def test_salary_update_into_a_taken_month_is_rejected(api):
    _create(api, _salary())
    other = _ids(_create(api, _salary(month="2024-04")))[0]
    resp = api.post("/2/salaries/update/", json=[{"id": other, "month": "2024-03"}])
    assert resp.status_code == 400 and "tax_number" in resp.json()[0]


def test_salary_create_requires_tax_number_and_rejects_currency(api):
    item = _salary(currency=1)
    del item["tax_number"]
    resp = api.post("/2/salaries/create/", json=[item])
    assert resp.status_code == 400 and {"tax_number", "currency"} <= set(resp.json()[0])


def test_salary_create_rejects_code_together_with_name(api):
    resp = api.post("/2/salaries/create/", json=[_salary(code="103")])
    assert resp.status_code == 400 and "non_field_errors" in resp.json()[0]


def test_salary_create_rejects_malformed_tax_number(api):
    resp = api.post("/2/salaries/create/", json=[_salary(tax_number="12")])
    assert resp.status_code == 400 and "tax_number" in resp.json()[0]


def test_salary_update_in_bulk_answers_monthly_listing_of_updated(api):
    first, second = sorted(_ids(_create(api, _salary(), _salary(BELA))))
    resp = api.post("/2/salaries/update/", json=[{"id": second, "paid_status": 3,
                                                  "due_at": "2024-03-15"}])
    assert resp.status_code == 200
    assert _ids(resp.json()) == [second]
    month = resp.json()["monthly_salaries"][0]
    assert month["paid_status"] == 3 and month["due_at"] == "2024-03-15"


def test_synced_salary_update_ignores_every_change_except_tags(api, sandbox_url):
    resp = requests.post(f"{sandbox_url}/_sandbox/salaries/sync/", timeout=10, json={
        "company_id": api.company.id, "source": "kulcs-ber", "items": [_salary()]})
    salary_id = _ids(resp.json())[0]
    tag = api.get("/2/tags/").json()[0]["id"]
    resp = api.post("/2/salaries/update/", json=[{"id": salary_id, "amount": "1",
                                                  "tax_number": BELA, "tags": [tag]}])
    detail = resp.json()["monthly_salaries"][0]["salaries"][0]
    assert (detail["amount"], detail["tax_number"], detail["tags"]) == ("450000.00", ANNA,
                                                                        [tag])
    assert detail["source"] == "kulcs-ber" and detail["editable_fields"] == ["tags"]


def test_salary_delete_answers_204_with_no_content(api):
    salary_id = _ids(_create(api, _salary()))[0]
    resp = api.post("/2/salaries/delete/", json={"ids": [salary_id]})
    assert resp.status_code == 204 and resp.content == b""
    assert api.get("/2/monthly-salaries/").json()["monthly_salaries"] == []


@pytest.mark.parametrize("params", [{"source": "excel"}, {"from_date": "03/01/2024"},
                                    {"is_paid": "talán"}])
def test_monthly_salaries_reject_bad_filters(api, params):
    assert api.get("/2/monthly-salaries/", params=params).status_code == 400


def test_monthly_salaries_filters_like_taxes(api):
    _create(api, _salary(paid_status=2), _salary(BELA, month="2024-05", paid_status=3))
    paid = api.get("/2/monthly-salaries/", params={"is_paid": "true"}).json()
    part = api.get("/2/monthly-salaries/", params={"is_installment": "true",
                                                   "from_date": "2024-04-01"}).json()
    assert [m["month"] for m in paid["monthly_salaries"]] == ["2024-03-01"]
    assert [m["month"] for m in part["monthly_salaries"]] == ["2024-05-01"]
