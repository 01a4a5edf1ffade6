"""Demo data: documents with real small PDF and PNG files, attached and unattached."""
import pytest
import requests

from sandbox.core.server import start


@pytest.fixture(scope="module")
def documents(tmp_path_factory):
    """Every document of demo company 1, read over HTTP."""
    server, url = start(port=0, db_path=str(tmp_path_factory.mktemp("docs") / "demo.db"),
                        seed="demo")
    resp = requests.get(f"{url}/2/documents/", params={"page_size": 100}, timeout=30,
                        headers={"Authorization": "Token demo-admin"})
    yield resp.json()["results"]
    server.shutdown()


def test_demo_documents_are_both_attached_and_unattached(documents):
    assert len(documents) >= 20
    assert {d["is_attached"] for d in documents} == {True, False}
    attached = [d for d in documents if d["is_attached"]]
    assert all(d["attached_to"]["type"] in ("expense", "income") for d in attached)


def test_demo_documents_download_as_real_pdf_and_png(documents):
    kinds = {}
    for doc in documents:
        data = requests.get(doc["url"], timeout=10).content
        kinds[doc["extension"]] = data[:8]
        if doc["extension"] == "pdf":
            assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
        else:
            assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert set(kinds) == {"pdf", "png"}
