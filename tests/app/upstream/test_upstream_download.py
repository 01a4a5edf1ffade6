"""UpstreamClient.download: a signed file link, fetched token-free from the configured upstream."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from app.upstream import PermissionDenied, Unavailable, UpstreamClient, UpstreamError
from app.upstream.responses import MAX_FILE_BYTES
from tests.app.expenses_helpers import PDF, artifact, make_expense

ARTIFACTS = "/1/artifacts/expense/"


@pytest.fixture
def signed_link(api, company, sandbox_url):
    """A fresh signed link to an expense's PDF, and a client for the company."""
    created = make_expense(api, artifact=artifact(PDF, "szamla.pdf"))
    client = UpstreamClient(sandbox_url, company.tokens["admin"], company.id, backoff=0.01)
    records = client.get(ARTIFACTS, {"ids": created["id"]})
    return records[0]["url"], client


def test_download_returns_the_files_bytes_and_content_type(signed_link):
    url, client = signed_link
    before = client.stats.count
    content, content_type = client.download(url)
    assert content == PDF
    assert content_type == "application/pdf"
    assert client.stats.count == before + 1


def test_a_link_naming_another_host_is_fetched_from_the_configured_upstream(signed_link):
    url, client = signed_link
    parts = urlsplit(url)
    elsewhere = f"http://files.invalid:9{parts.path}?{parts.query}"
    assert client.download(elsewhere)[0] == PDF


def test_a_tampered_signature_raises_the_typed_error(signed_link):
    url, client = signed_link
    with pytest.raises(PermissionDenied):
        client.download(url.replace("sig=", "sig=0"))


def test_the_token_and_company_never_travel_with_the_link(stub, stub_client):
    stub.default = stub.reply(body=b"%PDF-1.4", content_type="application/pdf")
    assert stub_client.download("/_files/expense/1?expires=1&sig=x") == (
        b"%PDF-1.4", "application/pdf")
    headers = {k.lower(): v for k, v in stub.requests[0]["headers"].items()}
    assert "authorization" not in headers and "service-company-id" not in headers
    assert "stub-token" not in str(stub.requests[0])


def test_a_redirect_is_not_followed(stub, stub_client):
    stub.then(stub.reply(302, headers={"Location": "http://elsewhere.invalid/x"}))
    with pytest.raises(UpstreamError):
        stub_client.download("/_files/expense/1?expires=1&sig=x")
    assert len(stub.requests) == 1


def test_a_file_over_the_limit_is_refused(stub, stub_client):
    stub.default = stub.reply(body=b"x" * (MAX_FILE_BYTES + 1), content_type="text/plain")
    with pytest.raises(Unavailable):
        stub_client.download("/_files/expense/1")


def test_a_dropped_connection_is_unavailable(stub, stub_client):
    stub.default = stub.reply(reset=True)
    with pytest.raises(Unavailable):
        stub_client.download("/_files/expense/1")
    assert stub_client.stats.count >= 1
