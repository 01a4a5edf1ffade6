"""POST /2/expenses/create/ (spec 4.3 create rule, spec 7 upload row)."""
import json

import expense_support
import pytest
from expense_support import JPEG, PDF, PNG, XML, listed_ids

ecat = expense_support.ecat  # a fixture, found by name


def _create(api, content: bytes, filename: str = "szamla.pdf", token: str = "admin", **fields):
    data = {k: v if isinstance(v, str) else json.dumps(v) for k, v in fields.items()}
    return api.post("/2/expenses/create/", files={"file": (filename, content)}, data=data,
                    token=token)


@pytest.mark.parametrize(("content", "kind"), [(PDF, "pdf"), (PNG, "png"), (JPEG, "jpg"),
                                               (XML, "xml")])
def test_create_accepts_real_pdf_jpeg_png_and_xml(api, content, kind):
    resp = _create(api, content, f"upload.{kind}")
    assert resp.status_code == 201, resp.text
    body = resp.json()
    assert body["has_artifact"] is True and body["artifact_extension"] == kind
    assert listed_ids(api) == [body["id"]]


def test_create_rejects_fake_pdf_content(api):
    resp = _create(api, b"MZ\x90\x00 this is an executable, not a pdf", "szamla.pdf")
    assert resp.status_code == 400
    assert "file" in resp.json()
    assert listed_ids(api) == []


@pytest.mark.parametrize("content", [b"just some text", b"<html><body>hi</body></html>",
                                     b"GIF89a\x01\x00", b"PK\x03\x04 zip"])
def test_create_rejects_other_content_whatever_the_name(api, content):
    assert _create(api, content, "scan.png").status_code == 400


def test_create_judges_content_not_extension(api):
    resp = _create(api, PNG, "looks-like.pdf")
    assert resp.status_code == 201
    assert resp.json()["artifact_extension"] == "png"
    assert resp.json()["artifact_filename"] == "looks-like.pdf"


def test_create_xml_with_bom_and_no_declaration_is_accepted(api):
    assert _create(api, b"\xef\xbb\xbf\n  <Szamla><Osszeg>1</Osszeg></Szamla>",
                   "nav.xml").status_code == 201


def test_create_without_file_is_400_on_the_file_field(api):
    resp = api.post("/2/expenses/create/", data={"note": "no file"})
    assert resp.status_code == 400
    assert resp.json()["file"] == ["No file was submitted."]


def test_create_with_empty_file_is_400(api):
    resp = _create(api, b"", "empty.pdf")
    assert resp.status_code == 400 and "file" in resp.json()


def test_create_takes_optional_fields_and_assignments(api, ecat):
    item = {"expense_type": ecat.expense_types[0], "net_amount": "100", "vat_amount": "27",
            "gross_amount": "127", "vat": ecat.vats[0], "tags": [ecat.tags[0]]}
    resp = _create(api, PDF, invoice_number="INV-77", issued_at="2025-04-01",
                   note="beszkennelt", tags=f"{ecat.tags[0]},{ecat.tags[1]}",
                   custom_fields={"Projekt": "Webshop"}, assignments=[item])
    assert resp.status_code == 201, resp.text
    body = resp.json()
    assert body["invoice_number"] == "INV-77" and body["issued_at"] == "2025-04-01"
    assert body["tags"] == [ecat.tags[0], ecat.tags[1]]
    assert body["custom_fields"] == {"Projekt": "Webshop"}
    assert body["assignments"][0]["gross_amount"] == "127.00"
    assert body["source"] == "manual" and body["filing_number"]


def test_create_accepts_fields_in_one_json_data_part(api, ecat):
    resp = _create(api, PDF, data={"invoice_number": "D-1", "simple_tags": [ecat.tags[0]]})
    assert resp.status_code == 201, resp.text
    assert resp.json()["invoice_number"] == "D-1"
    assert resp.json()["simple_tags"] == [ecat.tags[0]]


def test_create_with_invalid_field_stores_nothing(api, ecat):
    resp = _create(api, PDF, issued_at="tomorrow", assignments=[{"job_number": "x"}])
    assert resp.status_code == 400
    body = resp.json()
    assert "issued_at" in body and "expense_type" in body["assignments"][0]
    assert listed_ids(api) == []


def test_create_with_empty_assignments_is_400(api):
    assert _create(api, PDF, assignments=[]).status_code == 400


def test_created_expense_is_in_default_currency_and_unprocessed(api):
    body = _create(api, PDF).json()
    assert body["currency"]["code"] == "HUF" and body["exchange_rate"] == "1.000000"
    assert body["accounting_status"] == "unprocessed"
    assert "invoice_number" in body["editable_fields"]


def test_viewer_cannot_create(api):
    assert _create(api, PDF, token="viewer").status_code == 403
