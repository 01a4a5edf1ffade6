"""Static files are content-hashed, immutable and pre-compressed; pages are compressed on request.

app/assets.py builds the hashed names and the .br/.gz twins; Flask-Compress (app/__init__.py)
compresses HTML, htmx fragments and downloads.
"""
from __future__ import annotations

import gzip
import hashlib
import re
import shutil
from pathlib import Path

import brotli
import pytest

from app import data_dir
from app.assets import build
from tests.app.conftest import sign_in
from tests.app.incomes_helpers import make_income

STATIC = Path(data_dir("static"))
STATIC_URL = re.compile(r'(?:href|src)="(/static/[^"]+)"')
HASHED = re.compile(r"^/static/(?P<stem>.+)\.(?P<hash>[0-9a-f]{12})(?P<suffix>\.[a-z]+)$")
IMMUTABLE = {"public", "max-age=31536000", "immutable"}
DECODE = {"br": brotli.decompress, "gzip": gzip.decompress, None: lambda data: data}


def cache_control(response) -> set[str]:
    """The Cache-Control directives, as a set."""
    return {part.strip() for part in response.headers.get("Cache-Control", "").split(",")}


def vary(response) -> set[str]:
    """The Vary header's names, lower case."""
    return {part.strip().lower() for part in response.headers.get("Vary", "").split(",")}


def static_urls(html: str) -> list[str]:
    """Every /static/ URL a page links."""
    return STATIC_URL.findall(html)


def source_of(url: str) -> Path:
    """The source file a hashed static URL stands for."""
    match = HASHED.match(url)
    assert match, f"{url} is not content-hashed"
    return STATIC / f"{match['stem']}{match['suffix']}"


def test_static_urls_on_a_rendered_page_are_content_hashed_and_immutable(client, company):
    sign_in(client, company)
    urls = static_urls(client.get(f"/c/{company.id}/incomes/").get_data(as_text=True))
    assert any(u.endswith(".css") for u in urls) and any(u.endswith(".js") for u in urls)
    for url in urls:
        source = source_of(url)
        data = source.read_bytes()
        assert HASHED.match(url)["hash"] == hashlib.sha256(data).hexdigest()[:12]
        response = client.get(url)
        assert response.status_code == 200
        assert cache_control(response) == IMMUTABLE, url
        assert response.get_data() == data


def test_the_plain_static_url_still_works_with_a_short_cache(client):
    response = client.get("/static/css/app.css")
    assert response.status_code == 200
    assert response.get_data() == (STATIC / "css/app.css").read_bytes()
    directives = cache_control(response)
    assert "immutable" not in directives and "max-age=60" in directives


def test_a_hash_that_is_not_the_files_current_content_is_not_found(client):
    assert client.get("/static/css/app.0123456789ab.css").status_code == 404


@pytest.mark.parametrize(("accept", "coding"), [
    ("br", "br"), ("gzip", "gzip"), ("gzip, deflate, br", "br"), ("br;q=0, gzip", "gzip"),
    ("gzip;q=0.5, br;q=0.2", "gzip"), ("", None), ("identity", None), ("deflate", None)])
def test_static_files_come_as_their_brotli_or_gzip_twin_when_the_client_accepts_it(
        client, accept, coding):
    url = next(u for u in static_urls(client.get("/login").get_data(as_text=True))
               if u.endswith(".css"))
    response = client.get(url, headers={"Accept-Encoding": accept})
    assert response.status_code == 200
    assert response.headers.get("Content-Encoding") == coding
    assert response.mimetype == "text/css"
    assert "accept-encoding" in vary(response)
    assert cache_control(response) == IMMUTABLE
    assert DECODE[coding](response.get_data()) == source_of(url).read_bytes()


def test_each_coding_of_a_static_file_has_its_own_etag(client):
    url = "/static/css/app.css"
    tags = {client.get(url, headers={"Accept-Encoding": coding}).headers["ETag"]
            for coding in ("br", "gzip", "")}
    assert len(tags) == 3


def test_the_build_writes_only_into_its_target_and_follows_the_content(tmp_path):
    source = tmp_path / "static"
    shutil.copytree(STATIC, source)
    before = sorted(p.relative_to(source) for p in source.rglob("*"))
    first = build(source, tmp_path / "build")
    (source / "css/app.css").write_text("body { color: red; }\n" * 40)
    second = build(source, tmp_path / "build")
    assert sorted(p.relative_to(source) for p in source.rglob("*")) == before
    assert first.hashed["css/app.css"] != second.hashed["css/app.css"]
    assert first.hashed["js/app.js"] == second.hashed["js/app.js"]
    twin = tmp_path / "build" / (second.hashed["css/app.css"] + ".br")
    assert brotli.decompress(twin.read_bytes()) == (source / "css/app.css").read_bytes()
    assert (tmp_path / "build/manifest.json").exists()


@pytest.mark.parametrize("coding", ["br", "gzip"])
def test_pages_are_compressed_when_asked_with_vary_request_id_and_server_timing(
        client, company, coding):
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/incomes/", headers={"Accept-Encoding": coding})
    assert response.status_code == 200 and response.headers["Content-Encoding"] == coding
    assert {"accept-encoding", "hx-request"} <= vary(response)
    assert response.headers["X-Request-Id"] and "upstream;dur=" in response.headers[
        "Server-Timing"]
    assert b"</html>" in DECODE[coding](response.get_data())


def test_pages_are_not_compressed_when_not_asked(client, company):
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/incomes/")
    assert response.status_code == 200 and "Content-Encoding" not in response.headers
    assert "accept-encoding" in vary(response) and b"</html>" in response.get_data()


def test_htmx_fragments_are_compressed_too(client, company, api):
    for number in range(3):
        make_income(api, invoice_number=f"FRAG-{number}")
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/incomes/",
                          headers={"HX-Request": "true", "Accept-Encoding": "br"})
    assert response.status_code == 200 and response.headers["Content-Encoding"] == "br"
    body = brotli.decompress(response.get_data())
    assert b"FRAG-2" in body and b"<html" not in body
    assert {"accept-encoding", "hx-request"} <= vary(response)


def test_a_tiny_page_and_a_redirect_are_sent_as_they_are(app):
    app.add_url_rule("/_test/tiny", "test_tiny", lambda: "<p>ok</p>")
    client = app.test_client()
    tiny = client.get("/_test/tiny", headers={"Accept-Encoding": "br, gzip"})
    assert tiny.status_code == 200 and tiny.get_data() == b"<p>ok</p>"
    assert "Content-Encoding" not in tiny.headers and tiny.headers["X-Request-Id"]
    redirect = client.get("/", headers={"Accept-Encoding": "br, gzip"})
    assert redirect.status_code in (302, 303) and "Content-Encoding" not in redirect.headers


def test_a_csv_download_streams_uncompressed_whatever_the_browser_takes(client, company, api):
    """The export streams as it is made, uncompressed even for a browser that takes brotli
    (app/__init__.py says why), and is the same file either way."""
    for number in range(20):
        make_income(api, invoice_number=f"CSV-{number:03d}")
    sign_in(client, company)
    plain = client.get(f"/c/{company.id}/incomes/export")
    offered = client.get(f"/c/{company.id}/incomes/export",
                         headers={"Accept-Encoding": "br, gzip"})
    assert plain.mimetype == offered.mimetype == "text/csv"
    assert "Content-Encoding" not in offered.headers and "Content-Encoding" not in plain.headers
    assert offered.headers["Content-Disposition"] == plain.headers["Content-Disposition"]
    assert offered.get_data() == plain.get_data()
    assert b"CSV-019" in plain.get_data()
