"""Spec 4.2 update rules 1 and 2: edit groups by type and processing status, editable_fields."""
import pytest
from incomes_support import create, detail, make_income, read_catalogue, set_state


@pytest.fixture
def cat(sandbox_db_path, company):
    """The test company's catalogue ids."""
    return read_catalogue(sandbox_db_path, company.id)


GROUP_A = {"vat_area", "due_at", "payment_method", "planned_payment_date", "paid_through",
           "secondary_id", "exchange_rate", "exchange_date", "accounting_period_start",
           "accounting_period_end", "tags", "simple_tags", "assignments", "note",
           "needs_review", "review_done", "ledger_number_id"}
GROUP_B = {"invoice_number", "net_amount", "gross_amount", "currency", "fulfilled_at",
           "issued_at", "partner_id", "partner_name", "partner_zip_code", "partner_city",
           "partner_address", "partner_country", "partner_tax_number", "partner_account_number"}
GROUP_C = {"invoice_number", "net_amount", "vat_amount", "gross_amount", "currency",
           "exchange_rate", "exchange_date", "fulfilled_at", "secondary_id", "tags",
           "simple_tags", "assignments"}
GROUP_D = {"secondary_id", "tags", "simple_tags", "assignments"}
STATES = {
    "document": ({"type": 2}, GROUP_A | GROUP_B | {"is_cancelled"}),
    "manual_invoice": ({"type": 1}, GROUP_A | GROUP_B),
    "synced_invoice": ({"type": 1, "source": "billingo"}, GROUP_A),
    "cash_receipt": ({"type": 6}, GROUP_C | {"needs_review", "review_done"}),
    "collective_receipt": ({"type": 7}, GROUP_C | {"needs_review", "review_done"}),
    "processed_document": ({"type": 2, "is_processed": True}, GROUP_D),
    "booked_invoice": ({"type": 1, "is_booked": True, "source": "szamlazz.hu"}, GROUP_D),
    "processed_receipt": ({"type": 6, "is_processed": True}, GROUP_D),
}
SAMPLE = {"vat_area": "EU", "due_at": "2025-04-30", "payment_method": "cash",
          "planned_payment_date": "2025-04-20", "paid_through": "Bank", "secondary_id": "X-1",
          "exchange_rate": 1, "exchange_date": "2025-03-01",
          "note": "Megjegyzés", "needs_review": True, "review_done": True,
          "ledger_number_id": None, "invoice_number": "UJ-1", "net_amount": "2000.00",
          "vat_amount": "540.00", "gross_amount": "2540.00", "fulfilled_at": "2025-03-10",
          "issued_at": "2025-03-10", "partner_id": None, "partner_name": "Gamma Zrt.",
          "partner_zip_code": "1011", "partner_city": "Budapest", "partner_address": "Fő u. 1.",
          "partner_country": "HU", "partner_tax_number": "11111111-2-41",
          "partner_account_number": "11773016-11111111", "is_cancelled": True,
          "tags": [], "simple_tags": []}


def _income_fields(editable: list[str]) -> set[str]:
    return {name for name in editable if not name.startswith("assignments.")}


@pytest.mark.parametrize("state", STATES)
def test_editable_fields_follow_type_source_and_processing_status(api, state):
    fields, expected = STATES[state]
    income = make_income(api, **fields)
    assert _income_fields(income["editable_fields"]) == expected


@pytest.mark.parametrize("state", STATES)
def test_every_field_outside_editable_fields_is_rejected_naming_it(api, state):
    income = make_income(api, **STATES[state][0])
    locked = [k for k in SAMPLE if k not in income["editable_fields"]]
    for key in locked:
        resp = api.patch(f"/2/incomes/{income['id']}/update/", json={key: SAMPLE[key]})
        assert resp.status_code == 400, key
        assert key in resp.json() and resp.json()["not_editable_fields"] == [key]


@pytest.mark.parametrize("state", STATES)
def test_every_field_in_editable_fields_is_accepted(api, state):
    income = make_income(api, **STATES[state][0])
    allowed = {k: v for k, v in SAMPLE.items() if k in income["editable_fields"]}
    resp = api.patch(f"/2/incomes/{income['id']}/update/", json=allowed)
    assert resp.status_code == 200, resp.text
    assert resp.json()["version"] == income["version"] + 1


