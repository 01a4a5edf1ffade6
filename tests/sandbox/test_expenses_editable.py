"""editable_fields by source and processing status (spec 2.3, 4.3 rule 1; see expenses_rules)."""
import expense_support
import pytest
from expense_support import make_expense, patch

advanced_api = expense_support.advanced_api  # a fixture, found by name
ecat = expense_support.ecat  # a fixture, found by name

HEADER = {"partner", "invoice_number", "issued_at", "fulfilled_at", "due_at", "currency",
          "exchange_rate", "payment_method", "vat_area"}
ANNOTATIONS = {"note", "secondary_id", "tags", "simple_tags", "custom_fields"}


def _fields(expense: dict) -> tuple[set, set]:
    names = set(expense["editable_fields"])
    inner = {n.split(".", 1)[1] for n in names if n.startswith("assignments.")}
    return {n for n in names if "." not in n} - {"assignments"}, inner


def test_manual_unprocessed_expense_is_fully_editable(advanced_api):
    header, inner = _fields(make_expense(advanced_api))
    assert header == HEADER | ANNOTATIONS | {"excluded_from_accounting"}
    assert inner == {"expense_type", "net_amount", "vat_amount", "gross_amount", "vat", "tags",
                     "job_number", "ledger_number", "vat_ledger_number",
                     "company_vat_category"}


def test_without_advanced_accounting_vat_ledger_and_company_vat_category_are_absent(api):
    header, inner = _fields(make_expense(api))
    assert not {"vat_ledger_number", "company_vat_category"} & inner
    assert "ledger_number" in inner


def test_integration_synced_expense_keeps_annotations_and_categorisation(advanced_api):
    header, inner = _fields(make_expense(advanced_api, source="szamlazz.hu"))
    assert header == ANNOTATIONS | {"excluded_from_accounting"}
    assert inner == {"expense_type", "tags", "job_number", "vat_ledger_number",
                     "company_vat_category"}


def test_processed_expense_keeps_due_date_payment_method_and_categorisation(advanced_api):
    header, inner = _fields(make_expense(advanced_api, processed=True))
    assert header == ANNOTATIONS | {"excluded_from_accounting", "due_at", "payment_method"}
    assert inner == {"expense_type", "tags", "job_number", "ledger_number",
                     "vat_ledger_number", "company_vat_category"}


def test_booked_expense_keeps_annotations_and_assignment_tags_only(advanced_api):
    header, inner = _fields(make_expense(advanced_api, booked=True))
    assert header == ANNOTATIONS
    assert inner == {"tags", "job_number"}


def test_checked_expense_drops_only_ledger_number(advanced_api):
    header, inner = _fields(make_expense(advanced_api, checked=True))
    assert "ledger_number" not in inner and "vat_ledger_number" in inner
    assert "invoice_number" in header


def test_assignments_is_listed_with_its_fields(api):
    names = make_expense(api)["editable_fields"]
    assert "assignments" in names
    assert names.index("assignments") < names.index("assignments.expense_type")


@pytest.mark.parametrize("state", [{"processed": True}, {"booked": True},
                                   {"source": "nav"}, {"checked": True}])
def test_every_listed_field_is_accepted_in_each_state(api, ecat, state):
    expense = make_expense(api, ecat, **state)
    header = {"note": "n", "secondary_id": "s", "tags": [ecat.tags[0]],
              "due_at": "2025-01-31", "payment_method": "cash", "invoice_number": "I-9",
              "excluded_from_accounting": True}
    body = {k: v for k, v in header.items() if k in expense["editable_fields"]}
    item = {"id": expense["assignments"][0]["id"], "job_number": "J", "tags": [ecat.tags[1]]}
    body["assignments"] = [item]
    resp = patch(api, expense["id"], body)
    assert resp.status_code == 200, resp.text
