"""PATCH /2/expenses/{id}/update/ (spec 4.3 rules 1 and 2, spec 3 exclusion rows)."""
import expense_support
from expense_support import detail, listed_ids, make_expense, patch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.strategies import JSON_VALUES

ecat = expense_support.ecat  # a fixture, found by name
other_api = expense_support.other_api  # a fixture, found by name


def test_every_editable_expense_field_is_editable(api, ecat):
    expense = make_expense(api, ecat)
    body = {"invoice_number": "NEW-1", "issued_at": "2025-05-01", "fulfilled_at": "2025-05-02",
            "due_at": "2025-05-20", "exchange_rate": "1", "payment_method": "card",
            "vat_area": "EU", "note": "jegyzet", "secondary_id": "EXT-1",
            "tags": [ecat.tags[0]], "simple_tags": [ecat.tags[1]],
            "custom_fields": {"Projekt": "Webshop"}, "excluded_from_accounting": False}
    assert set(body) <= set(expense["editable_fields"])
    resp = patch(api, expense["id"], body)
    assert resp.status_code == 200, resp.text
    got = resp.json()
    for key, value in body.items():
        expected = "1.000000" if key == "exchange_rate" else value
        assert got[key] == expected, key


def test_field_outside_editable_fields_returns_400_naming_it(api, ecat):
    expense = make_expense(api, ecat, processed=True)
    assert "invoice_number" not in expense["editable_fields"]
    resp = patch(api, expense["id"], {"invoice_number": "CHANGED", "note": "ok"})
    assert resp.status_code == 400
    body = resp.json()
    assert body["non_editable_fields"] == ["invoice_number"]
    assert "processed" in body["invoice_number"][0]
    assert detail(api, expense["id"])["note"] == ""


def test_read_only_field_returns_400_naming_it(api, ecat):
    expense = make_expense(api, ecat)
    resp = patch(api, expense["id"], {"filing_number": "K-1"})
    assert resp.status_code == 400
    assert resp.json()["non_editable_fields"] == ["filing_number"]


def test_unchanged_value_of_non_editable_field_is_accepted(api, ecat):
    expense = make_expense(api, ecat, invoice_number="SAME-1", processed=True)
    resp = patch(api, expense["id"], {"invoice_number": "SAME-1", "note": "x"})
    assert resp.status_code == 200, resp.text
    assert resp.json()["note"] == "x"


def test_secondary_id_can_be_set(api, ecat):
    expense = make_expense(api, ecat)
    resp = patch(api, expense["id"], {"secondary_id": "ERP-123"})
    assert resp.status_code == 200
    assert detail(api, expense["id"])["secondary_id"] == "ERP-123"


def test_secondary_id_can_be_set_on_synced_processed_expense(api, ecat):
    expense = make_expense(api, ecat, source="szamlazz.hu", processed=True)
    assert patch(api, expense["id"], {"secondary_id": "ERP-9"}).status_code == 200


def test_excluding_expense_from_accounting_creates_an_action(api, ecat):
    expense = make_expense(api, ecat)
    resp = patch(api, expense["id"], {"excluded_from_accounting": True})
    assert resp.status_code == 200
    body = detail(api, expense["id"])
    assert body["excluded_from_accounting"] is True
    assert [a["type"] for a in body["actions"]] == ["exclude_from_accounting"]
    assert body["actions"][0]["created_at"]


def test_excluding_already_excluded_expense_returns_error(api, ecat):
    expense = make_expense(api, ecat)
    assert patch(api, expense["id"], {"excluded_from_accounting": True}).status_code == 200
    resp = patch(api, expense["id"], {"excluded_from_accounting": True})
    assert resp.status_code == 400
    body = resp.json()
    assert body["code"] == "already_excluded"
    assert "already excluded" in body["excluded_from_accounting"][0]
    assert len(detail(api, expense["id"])["actions"]) == 1


def test_including_an_excluded_expense_again_is_recorded(api, ecat):
    expense = make_expense(api, ecat, excluded_from_accounting=True)
    resp = patch(api, expense["id"], {"excluded_from_accounting": False})
    assert resp.status_code == 200
    types = [a["type"] for a in resp.json()["actions"]]
    assert types == ["exclude_from_accounting", "include_in_accounting"]


