"""PATCH /2/expenses/{id}/update/ assignments (spec 4.3 rules 1, 3 and 4, spec 7 row)."""
import expense_support
from expense_support import assignment, detail, make_expense, patch

advanced_api = expense_support.advanced_api  # a fixture, found by name
ecat = expense_support.ecat  # a fixture, found by name


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
    assert got["vat"]["id"] == vats[0] and [t["id"] for t in got["tags"]] == [tags[0]]
    assert got["job_number"] == "JOB-7" and got["ledger_number"]["id"] == ledgers[0]
    assert got["vat_ledger_number"]["id"] == ledgers[1]
    assert got["company_vat_category"]["id"] == vats[1]


def test_non_editable_assignment_field_returns_400_naming_it(api, ecat):
    expense = make_expense(api, ecat, processed=True)
    item = {"id": expense["assignments"][0]["id"], "gross_amount": "9999.00"}
    resp = patch(api, expense["id"], {"assignments": [item]})
    assert resp.status_code == 400
    body = resp.json()
    assert body["non_editable_fields"] == ["assignments.gross_amount"]
    assert "gross_amount" in body["assignments"][0]


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
