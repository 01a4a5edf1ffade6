"""Spec 3 (storno and cancellation rows), 4.2 create rule 4, 8 (referred_invoice_number)."""
import pytest
from incomes_support import create, detail, income_body, make_income, read_catalogue


@pytest.fixture
def cat(sandbox_db_path, company):
    """The test company's catalogue ids."""
    return read_catalogue(sandbox_db_path, company.id)


def _storno(api, cat, referred: str, number: str = "STORNO-1", **extra) -> dict:
    return create(api, cat, number, invoice_type=1, referred_invoice_number=referred,
                  net_amount="-1000.00", vat_amount="-270.00", gross_amount="-1270.00",
                  assignments=[{"revenue_type": cat.revenue_types[0], "net_amount": "-1000.00",
                                "gross_amount": "-1270.00"}], **extra)


def _history(api, income_id: int) -> list[str]:
    return [p["amount"] for p in
            detail(api, income_id, fields="payment_history")["payment_history"]]


def test_storno_cancels_matching_accounting_document(api, cat):
    original = create(api, cat, "BIZ-7")
    storno = _storno(api, cat, "BIZ-7")
    assert storno["invoice_type"] == 1 and storno["referred_invoice_number"] == "BIZ-7"
    after = detail(api, original["id"])
    assert after["is_cancelled"] is True
    assert after["version"] == original["version"] + 1


def test_storno_replaces_payments_with_one_zero_amount_payment(api, cat):
    original = make_income(api, type=2, invoice_number="BIZ-8", payments=[
        {"paid_at": "2025-03-06", "amount": "600.00"}, {"paid_at": "2025-03-08",
                                                        "amount": "200.00"}])
    assert original["paid_status"] == 3
    _storno(api, cat, "BIZ-8")
    assert _history(api, original["id"]) == ["0.00"]


def test_storno_cancels_processed_and_booked_accounting_documents_too(api, cat):
    original = make_income(api, type=2, invoice_number="BIZ-9", is_processed=True,
                           is_booked=True)
    _storno(api, cat, "BIZ-9")
    assert detail(api, original["id"])["is_cancelled"] is True


def test_storno_never_matches_invoice_synced_from_invoicing_software(api, cat):
    invoice = make_income(api, type=1, source="szamlazz.hu", invoice_number="E-55",
                          payments=[{"paid_at": "2025-03-06", "amount": "1270.00"}])
    _storno(api, cat, "E-55")
    after = detail(api, invoice["id"])
    assert after["is_cancelled"] is False
    assert _history(api, invoice["id"]) == ["1270.00"]


def test_storno_never_matches_invoice_synced_from_tax_authority(api, cat):
    invoice = make_income(api, type=1, source="NAV", invoice_number="NAV-55")
    _storno(api, cat, "NAV-55")
    assert detail(api, invoice["id"])["is_cancelled"] is False


def test_storno_never_matches_receipts(api, cat):
    receipt = make_income(api, type=6, invoice_number="NY-1")
    _storno(api, cat, "NY-1")
    assert detail(api, receipt["id"])["is_cancelled"] is False


def test_storno_before_original_cancels_nothing(api, cat):
    other = create(api, cat, "BIZ-OTHER")
    storno = _storno(api, cat, "BIZ-LATER")
    assert storno["is_cancelled"] is False
    assert detail(api, other["id"])["is_cancelled"] is False


def test_original_created_after_storno_is_not_cancelled_retroactively(api, cat):
    _storno(api, cat, "BIZ-LATE")
    original = create(api, cat, "BIZ-LATE")
    assert original["is_cancelled"] is False
    assert detail(api, original["id"])["is_cancelled"] is False


def test_late_original_can_be_sent_cancelled_or_cancelled_later(api, cat):
    _storno(api, cat, "BIZ-A")
    _storno(api, cat, "BIZ-B", number="STORNO-2")
    sent = create(api, cat, "BIZ-A", is_cancelled=True)
    later = create(api, cat, "BIZ-B")
    resp = api.patch(f"/2/incomes/{later['id']}/update/", json={"is_cancelled": True})
    assert sent["is_cancelled"] is True
    assert resp.status_code == 200 and resp.json()["is_cancelled"] is True
    assert _history(api, later["id"]) == ["0.00"]


def test_storno_requires_referred_invoice_number(api, cat):
    resp = api.post("/2/incomes/create/", json=income_body(cat, "ST-1", invoice_type=1))
    assert resp.status_code == 400
    assert "referred_invoice_number" in resp.json()


def test_referred_invoice_number_accepts_64_characters(api, cat):
    number = "R" * 64
    create(api, cat, number)
    storno = _storno(api, cat, number)
    assert storno["referred_invoice_number"] == number


def test_referred_invoice_number_over_64_characters_is_rejected(api, cat):
    resp = api.post("/2/incomes/create/", json=income_body(
        cat, "ST-2", invoice_type=1, referred_invoice_number="R" * 65))
    assert resp.status_code == 400
    message = " ".join(resp.json()["referred_invoice_number"])
    assert "64" in message and "storno" not in message  # the length, not "needs a number"


def test_storno_number_must_itself_be_unique(api, cat):
    create(api, cat, "BIZ-U")
    first = _storno(api, cat, "BIZ-U")
    resp = api.post("/2/incomes/create/", json=income_body(
        cat, "STORNO-1", invoice_type=1, referred_invoice_number="BIZ-U"))
    assert resp.json()["existing_income_id"] == first["id"]


def test_update_is_cancelled_on_unprocessed_document_adds_zero_payment(api, cat):
    income = make_income(api, type=2, payments=[{"paid_at": "2025-03-06", "amount": "1270.00"}])
    resp = api.patch(f"/2/incomes/{income['id']}/update/", json={"is_cancelled": True})
    assert resp.status_code == 200
    assert resp.json()["is_cancelled"] is True and resp.json()["paid_status"] == 2
    assert _history(api, income["id"]) == ["0.00"]


def test_update_is_cancelled_false_recalculates_payments(api, cat):
    income = create(api, cat, is_cancelled=True)
    resp = api.patch(f"/2/incomes/{income['id']}/update/", json={"is_cancelled": False})
    assert resp.json()["is_cancelled"] is False
    assert resp.json()["paid_status"] == 1
    assert _history(api, income["id"]) == []


def test_update_is_cancelled_rejected_on_processed_document(api):
    income = make_income(api, type=2, is_processed=True)
    resp = api.patch(f"/2/incomes/{income['id']}/update/", json={"is_cancelled": True})
    assert resp.status_code == 400
    assert resp.json()["not_editable_fields"] == ["is_cancelled"]
    assert "is_cancelled" not in income["editable_fields"]


def test_update_is_cancelled_rejected_on_invoices_and_receipts(api):
    for kind in (1, 6, 7):
        income = make_income(api, type=kind)
        resp = api.patch(f"/2/incomes/{income['id']}/update/", json={"is_cancelled": True})
        assert resp.status_code == 400, kind
        assert "is_cancelled" in resp.json()
