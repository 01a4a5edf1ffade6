"""Fidelity of the live document operations: key sets and types (data/live-api-shapes.json) and
every documented filter excluding what it should, on two documents that differ in each."""
from __future__ import annotations

import base64

import pytest
import requests

from tests.sandbox import expense_support
from tests.sandbox.expense_support import PDF, make_expense
from tests.sandbox.live_shapes import (
    bare_list_problems,
    live_operation,
    live_response,
    shape_problems,
)

ecat = expense_support.ecat  # a fixture, found by name
FILTER_PATHS = ("/1/documents/", "/1/documents/files/")


def add(api, **spec) -> int:
    """A document through /_sandbox/documents/; its id."""
    resp = requests.post(f"{api.base}/_sandbox/documents/", timeout=10,
                         json={"company_id": api.company.id, **spec})
    assert resp.status_code == 201, resp.text
    return resp.json()["id"]


@pytest.fixture
def pair(api, ecat):
    """A: filed e-mail bill, edited (title, type 1, a tag, payable, sender); B: uploaded
    contract attached to an expense, AI recognition off, untouched. {"A": id, "B": id, ...}"""
    a = add(api, filename="a_szamla.pdf", created_at="2026-01-10T08:00:00Z", origin="email",
            is_filed=True)
    b = add(api, filename="b_szerzodes.pdf", created_at="2026-02-20T08:00:00Z", origin="upload",
            is_ai_recognition_allowed=False,
            attached_to={"type": "expense", "id": make_expense(api, ecat)["id"]})
    resp = api.post(f"/2/documents/update/{a}/", json={
        "title": "Áramszámla", "document_type_id": 1, "simple_tag_ids": [ecat.tags[0]],
        "contains_payable": True, "sender": "E.ON Hungária", "keywords": ["áram"]})
    assert resp.status_code == 200, resp.text
    return {"A": a, "B": b, "tag": ecat.tags[0]}


def names(pair, rows) -> list[str]:
    """Which of A and B the rows are, in order."""
    by_id = {pair["A"]: "A", pair["B"]: "B"}
    return [by_id[r["id"]] for r in rows if r["id"] in by_id]


def test_detail_and_update_carry_the_live_keys(api, pair):
    body = api.get(f"/2/documents/{pair['A']}/").json()
    assert shape_problems(body, live_response("GET", "/2/documents/{document_id}")) == []
    updated = api.post(f"/2/documents/update/{pair['A']}/", json={"summary": "x"}).json()
    assert shape_problems(updated, live_response("POST", "/2/documents/update/{document_id}")) \
        == []
    assert updated["title"] == "Áramszámla" and updated["keywords"] == ["áram"]


@pytest.mark.parametrize("path", ["/1/documents", "/1/documents/files"])
def test_v1_lists_carry_the_live_keys(api, pair, path):
    assert bare_list_problems(api.get(path + "/").json(), "GET", path) == []


def test_v1_list_names_the_document_type(api, pair):
    rows = {r["id"]: r for r in api.get("/1/documents/").json()}
    assert rows[pair["A"]]["document_type_name"] == "Számla"
    assert rows[pair["A"]]["simple_tag_ids"] == [pair["tag"]]


def test_document_types_records_carry_id_and_name(api):
    rows = api.get("/2/document-types/").json()
    # The live description gives one record's keys; the sandbox serves the catalogue as a list.
    wanted = live_response("GET", "/2/document-types")
    assert rows and all(shape_problems(r, wanted) == [] for r in rows)


@pytest.mark.parametrize(("params", "expected"), [
    ({"ids": "A"}, ["A"]),
    ({"contains_payable": "true"}, ["A"]), ({"contains_payable": "false"}, ["B"]),
    ({"is_new": "true"}, ["B"]), ({"is_updated": "true"}, ["A"]),
    ({"is_filed": "true"}, ["A"]), ({"is_ai_recognition_allowed": "false"}, ["B"]),
    ({"is_attached": "true"}, ["B"]), ({"is_attached": "false"}, ["A"]),
    ({"with_document_type_ids": "1"}, ["A"]), ({"without_document_type_ids": "1"}, ["B"]),
    ({"with_tag_ids": "tag"}, ["A"]), ({"without_tag_ids": "tag"}, ["B"]),
    ({"origin": "upload"}, ["B"]), ({"origin": "email,upload"}, ["B", "A"]),
    ({"origin": ["email", "upload"]}, ["B", "A"]),
    ({"from_date": "2026-02-01"}, ["B"]), ({"to_date": "2026-01-31"}, ["A"]),
    ({"search": "e.on"}, ["A"]), ({"search": "SZERZODES"}, ["B"]),
    ({"search": "e.on", "search_fields": "title"}, []),
    ({"ordering": "created_at"}, ["A", "B"]), ({"ordering": "-created_at"}, ["B", "A"]),
    ({"unknown_param": "1"}, ["B", "A"]),
])
@pytest.mark.parametrize("path", FILTER_PATHS)
def test_every_filter_excludes_what_it_should(api, pair, path, params, expected):
    params = {k: (str(pair[v]) if v in ("A", "tag") else v) for k, v in params.items()}
    assert names(pair, api.get(path, params=params).json()) == expected


def test_updated_since_today_by_date_field(api, pair):
    rows = api.get("/1/documents/", params={"date_field": "updated_at",
                                            "from_date": "2026-01-01"}).json()
    assert names(pair, rows) == ["A"]


