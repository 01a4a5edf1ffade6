"""PATCH /2/expenses/{id}/update/ (spec 4.3 rules 1-4, spec 3 exclusion rows, spec 7 row)."""
import expense_support
from expense_support import assignment, detail, listed_ids, make_expense, patch

advanced_api = expense_support.advanced_api  # a fixture, found by name
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
        expected = 1.0 if key == "exchange_rate" else value
        assert got[key] == expected, key


def test_every_editable_assignment_field_is_editable(advanced_api):
    api = advanced_api
    types = [t["id"] for t in api.get("/2/expense-types/").json()]
    ledgers = [n["id"] for n in api.get("/2/accounting/ledger-numbers/").json()]
    vats = [v["id"] for v in api.get("/2/accounting/vat-categories/").json()
            if v["type"] == "cost"]
    tags = [t["id"] for t in api.get("/2/tags/").json()]
    expense = make_expense(api, assignments=[{"expense_type": types[0], "net_amount": "1",
                                              "vat_amount": "0", "gross_amount": "1"}])
    change = {"id": expense["assignments"][0]["id"], "expense_type": types[1],
              "net_amount": "100.00", "vat_amount": "27.00", "gross_amount": "127.00",
              "vat": vats[0], "tags": [tags[0]], "job_number": "JOB-7",
              "ledger_number": ledgers[0], "vat_ledger_number": ledgers[1],
              "company_vat_category": vats[1]}
    named = {f"assignments.{k}" for k in change if k != "id"}
    assert named <= set(expense["editable_fields"])
    resp = patch(api, expense["id"], {"assignments": [change]})
    assert resp.status_code == 200, resp.text
    got = resp.json()["assignments"][0]
    assert got["expense_type"]["id"] == types[1] and got["gross_amount"] == "127.00"
    assert got["vat"]["id"] == vats[0] and got["tags"] == [tags[0]]
    assert got["job_number"] == "JOB-7" and got["ledger_number"]["id"] == ledgers[0]
    assert got["vat_ledger_number"]["id"] == ledgers[1]
    assert got["company_vat_category"]["id"] == vats[1]


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


def test_non_editable_assignment_field_returns_400_naming_it(api, ecat):
    expense = make_expense(api, ecat, processed=True)
    item = {"id": expense["assignments"][0]["id"], "gross_amount": "9999.00"}
    resp = patch(api, expense["id"], {"assignments": [item]})
    assert resp.status_code == 400
    body = resp.json()
    assert body["non_editable_fields"] == ["assignments.gross_amount"]
    assert "gross_amount" in body["assignments"][0]


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


def test_empty_assignments_list_is_rejected(api, ecat):
    expense = make_expense(api, ecat)
    resp = patch(api, expense["id"], {"assignments": []})
    assert resp.status_code == 400
    assert "assignments" in resp.json()
    assert len(detail(api, expense["id"])["assignments"]) == 1


def test_assignment_with_id_edits_that_assignment(api, ecat):
    expense = make_expense(api, ecat)
    item_id = expense["assignments"][0]["id"]
    resp = patch(api, expense["id"], {"assignments": [{"id": item_id, "job_number": "J-1"}]})
    assert resp.status_code == 200
    got = resp.json()["assignments"]
    assert [(a["id"], a["job_number"]) for a in got] == [(item_id, "J-1")]


def test_assignment_without_id_is_added(api, ecat):
    expense = make_expense(api, ecat)
    new = assignment(ecat, net="10", vat="0", gross="10", expense_type=ecat.expense_types[1])
    resp = patch(api, expense["id"], {"assignments": [new]})
    assert resp.status_code == 200
    got = resp.json()["assignments"]
    assert len(got) == 2 and got[1]["expense_type"]["id"] == ecat.expense_types[1]


def test_assignments_not_mentioned_are_kept(api, ecat):
    expense = make_expense(api, ecat, assignments=[assignment(ecat), assignment(ecat)])
    first, second = (a["id"] for a in expense["assignments"])
    resp = patch(api, expense["id"], {"assignments": [{"id": second, "job_number": "J"}]})
    assert [a["id"] for a in resp.json()["assignments"]] == [first, second]


def test_assignment_id_of_another_expense_is_400(api, ecat):
    expense = make_expense(api, ecat)
    stranger = make_expense(api, ecat)["assignments"][0]["id"]
    resp = patch(api, expense["id"], {"assignments": [{"id": stranger, "job_number": "J"}]})
    assert resp.status_code == 400
    assert "id" in resp.json()["assignments"][0]


def test_new_assignment_requires_type_and_amounts(api, ecat):
    expense = make_expense(api, ecat)
    resp = patch(api, expense["id"], {"assignments": [{"job_number": "J"}]})
    assert resp.status_code == 400
    errors = resp.json()["assignments"][0]
    assert {"expense_type", "net_amount", "vat_amount", "gross_amount"} <= set(errors)


def test_ledger_number_frozen_on_checked_expense(api, ecat):
    expense = make_expense(api, ecat, checked=True)
    assert "assignments.ledger_number" not in expense["editable_fields"]
    item = {"id": expense["assignments"][0]["id"], "ledger_number": ecat.ledger_numbers[0]}
    resp = patch(api, expense["id"], {"assignments": [item]})
    assert resp.status_code == 400
    body = resp.json()
    assert "frozen on checked" in body["assignments"][0]["ledger_number"][0]
    assert body["non_editable_fields"] == ["assignments.ledger_number"]


def test_ledger_number_frozen_on_integration_synced_expense(api, ecat):
    expense = make_expense(api, ecat, source="billingo")
    item = {"id": expense["assignments"][0]["id"], "ledger_number": ecat.ledger_numbers[0]}
    resp = patch(api, expense["id"], {"assignments": [item]})
    assert resp.status_code == 400
    assert "frozen on integration-synced" in resp.json()["assignments"][0]["ledger_number"][0]


def test_unchanged_ledger_number_on_checked_expense_is_accepted(api, ecat):
    ledger = ecat.ledger_numbers[0]
    expense = make_expense(api, ecat, checked=True,
                           assignments=[assignment(ecat, ledger_number=ledger)])
    item = {"id": expense["assignments"][0]["id"], "ledger_number": ledger, "job_number": "J"}
    assert patch(api, expense["id"], {"assignments": [item]}).status_code == 200


def test_ledger_number_editable_on_unchecked_manual_expense(api, ecat):
    expense = make_expense(api, ecat)
    item = {"id": expense["assignments"][0]["id"], "ledger_number": ecat.ledger_numbers[0]}
    resp = patch(api, expense["id"], {"assignments": [item]})
    assert resp.status_code == 200
    assert resp.json()["assignments"][0]["ledger_number"]["id"] == ecat.ledger_numbers[0]


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
