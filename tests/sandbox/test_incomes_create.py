"""Spec 4.2 create rules 1-3, 2.2 creation fields, 7 and 8 rows about income creation."""
import base64
import itertools
import json
import math
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from incomes_support import assignment, create, detail, income_body, listing, read_catalogue

from tests.support.strategies import JSON_VALUES


@pytest.fixture
def cat(sandbox_db_path, company):
    """The test company's catalogue ids."""
    return read_catalogue(sandbox_db_path, company.id)


PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def _count(db_path, table: str) -> int:
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # noqa: S608
    finally:
        con.close()


def test_create_makes_accounting_document_type_2_with_all_parts(api, cat):
    body = income_body(cat, items=[{"name": "Tanácsadás", "quantity": 2, "unit_price": "500",
                                    "vat_percent": 27}],
                       invoice_image={"filename": "szamla.pdf",
                                      "content": base64.b64encode(PDF).decode()})
    resp = api.post("/2/incomes/create/", json=body)
    assert resp.status_code == 201, resp.text
    income = resp.json()
    assert income["type"] == 2 and income["invoice_type"] == 0
    assert len(income["assignments"]) == 1 and len(income["items"]) == 1
    assert income["items"][0]["net_amount"] == "1000.00"
    assert income["has_artifact"] is True
    assert detail(api, income["id"])["invoice_number"] == "BIZ-2025-001"


def test_create_accepts_invoice_image_as_multipart_file(api, cat):
    files = {"invoice_image": ("szamla.pdf", PDF, "application/pdf")}
    resp = api.post("/2/incomes/create/", data={"data": json.dumps(income_body(cat))},
                    files=files)
    assert resp.status_code == 201, resp.text
    assert resp.json()["has_artifact"] is True


def test_create_rejects_invoice_image_that_is_not_pdf_jpeg_png_or_xml(api, cat):
    fake = base64.b64encode(b"MZ\x90\x00 not a pdf").decode()
    resp = api.post("/2/incomes/create/", json=income_body(
        cat, invoice_image={"filename": "szamla.pdf", "content": fake}))
    assert resp.status_code == 400
    assert "invoice_image" in resp.json()
    assert listing(api)["count"] == 0


@pytest.mark.parametrize("content, accepted", [
    (b"<Invoice><Number>1</Number></Invoice>", True),  # XML without a declaration
    (b"\xef\xbb\xbf<?xml version='1.0'?><Invoice/>", True),
    (b"<!DOCTYPE html><html><body>1</body></html>", False),
])
def test_invoice_image_is_sniffed_as_uploaded_expense_files_are(api, cat, content, accepted):
    image = {"filename": "szamla.xml", "content": base64.b64encode(content).decode()}
    resp = api.post("/2/incomes/create/", json=income_body(cat, invoice_image=image))
    assert (resp.status_code, "invoice_image" in resp.json()) == (
        (201, False) if accepted else (400, True)), resp.text


def test_create_rejects_other_income_types(api, cat):
    resp = api.post("/2/incomes/create/", json=income_body(cat, income_type=1))
    assert resp.status_code == 400
    assert "income_type" in resp.json()


def test_create_requires_at_least_one_assignment(api, cat):
    missing = income_body(cat)
    del missing["assignments"]
    assert api.post("/2/incomes/create/", json=missing).json()["assignments"]
    resp = api.post("/2/incomes/create/", json=income_body(cat, assignments=[]))
    assert resp.status_code == 400
    assert resp.json()["assignments"] == ["This list may not be empty."]


def test_create_fails_on_third_assignment_and_stores_nothing(api, cat, sandbox_db_path):
    before = {t: _count(sandbox_db_path, t) for t in ("income", "income_assignment",
                                                      "income_item")}
    rows = [assignment(cat, "300.00", "381.00"), assignment(cat, "300.00", "381.00"),
            assignment(cat, "400.00", "508.00", revenue_type=999999)]
    resp = api.post("/2/incomes/create/", json=income_body(
        cat, assignments=rows, items=[{"name": "Sor", "unit_price": "1000"}]))
    assert resp.status_code == 400
    assert resp.json()["assignments"] == [
        {}, {}, {"revenue_type": ['Invalid pk "999999" - object does not exist.']}]
    after = {t: _count(sandbox_db_path, t) for t in before}
    assert after == before
    assert listing(api, invoice_number="BIZ-2025-001")["count"] == 0
    create(api, cat)  # the number was never taken


def test_create_with_invalid_item_stores_nothing(api, cat):
    resp = api.post("/2/incomes/create/", json=income_body(cat, items=[{"name": "Jó"},
                                                                       {"quantity": 1}]))
    assert resp.status_code == 400
    assert resp.json()["items"] == [{}, {"name": ["This field is required."]}]
    assert listing(api)["count"] == 0


def test_create_requires_invoice_number_issued_at_and_amounts(api, cat):
    resp = api.post("/2/incomes/create/", json={"assignments": [assignment(cat)]})
    assert resp.status_code == 400
    assert {"invoice_number", "issued_at", "net_amount", "gross_amount"} <= set(resp.json())


def test_create_exchange_rate_defaults_to_1_in_default_currency(api, cat):
    income = create(api, cat)
    assert income["exchange_rate"] == "1.000000"
    assert income["exchange_date"] is None
    assert income["currency"]["code"] == "HUF"


def test_create_in_foreign_currency_without_exchange_rate_returns_400(api, cat):
    resp = api.post("/2/incomes/create/", json=income_body(cat, currency=cat.currencies["EUR"]))
    assert resp.status_code == 400
    assert "exchange_rate" in resp.json()
    assert listing(api)["count"] == 0