@pytest.mark.parametrize("params", [{"is_new": "maybe"}, {"ids": "x"}, {"from_date": "2026-2-1"},
                                    {"ordering": "size"}, {"date_field": "due_at"},
                                    {"search_fields": "content"}])
def test_malformed_filter_is_a_400(api, params):
    assert api.get("/1/documents/", params=params).status_code == 400


def test_create_stores_each_good_file_and_reports_each_bad_one(api):
    good = base64.b64encode(PDF).decode()
    resp = api.post("/2/documents/create/", json={"source": "api", "documents": [
        {"content": good, "filename": "x.pdf", "title": "Szerződés", "document_type_id": 2,
         "keywords": ["a", "b"], "sender": "S", "recipient": "R", "contains_payable": True},
        {"content": base64.b64encode(b"plain text").decode(), "filename": "y.pdf"},
        {"content": good, "filename": "z.pdf", "document_type_id": 999}]})
    assert resp.status_code == live_operation("POST", "/2/documents/create")["response_status"]
    processed = resp.json()["processed"]
    assert [p["success"] for p in processed] == [True, False, False]
    assert "reason" in processed[1] and "document_type_id" in processed[2]["reason"]
    stored = api.get(f"/2/documents/{processed[0]['id']}/").json()
    assert stored["title"] == "Szerződés" and stored["keywords"] == ["a", "b"]
    assert stored["recipient"] == "R" and stored["contains_payable"] is True


def test_create_answer_records_carry_the_live_processed_keys(api):
    resp = api.post("/2/documents/create/", json={"documents": [
        {"content": base64.b64encode(PDF).decode(), "filename": "x.pdf"}, {"content": "?"}]})
    # upstream-notes give the answer as one object {"processed": [...]}; the description wraps
    # it in a list. The record keys are the same.
    documented = {k.removeprefix("[]."): v for k, v
                  in live_operation("POST", "/2/documents/create")["response"].items()
                  if k.startswith("[].processed")}
    assert shape_problems(resp.json(), documented) == []


@pytest.mark.parametrize(("body", "field"), [
    ({"title": 5}, "title"), ({"keywords": "a"}, "keywords"), ({"document_type_id": 999},
                                                               "document_type_id"),
    ({"simple_tag_ids": [10**9]}, "simple_tag_ids"), ({"contains_payable": "yes"},
                                                      "contains_payable")])
def test_update_refuses_bad_values_naming_the_field(api, pair, body, field):
    resp = api.post(f"/2/documents/update/{pair['B']}/", json=body)
    assert resp.status_code == 400 and field in resp.json()
    assert api.get(f"/2/documents/{pair['B']}/").json()["title"] == ""


def test_attach_and_detach_by_filter(api, pair, ecat):
    target = make_expense(api, ecat)["id"]
    body = {"ids": [pair["A"]], "target_type": "expense", "target_id": target}
    assert api.post("/1/documents/attach/", json=body).status_code == 200
    attached = api.get("/2/documents/", params={"is_attached": "true"}).json()["results"]
    assert {"type": "expense", "id": target} in [d["attached_to"] for d in attached]
    assert api.post("/1/documents/detach/", json={"ids": [pair["A"]]}).status_code == 200
    assert names(pair, api.get("/1/documents/", params={"is_attached": "false"}).json()) == ["A"]


def test_attach_refuses_a_target_of_another_company(api, pair, make_company):
    from tests.conftest import Api

    other = make_expense(Api(api.base, make_company()))["id"]
    resp = api.post("/1/documents/attach/", json={"ids": [pair["A"]], "target_type": "expense",
                                                  "target_id": other})
    assert resp.status_code == 400 and "target_id" in resp.json()


def test_delete_by_filter_answers_204_and_spares_the_rest(api, pair):
    resp = api.post("/2/documents/delete/", json={"origin": ["upload"]})
    assert resp.status_code == live_operation("POST", "/2/documents/delete")["response_status"]
    assert api.get(f"/2/documents/{pair['B']}/").status_code == 404
    assert api.get(f"/2/documents/{pair['A']}/").status_code == 200


@pytest.mark.parametrize("path", ["/2/documents/delete/", "/1/documents/detach/"])
def test_body_without_any_filter_is_refused(api, pair, path):
    assert api.post(path, json={"ordering": "id"}).status_code == 400
    assert len(api.get("/1/documents/").json()) == 2


def test_search_finds_the_same_file_by_name_and_size(api):
    doc = api.post("/2/documents/create/", json={"documents": [
        {"content": base64.b64encode(PDF).decode(), "filename": "same.pdf"}]}).json()
    found = api.post("/2/documents/search/", json={"name": "same.pdf", "size": len(PDF)}).json()
    assert [f["id"] for f in found] == [doc["processed"][0]["id"]]
    assert api.post("/2/documents/search/", json={"name": "same.pdf", "size": 1}).json() == []


def test_documents_of_another_company_are_invisible(api, pair, make_company):
    from tests.conftest import Api

    other = Api(api.base, make_company())
    assert other.get(f"/2/documents/{pair['A']}/").status_code == 404
    assert other.get("/1/documents/").json() == []


def test_viewer_reads_but_may_not_write(api, pair):
    assert api.get("/1/documents/", token="viewer").status_code == 200
    resp = api.post(f"/2/documents/update/{pair['A']}/", json={"title": "x"}, token="viewer")
    assert resp.status_code == 403
