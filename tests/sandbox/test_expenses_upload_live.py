"""The live expense upload: JSON {"expenses": [{content, filename}], "source"} beside multipart,
artifact records keyed expense_id, and artifact-search by file name and size."""
from __future__ import annotations

import base64

import pytest

from tests.sandbox.expense_support import JPEG, PDF, PNG, XML, detail
from tests.sandbox.live_shapes import live_operation


def upload(api, *files: tuple[bytes, str], source: str | None = "api", token: str = "admin"):
    """POST the files as live JSON."""
    body = {"expenses": [{"content": base64.b64encode(data).decode(), "filename": name}
                         for data, name in files]}
    if source is not None:
        body["source"] = source
    return api.post("/2/expenses/create/", json=body, token=token)


def test_json_upload_answers_201_processed_ids_read_back_with_their_files(api):
    resp = upload(api, (PDF, "szamla.pdf"), (PNG, "blokk.png"))
    assert resp.status_code == live_operation("POST", "/2/expenses/create")["response_status"]
    ids = resp.json()["processed"]
    assert len(ids) == 2 and all(isinstance(i, int) for i in ids)
    first = detail(api, ids[0])
    assert first["has_artifact"] and first["artifact_filename"] == "szamla.pdf"
    assert detail(api, ids[1])["artifact_extension"] == "png"


def test_json_upload_source_is_kept(api):
    expense_id = upload(api, (XML, "e-szamla.xml"), source="mailbox").json()["processed"][0]
    assert detail(api, expense_id)["source"] == "mailbox"


def test_multipart_upload_still_works(api):
    resp = api.post("/2/expenses/create/", files={"file": ("nyugta.jpg", JPEG, "image/jpeg")},
                    data={"invoice_number": "MP-1"})
    assert resp.status_code == 201 and resp.json()["invoice_number"] == "MP-1"


def test_a_fake_file_refuses_the_whole_upload_naming_it(api):
    resp = upload(api, (PDF, "ok.pdf"), (b"MZ\x90\x00 not a pdf", "virus.pdf"))
    assert resp.status_code == 400
    assert resp.json()["expenses"][0] == {} and resp.json()["expenses"][1]["content"]
    assert artifact_search(api, "ok.pdf", len(PDF)).json() == []


@pytest.mark.parametrize("body", [{}, {"expenses": []}, {"expenses": [{"filename": "x"}]},
                                  {"expenses": [{"content": "!!", "filename": "x.pdf"}]}])
def test_malformed_json_upload_is_a_400(api, body):
    assert api.post("/2/expenses/create/", json=body).status_code == 400


def test_viewer_may_not_upload(api):
    assert upload(api, (PDF, "a.pdf"), token="viewer").status_code == 403


def artifact_search(api, name, size, **extra):
    """POST /2/expenses/artifact-search/."""
    return api.post("/2/expenses/artifact-search/", json={"name": name, "size": size, **extra})


def test_artifact_search_finds_the_same_file_by_name_and_size(api):
    expense_id = upload(api, (PDF, "keresett.pdf")).json()["processed"][0]
    upload(api, (PNG, "keresett.pdf.png"))
    found = artifact_search(api, "keresett.pdf", len(PDF)).json()
    assert [f["expense_id"] for f in found] == [expense_id]
    assert artifact_search(api, "keresett.pdf", len(PDF) + 1).json() == []


def test_artifact_search_refuses_another_company_and_bad_bodies(api):
    assert artifact_search(api, "a.pdf", 1, company_ids=[api.company.id + 999]).status_code == 403
    assert artifact_search(api, "", 1).status_code == 400
    assert artifact_search(api, "a.pdf", "big").status_code == 400


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_artifact_records_are_keyed_expense_id(api, method):
    expense_id = upload(api, (PDF, "a.pdf")).json()["processed"][0]
    if method == "POST":
        resp = api.post("/1/artifacts/expense/", json={"ids": [expense_id]})
    else:
        resp = api.get("/1/artifacts/expense/", params={"ids": expense_id})
    record = resp.json()[0]
    assert record["expense_id"] == expense_id and record["filename"] == "a.pdf"
