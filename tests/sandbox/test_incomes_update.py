"""Spec 4.2 update rules 3, 5 and 7, assignment validation, response shape, 7 rows."""
import pytest
from incomes_support import assignment, create, detail, make_income, read_catalogue, set_state


@pytest.fixture
def cat(sandbox_db_path, company):
    """The test company's catalogue ids."""
    return read_catalogue(sandbox_db_path, company.id)


def _patch(api, income_id, **body):
    return api.patch(f"/2/incomes/{income_id}/update/", json=body)


def test_update_response_has_the_same_shape_as_the_detail(api, cat):
    income = create(api, cat)
    updated = _patch(api, income["id"], note="x").json()
    assert set(updated) == set(detail(api, income["id"]))


def test_update_bumps_version_and_updated_at(api, cat):
    income = create(api, cat)
    updated = _patch(api, income["id"], note="x").json()
    assert updated["version"] == income["version"] + 1
    assert updated["updated_at"] > income["updated_at"]


def test_tags_list_replaces_the_whole_set(api, cat):
    income = create(api, cat, tags=[cat.tags[0], cat.tags[1]])
    body = _patch(api, income["id"], tags=[cat.tags[2]]).json()
    assert [t["id"] for t in body["tags"]] == [cat.tags[2]]
    assert _patch(api, income["id"], tags=[]).json()["tags"] == []


def test_simple_tags_list_replaces_the_whole_set(api, cat):
    income = create(api, cat, simple_tags=[cat.tags[0]])
    body = _patch(api, income["id"], simple_tags=[cat.tags[1], cat.tags[3]]).json()
    assert [t["id"] for t in body["simple_tags"]] == [cat.tags[1], cat.tags[3]]


def test_assignments_list_replaces_all_assignments(api, cat):
    income = create(api, cat, assignments=[assignment(cat, "500", "635"),
                                           assignment(cat, "500", "635")])
    new = [assignment(cat, "1000", "1270", revenue_type=cat.revenue_types[3], job_number="J-1")]
    body = _patch(api, income["id"], assignments=new).json()
    assert len(body["assignments"]) == 1
    row = body["assignments"][0]
    assert row["revenue_type"]["id"] == cat.revenue_types[3] and row["job_number"] == "J-1"
    assert row["id"] not in [a["id"] for a in income["assignments"]]


def test_update_rejects_empty_assignments_list(api, cat):
    income = create(api, cat)
    assert _patch(api, income["id"], assignments=[]).status_code == 400


@pytest.mark.parametrize(("field", "value"), [("revenue_type", 999999), ("vat", 999999),
                                              ("tags", [999999])])
def test_assignment_references_must_exist_with_nested_errors(api, cat, field, value):
    income = create(api, cat)
    rows = [assignment(cat), assignment(cat, **{field: value})]
    resp = _patch(api, income["id"], assignments=rows)
    assert resp.status_code == 400
    assert resp.json()["assignments"][0] == {}
    assert resp.json()["assignments"][1] == {field: ['Invalid pk "999999" - object does not '
                                                     'exist.']}


def test_assignment_revenue_type_of_another_company_is_rejected(api, cat, make_company,
                                                                sandbox_db_path):
    from incomes_support import read_catalogue

    foreign = read_catalogue(sandbox_db_path, make_company().id).revenue_types[0]
    income = create(api, cat)
    resp = _patch(api, income["id"], assignments=[assignment(cat, revenue_type=foreign)])
    assert resp.status_code == 400 and "revenue_type" in resp.json()["assignments"][0]


@pytest.mark.parametrize("field", ["vat_ledger_number_id", "company_vat_category_id"])
def test_advanced_assignment_fields_apply_only_under_advanced_accounting(api, cat, field):
    income = create(api, cat)
    value = cat.ledger_numbers[0] if field == "vat_ledger_number_id" else cat.vats[0]
    resp = _patch(api, income["id"], assignments=[assignment(cat, **{field: value})])
    assert resp.status_code == 400
    assert field in resp.json()["assignments"][0]


def test_advanced_assignment_fields_are_stored_under_advanced_accounting(
        make_company, sandbox_url, sandbox_db_path):
    from conftest import Api
    from incomes_support import read_catalogue

    company = make_company(advanced_accounting=True)
    api, cat = Api(sandbox_url, company), read_catalogue(sandbox_db_path, company.id)
    income = create(api, cat, assignments=[assignment(
        cat, vat_ledger_number_id=cat.ledger_numbers[3], company_vat_category_id=cat.vats[1],
        ledger_number_id=cat.ledger_numbers[0])])
    row = income["assignments"][0]
    assert row["vat_ledger_number_id"] == cat.ledger_numbers[3]
    assert row["company_vat_category_id"] == cat.vats[1]


def test_update_to_foreign_currency_requires_an_actual_exchange_rate(api, cat):
    income = create(api, cat)
    resp = _patch(api, income["id"], currency=cat.currencies["EUR"])
    assert resp.status_code == 400 and "exchange_rate" in resp.json()
    ok = _patch(api, income["id"], currency=cat.currencies["EUR"], exchange_rate="401.5")
    assert ok.status_code == 200 and ok.json()["currency"]["code"] == "EUR"


def test_net_or_gross_change_in_group_b_recomputes_vat_amount(api, cat):
    income = create(api, cat)
    body = _patch(api, income["id"], net_amount="2000", gross_amount="2540").json()
    assert body["vat_amount"] == "540.00"


