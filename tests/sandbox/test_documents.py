"""Spec 2.11 and 4.9: documents, attached and unattached, with token-free download links."""
import base64

import requests

from sandbox.core.demo_files import minimal_pdf


def _add(sandbox_url, api, filename="szamla.pdf", **spec):
    resp = requests.post(f"{sandbox_url}/_sandbox/documents/", timeout=10,
                         json={"company_id": api.company.id, "filename": filename, **spec})
    assert resp.status_code == 201, resp.text
    return resp.json()


def _seed(sandbox_url, api):
    loose = _add(sandbox_url, api, "beerkezett.pdf")
    attached = _add(sandbox_url, api, "kep.png", attached_to={"type": "expense", "id": 7})
    return loose, attached


def test_documents_list_returns_attached_and_unattached_by_default(api, sandbox_url):
    loose, attached = _seed(sandbox_url, api)
    body = api.get("/2/documents").json()
    assert [d["id"] for d in body["results"]] == [attached["id"], loose["id"]]
    assert {d["is_attached"] for d in body["results"]} == {True, False}


def test_documents_list_is_cursor_envelope_without_count(api, sandbox_url):
    for n in range(3):
        _add(sandbox_url, api, f"d{n}.pdf")
    first = api.get("/2/documents/", params={"page_size": 2}).json()
    assert set(first) == {"next", "previous", "results"} and len(first["results"]) == 2
    second = api.get(first["next"].removeprefix(sandbox_url)).json()
    assert len(second["results"]) == 1 and second["next"] is None


def test_documents_is_attached_filter(api, sandbox_url):
    loose, attached = _seed(sandbox_url, api)
    yes = api.get("/2/documents", params={"is_attached": "true"}).json()["results"]
    no = api.get("/2/documents", params={"is_attached": "false"}).json()["results"]
    assert [d["id"] for d in yes] == [attached["id"]]
    assert [d["id"] for d in no] == [loose["id"]]


def test_documents_is_attached_filter_rejects_other_values(api):
    assert api.get("/2/documents", params={"is_attached": "both"}).status_code == 400


def test_document_record_carries_filename_extension_and_attachment(api, sandbox_url):
    _, attached = _seed(sandbox_url, api)
    doc = api.get("/2/documents", params={"is_attached": "true"}).json()["results"][0]
    assert (doc["filename"], doc["extension"]) == ("kep.png", "png")
    assert doc["attached_to"] == {"type": "expense", "id": 7} and doc["created_at"]
    assert attached["attached_to"] == doc["attached_to"]


def test_document_url_downloads_the_file_without_a_token(api, sandbox_url):
    content = minimal_pdf(["Teszt"])
    _add(sandbox_url, api, "teszt.pdf", content_base64=base64.b64encode(content).decode())
    doc = api.get("/2/documents").json()["results"][0]
    resp = requests.get(doc["url"], timeout=10)
    assert resp.status_code == 200 and resp.content == content
    assert resp.headers["Content-Type"] == "application/pdf"


def test_document_url_with_a_forged_signature_is_refused(api, sandbox_url):
    _add(sandbox_url, api)
    url = api.get("/2/documents").json()["results"][0]["url"]
    assert requests.get(url[:-4] + "0000", timeout=10).status_code == 403


def test_documents_are_per_company(api, sandbox_url, make_company):
    from conftest import Api

    other = Api(sandbox_url, make_company())
    _add(sandbox_url, other)
    assert api.get("/2/documents").json()["results"] == []


def test_documents_list_requires_a_token(api):
    assert api.get("/2/documents", token=None).status_code == 401