def test_update_applies_to_types_1_2_6_and_7(api):
    for kind in (1, 2, 6, 7):
        income = make_income(api, type=kind)
        resp = api.patch(f"/2/incomes/{income['id']}/update/", json={"secondary_id": "S-9"})
        assert resp.status_code == 200, kind
        assert resp.json()["secondary_id"] == "S-9"


def test_update_is_partial_and_keeps_other_fields(api, cat):
    income = create(api, cat, note="Első", secondary_id="A")
    resp = api.patch(f"/2/incomes/{income['id']}/update/", json={"note": "Második"})
    assert resp.json()["note"] == "Második" and resp.json()["secondary_id"] == "A"
    assert resp.json()["invoice_number"] == income["invoice_number"]


def test_receipt_fulfilled_at_also_sets_due_at_and_issued_at(api):
    receipt = make_income(api, type=6)
    body = api.patch(f"/2/incomes/{receipt['id']}/update/",
                     json={"fulfilled_at": "2025-02-14"}).json()
    assert body["fulfilled_at"] == body["due_at"] == body["issued_at"] == "2025-02-14"


def test_receipt_accepts_vat_amount_from_group_c(api):
    receipt = make_income(api, type=7)
    body = api.patch(f"/2/incomes/{receipt['id']}/update/",
                     json={"net_amount": "100", "vat_amount": "27", "gross_amount": "127"}).json()
    assert (body["net_amount"], body["vat_amount"], body["gross_amount"]) == (
        "100.00", "27.00", "127.00")


def test_partner_account_number_is_ignored_on_invoices(api):
    invoice = make_income(api, type=1, partner_account_number="10000000-20000000")
    resp = api.patch(f"/2/incomes/{invoice['id']}/update/",
                     json={"partner_account_number": "99999999-99999999"})
    assert resp.status_code == 200
    assert resp.json()["partner_account_number"] == "10000000-20000000"


def test_partner_account_number_is_stored_on_accounting_documents(api):
    doc = make_income(api, type=2)
    resp = api.patch(f"/2/incomes/{doc['id']}/update/",
                     json={"partner_account_number": "99999999-99999999"})
    assert resp.json()["partner_account_number"] == "99999999-99999999"


def test_reduced_group_allows_only_revenue_type_within_assignments(api, cat):
    income = make_income(api, type=2, is_processed=True)
    assert [f for f in income["editable_fields"] if f.startswith("assignments.")] == [
        "assignments.revenue_type"]
    row = income["assignments"][0]
    resp = api.patch(f"/2/incomes/{income['id']}/update/", json={"assignments": [
        {"id": row["id"], "revenue_type": cat.revenue_types[2],
         "net_amount": row["net_amount"]}]})
    assert resp.status_code == 200, resp.text
    assert resp.json()["assignments"][0]["revenue_type"]["id"] == cat.revenue_types[2]


def test_reduced_group_rejects_other_assignment_changes(api, cat):
    income = make_income(api, type=1, is_booked=True)
    resp = api.patch(f"/2/incomes/{income['id']}/update/", json={"assignments": [
        {"revenue_type": cat.revenue_types[1], "net_amount": "1.00"}]})
    assert resp.status_code == 400
    assert list(resp.json()["assignments"][0]) == ["net_amount"]
    two = api.patch(f"/2/incomes/{income['id']}/update/", json={"assignments": [
        {"revenue_type": cat.revenue_types[1]}, {"revenue_type": cat.revenue_types[1]}]})
    assert two.status_code == 400


def test_full_group_lists_assignment_fields_and_advanced_ones_under_advanced_accounting(
        api, make_company, sandbox_url):
    from conftest import Api

    plain = make_income(api, type=2)["editable_fields"]
    advanced_api = Api(sandbox_url, make_company(advanced_accounting=True))
    advanced = make_income(advanced_api, type=2)["editable_fields"]
    assert "assignments.vat" in plain and "assignments.vat_ledger_number_id" not in plain
    assert {"assignments.vat_ledger_number_id", "assignments.company_vat_category_id"} <= set(
        advanced)


def test_processing_state_change_is_reflected_in_editable_fields(api):
    income = make_income(api, type=2)
    assert "invoice_number" in income["editable_fields"]
    after = set_state(api, income["id"], is_processed=True)
    assert "invoice_number" not in after["editable_fields"]
    assert detail(api, income["id"])["accounting_status"] == "processed"