def test_update_copies_partner_data_when_partner_id_changes(api, cat):
    partner = api.post("/2/partners/create/", json={
        "name": "Delta Kft.", "city": "Győr", "is_vendor": True}).json()
    income = create(api, cat)
    body = _patch(api, income["id"], partner_id=partner["id"]).json()
    assert body["partner"]["id"] == partner["id"] and body["partner_name"] == "Delta Kft."
    assert body["partner_city"] == "Győr"


def test_accounting_id_is_editable_when_enabled_and_not_booked(make_company, sandbox_url):
    from conftest import Api

    api = Api(sandbox_url, make_company(enable_accounting_id=True))
    income = make_income(api, type=2)
    assert "accounting_id" in income["editable_fields"]
    assert _patch(api, income["id"], accounting_id="K-42").status_code == 200
    assert detail(api, income["id"], fields="accounting")["accounting_id"] == "K-42"


@pytest.mark.parametrize("empty", [None, ""])
def test_accounting_id_null_or_empty_string_clears_it(make_company, sandbox_url, empty):
    from conftest import Api

    api = Api(sandbox_url, make_company(enable_accounting_id=True))
    income = make_income(api, type=2, accounting_id="K-1")
    assert _patch(api, income["id"], accounting_id=empty).status_code == 200
    assert detail(api, income["id"], fields="accounting")["accounting_id"] is None


def test_accounting_id_is_not_editable_when_setting_is_off(api):
    income = make_income(api, type=2)
    assert "accounting_id" not in income["editable_fields"]
    resp = _patch(api, income["id"], accounting_id="K-1")
    assert resp.status_code == 400 and "enable_accounting_id" in resp.json()["accounting_id"][0]


def test_accounting_id_is_not_editable_on_booked_income(make_company, sandbox_url):
    from conftest import Api

    api = Api(sandbox_url, make_company(enable_accounting_id=True))
    income = make_income(api, type=2, is_booked=True)
    assert "accounting_id" not in income["editable_fields"]
    assert _patch(api, income["id"], accounting_id="K-1").status_code == 400
    processed = make_income(api, type=2, is_processed=True)
    assert "accounting_id" in processed["editable_fields"]


def test_accounting_period_start_and_end_must_be_sent_together(api, cat):
    income = create(api, cat)
    resp = _patch(api, income["id"], accounting_period_start="2025-01-01")
    assert resp.status_code == 400 and "non_field_errors" in resp.json()
    resp = _patch(api, income["id"], accounting_period_end="2025-12-31")
    assert resp.status_code == 400


def test_accounting_period_start_may_not_be_after_end(api, cat):
    income = create(api, cat)
    resp = _patch(api, income["id"], accounting_period_start="2025-06-01",
                  accounting_period_end="2025-05-31")
    assert resp.status_code == 400 and "accounting_period_start" in resp.json()


def test_accounting_period_is_stored_and_cleared_together(api, cat):
    income = create(api, cat)
    body = _patch(api, income["id"], accounting_period_start="2025-01-01",
                  accounting_period_end="2025-12-31").json()
    assert (body["accounting_period_start"], body["accounting_period_end"]) == (
        "2025-01-01", "2025-12-31")
    cleared = _patch(api, income["id"], accounting_period_start=None,
                     accounting_period_end=None).json()
    assert cleared["accounting_period_start"] is None


def test_accounting_period_pair_rule_applies_on_create_too(api, cat):
    from incomes_support import income_body

    resp = api.post("/2/incomes/create/", json=income_body(cat, accounting_period_end="2025-01-01"))
    assert resp.status_code == 400 and "non_field_errors" in resp.json()


def test_needs_review_and_review_done_are_editable_on_unprocessed_documents(api):
    income = make_income(api, type=2, needs_review=True)
    body = _patch(api, income["id"], review_done=True).json()
    assert body["needs_review"] is True and body["review_done"] is True


def test_update_of_unknown_or_foreign_income_is_404(api, cat, make_company, sandbox_url):
    from conftest import Api

    other = make_income(Api(sandbox_url, make_company()), type=2)
    assert _patch(api, other["id"], note="x").status_code == 404
    assert _patch(api, 99999999, note="x").status_code == 404


def test_update_is_refused_for_viewer(api, cat):
    income = create(api, cat)
    resp = api.patch(f"/2/incomes/{income['id']}/update/", json={"note": "x"}, token="viewer")
    assert resp.status_code == 403


def test_update_path_works_without_trailing_slash(api, cat):
    income = create(api, cat)
    assert api.patch(f"/2/incomes/{income['id']}/update", json={"note": "y"}).status_code == 200


def test_unknown_and_read_only_keys_are_ignored(api, cat):
    income = create(api, cat)
    resp = _patch(api, income["id"], id=5, editable_fields=[], whatever=1, note="z")
    assert resp.status_code == 200 and resp.json()["id"] == income["id"]


def test_processed_state_limits_the_update(api):
    income = make_income(api, type=2)
    set_state(api, income["id"], is_processed=True)
    assert _patch(api, income["id"], note="x").status_code == 400
    assert _patch(api, income["id"], secondary_id="ok").status_code == 200


def test_update_back_to_default_currency_resets_exchange_rate_to_1(api, cat):
    income = create(api, cat, currency=cat.currencies["EUR"], exchange_rate="400")
    body = _patch(api, income["id"], currency=cat.currencies["HUF"]).json()
    assert body["currency"]["code"] == "HUF" and body["exchange_rate"] == "1.000000"
