"""GET /1/incomes/{id}/: spec 2.2 fields, references as objects, fields= expansions, states."""
import pytest
from incomes_support import create, detail, make_income, read_catalogue, set_state


@pytest.fixture
def cat(sandbox_db_path, company):
    """The test company's catalogue ids."""
    return read_catalogue(sandbox_db_path, company.id)


def test_detail_carries_secondary_id_and_editable_fields(api, cat):
    income = create(api, cat, secondary_id="K-77")
    body = detail(api, income["id"])
    assert body["secondary_id"] == "K-77"
    assert isinstance(body["editable_fields"], list) and "note" in body["editable_fields"]


def test_detail_names_every_spec_field(api, cat):
    body = detail(api, create(api, cat)["id"])
    named = {"id", "invoice_number", "invoice_type", "referred_invoice_number", "net_amount",
             "vat_amount", "gross_amount", "currency", "exchange_rate", "exchange_date",
             "fulfilled_at", "issued_at", "due_at", "payment_method", "planned_payment_date",
             "paid_through", "vat_area", "secondary_id", "is_cancelled", "needs_review",
             "review_done", "note", "tags", "simple_tags", "assignments", "items",
             "ledger_number_id", "accounting_period_start", "accounting_period_end",
             "vat_period_type", "vat_period_started_at", "editable_fields", "partner_id",
             "partner_name", "partner_zip_code", "partner_city", "partner_address",
             "partner_country", "partner_tax_number", "partner_account_number", "type"}
    assert named <= set(body)


def test_detail_references_are_objects(api, cat):
    income = create(api, cat, tags=[cat.tags[1]], ledger_number_id=cat.ledger_numbers[0])
    body = detail(api, income["id"])
    assert body["currency"] == {"id": cat.currencies["HUF"], "name": "HUF", "code": "HUF"}
    assert body["tags"][0]["id"] == cat.tags[1] and "name" in body["tags"][0]
    assert body["ledger_number_id"] == cat.ledger_numbers[0]
    row = body["assignments"][0]
    assert set(row["revenue_type"]) == {"id", "name"}
    assert set(row["vat"]) == {"id", "name", "percent"} and row["vat"]["percent"] == 27.0


def test_detail_amounts_are_decimal_strings(api, cat):
    body = detail(api, create(api, cat, net_amount="1000", gross_amount="1270.5")["id"])
    assert (body["net_amount"], body["gross_amount"]) == ("1000.00", "1270.50")


def test_accounting_fields_only_with_fields_accounting(api, cat):
    income = create(api, cat)
    assert "accounting_id" not in detail(api, income["id"])
    body = detail(api, income["id"], fields="accounting")
    assert body["accounting_id"] is None and "vat_period_ended_at" in body


def test_fields_accepts_a_comma_list_with_payment_history(api):
    income = make_income(api, type=2, payments=[{"paid_at": "2025-02-01", "amount": "500"}])
    body = detail(api, income["id"], fields="items,payment_history,accounting")
    assert body["payment_history"] == [{"id": body["payment_history"][0]["id"],
                                        "date": "2025-02-01", "amount": "500.00",
                                        "method": None}]
    assert "accounting_id" in body and "items" in body


@pytest.mark.parametrize(("payments", "status", "unpaid"), [
    ([], 1, "1270.00"),
    ([{"amount": "1270.00"}], 2, "0.00"),
    ([{"amount": "270.00"}, {"amount": "500.00"}], 3, "500.00"),
])
def test_paid_status_follows_payments(api, payments, status, unpaid):
    income = make_income(api, type=2, payments=payments)
    assert income["paid_status"] == status and income["unpaid_amount"] == unpaid


def test_overdue_when_unpaid_after_due_date(api):
    late = make_income(api, type=2, due_at="2020-01-01")
    paid = make_income(api, type=2, due_at="2020-01-01", payments=[{"amount": "1270"}])
    assert late["is_overdue"] is True and paid["is_overdue"] is False


@pytest.mark.parametrize("kind", [1, 2, 6, 7])
def test_all_four_income_types_are_served(api, kind):
    income = make_income(api, type=kind)
    assert detail(api, income["id"])["type"] == kind


def test_synced_processed_and_booked_states_are_visible(api):
    income = make_income(api, type=1, source="billingo")
    assert income["source"] == "billingo" and income["accounting_status"] == "not_processed"
    assert set_state(api, income["id"], is_booked=True)["accounting_status"] == "booked"


def test_needs_review_state_can_be_set_through_controls(api):
    income = make_income(api, type=2)
    body = set_state(api, income["id"], needs_review=True, review_done=False)
    assert body["needs_review"] is True and body["review_done"] is False


def test_detail_of_unknown_or_foreign_income_is_404(api, make_company, sandbox_url):
    from conftest import Api

    other = make_income(Api(sandbox_url, make_company()), type=2)
    assert api.get(f"/1/incomes/{other['id']}/").status_code == 404
    assert api.get("/1/incomes/99999999/").json() == {"detail": "Not found."}


def test_detail_path_works_without_trailing_slash(api, cat):
    income = create(api, cat)
    assert api.get(f"/1/incomes/{income['id']}").status_code == 200


def test_viewer_may_read_income_detail(api, cat):
    income = create(api, cat)
    assert api.get(f"/1/incomes/{income['id']}/", token="viewer").status_code == 200


def test_fixture_maker_rejects_unknown_type_and_company(api):
    import requests

    bad_type = requests.post(f"{api.base}/_sandbox/incomes/",
                             json={"company_id": api.company.id, "type": 3}, timeout=10)
    no_company = requests.post(f"{api.base}/_sandbox/incomes/", json={"company_id": 0},
                               timeout=10)
    assert bad_type.status_code == 400 and "type" in bad_type.json()
    assert no_company.status_code == 400 and "company_id" in no_company.json()