def test_create_in_foreign_currency_with_default_rate_1_returns_400(api, cat):
    resp = api.post("/2/incomes/create/", json=income_body(
        cat, currency=cat.currencies["EUR"], exchange_rate=1))
    assert resp.status_code == 400
    assert "exchange_rate" in resp.json()


def test_create_in_foreign_currency_with_actual_rate_succeeds_without_exchange_date(api, cat):
    income = create(api, cat, currency=cat.currencies["EUR"], exchange_rate="395.12")
    assert income["currency"]["code"] == "EUR"
    assert income["exchange_rate"] == "395.120000"
    assert income["exchange_date"] is None


def test_create_stores_exchange_date_when_given(api, cat):
    income = create(api, cat, currency=cat.currencies["USD"], exchange_rate="362.5",
                    exchange_date="2025-03-04")
    assert income["exchange_date"] == "2025-03-04"


def test_create_duplicate_invoice_number_returns_existing_income_id(api, cat):
    first = create(api, cat, "SZ-2025/17")
    resp = api.post("/2/incomes/create/", json=income_body(cat, "SZ-2025/17"))
    assert resp.status_code == 400
    body = resp.json()
    assert body["existing_income_id"] == first["id"]
    assert "invoice_number" in body
    assert listing(api)["count"] == 1


def test_invoice_number_is_unique_per_company_only(api, cat, make_company, sandbox_url,
                                                   sandbox_db_path):
    from conftest import Api
    from incomes_support import read_catalogue

    create(api, cat, "KOZOS-1")
    other = make_company()
    other_api = Api(sandbox_url, other)
    create(other_api, read_catalogue(sandbox_db_path, other.id), "KOZOS-1")


def test_create_copies_partner_data_from_partner_id(api, cat):
    partner = api.post("/2/partners/create/", json={
        "name": "Béta Bt.", "tax_number": "12345678-1-13", "city": "Szeged", "zip_code": "6720",
        "address": "Kárász u. 5.", "country": "HU", "is_customer": True}).json()
    body = income_body(cat, partner_id=partner["id"])
    del body["partner_name"]
    income = api.post("/2/incomes/create/", json=body).json()
    assert income["partner"] == {"id": partner["id"], "name": "Béta Bt."}
    assert income["partner_tax_number"] == "12345678113"
    assert income["partner_city"] == "Szeged"


def test_create_rejects_unknown_partner_currency_and_tags(api, cat):
    resp = api.post("/2/incomes/create/", json=income_body(
        cat, partner_id=999999, currency=999999, tags=[999999]))
    assert resp.status_code == 400
    assert set(resp.json()) >= {"partner_id", "currency", "tags"}


def test_create_is_refused_for_viewer(api, cat):
    resp = api.post("/2/incomes/create/", token="viewer", json=income_body(cat))
    assert resp.status_code == 403


def test_create_path_works_without_trailing_slash(api, cat):
    resp = api.post("/2/incomes/create", json=income_body(cat))
    assert resp.status_code == 201


def test_create_with_is_cancelled_true_gets_one_zero_payment(api, cat):
    income = create(api, cat, is_cancelled=True)
    history = detail(api, income["id"], fields="payment_history")["payment_history"]
    assert income["is_cancelled"] is True
    assert [p["amount"] for p in history] == ["0.00"]


def test_create_accepts_income_type_2_sent_explicitly(api, cat):
    assert create(api, cat, income_type="2")["type"] == 2


NUMBERS = itertools.count(1)


@pytest.mark.parametrize(("percent", "message"), [
    ("nan", "A valid number is required."), ("inf", "A valid number is required."),
    ("1e400", "A valid number is required."), (-5, "between 0 and 100"),
    (1e308, "between 0 and 100"),
])
def test_a_line_vat_percent_that_is_no_percentage_is_refused(api, cat, percent, message):
    body = income_body(cat, f"PCT-{next(NUMBERS)}",
                       items=[{"name": "Sor", "unit_price": "1000", "vat_percent": percent}])
    resp = api.post("/2/incomes/create/", json=body)
    assert resp.status_code == 400, resp.text
    assert message in resp.json()["items"][0]["vat_percent"][0]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(percent=st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers(),
                         st.text(max_size=8), st.sampled_from(["nan", "-inf", "1e999", "27"])))
def test_any_line_vat_percent_is_kept_or_refused_never_a_server_error(api, cat, percent):
    body = income_body(cat, f"PCT-{next(NUMBERS)}",
                       items=[{"name": "Sor", "unit_price": "1000", "vat_percent": percent}])
    resp = api.post("/2/incomes/create/", json=body)
    assert resp.status_code in (201, 400), resp.text
    if resp.status_code == 201:
        kept = resp.json()["items"][0]["vat_percent"]
        assert math.isfinite(kept) and 0 <= kept <= 100 and kept == float(percent)


FIELDS = ("invoice_number", "issued_at", "fulfilled_at", "due_at", "net_amount", "vat_amount",
          "gross_amount", "partner", "partner_name", "partner_tax_number", "currency",
          "exchange_rate", "exchange_date", "payment_method", "vat_area", "tags", "simple_tags",
          "accounting_period_start", "ledger_number_id", "needs_review", "items", "assignments")


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(FIELDS), value=JSON_VALUES)
def test_any_value_in_any_create_field_is_taken_or_refused_never_a_server_error(api, cat, field,
                                                                               value):
    body = {**income_body(cat, f"ANY-{next(NUMBERS)}"), field: value}
    resp = api.post("/2/incomes/create/", json=body)
    assert resp.status_code in (201, 400), (field, value, resp.text)