def test_failed_update_changes_nothing(api, ecat):
    expense = make_expense(api, ecat)
    resp = patch(api, expense["id"], {"note": "kept?", "issued_at": "05/01/2025"})
    assert resp.status_code == 400 and "issued_at" in resp.json()
    assert detail(api, expense["id"])["note"] == ""


def test_tags_replace_the_whole_set(api, ecat):
    expense = make_expense(api, ecat, tags=[ecat.tags[0], ecat.tags[1]])
    resp = patch(api, expense["id"], {"tags": [ecat.tags[2]]})
    assert resp.json()["tags"] == [ecat.tags[2]]


def test_tag_of_another_company_is_400(api, ecat, other_api):
    foreign_tag = other_api.get("/2/tags/").json()[0]["id"]
    expense = make_expense(api, ecat)
    resp = patch(api, expense["id"], {"tags": [foreign_tag]})
    assert resp.status_code == 400 and "tags" in resp.json()


def test_update_bumps_updated_at_and_the_amount_total(api, ecat):
    expense = make_expense(api, ecat, updated_at="2020-01-01T00:00:00Z")
    item = {"id": expense["assignments"][0]["id"], "net_amount": "5000", "vat_amount": "0",
            "gross_amount": "5000"}
    resp = patch(api, expense["id"], {"assignments": [item]})
    assert resp.json()["updated_at"] > "2021"
    assert listed_ids(api, min_amount="4000") == [expense["id"]]


def test_viewer_cannot_update(api, ecat):
    expense = make_expense(api, ecat)
    assert patch(api, expense["id"], {"note": "x"}, token="viewer").status_code == 403


def test_update_of_another_companys_expense_is_404(api, other_api):
    foreign = make_expense(other_api)
    assert patch(api, foreign["id"], {"note": "x"}).status_code == 404


def test_update_body_must_be_an_object(api, ecat):
    expense = make_expense(api, ecat)
    resp = patch(api, expense["id"], ["note"])
    assert resp.status_code == 400 and "non_field_errors" in resp.json()


def test_out_of_range_numbers_answer_400_not_500(api, ecat):
    expense = make_expense(api, ecat)
    item = {"id": expense["assignments"][0]["id"], "gross_amount": "1e40"}
    for body in ({"exchange_rate": "1e30"}, {"tags": [10**30]}, {"assignments": [item]}):
        assert patch(api, expense["id"], body).status_code == 400, body
    assert api.get(f"/2/expenses/{10**30}/").status_code == 404


def test_an_amount_with_a_third_decimal_or_null_is_refused_not_rounded(api, ecat):
    expense = make_expense(api, ecat)
    row = expense["assignments"][0]
    for value, message in (("5000.005", "no more than 2 decimal places"),
                           (None, "may not be null"),
                           ("1000000000000", "no more than 12 digits before the decimal point")):
        item = {"id": row["id"], "net_amount": value, "vat_amount": "0", "gross_amount": "5000"}
        resp = patch(api, expense["id"], {"assignments": [item]})
        assert resp.status_code == 400, (value, resp.text)
        assert message in resp.text, resp.text
    assert detail(api, expense["id"])["assignments"][0]["net_amount"] == row["net_amount"]


FIELDS = ("invoice_number", "issued_at", "fulfilled_at", "due_at", "partner", "currency",
          "exchange_rate", "payment_method", "vat_area", "note", "secondary_id", "tags",
          "simple_tags", "custom_fields", "excluded_from_accounting", "accounting_id",
          "vat_period_type", "vat_period_started_at", "assignments")


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(FIELDS), value=JSON_VALUES)
def test_any_value_in_any_field_is_taken_or_refused_never_a_server_error(api, ecat, field,
                                                                         value):
    expense = make_expense(api, ecat)
    resp = patch(api, expense["id"], {field: value})
    assert resp.status_code in (200, 400), (field, value, resp.text)
