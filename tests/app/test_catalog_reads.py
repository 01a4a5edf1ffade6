"""Currencies and documents: the catalogue, the attached/unattached filter, the download served
from this origin through a fresh signed link (spec 2.7, 2.11, 4.9)."""
from __future__ import annotations

import html as html_lib
import re

import requests

from tests.app.conftest import signed_in
from tests.app.incomes_helpers import upstream_calls


def add_document(sandbox_url: str, company, filename: str, attached_to=None) -> dict:
    resp = requests.post(f"{sandbox_url}/_sandbox/documents/", timeout=10, json={
        "company_id": company.id, "filename": filename, "attached_to": attached_to})
    assert resp.status_code == 201, resp.text
    return resp.json()


def test_currencies_list_codes_with_their_ids_and_mark_the_default(client, company, api):
    catalogue = {c["code"]: c["id"] for c in api.get("/2/currencies/").json()}
    html = client.get(f"{signed_in(client, company)}currencies/").get_data(as_text=True)
    huf = html.split('data-currency="HUF"')[1].split("</tr>")[0]
    eur = html.split('data-currency="EUR"')[1].split("</tr>")[0]
    assert f">{catalogue['HUF']}<" in huf and "Company default" in huf
    assert f">{catalogue['EUR']}<" in eur and "Company default" not in eur


def test_documents_filter_attached_and_unattached_through_the_api(client, company,
                                                                  sandbox_url, sandbox_log):
    add_document(sandbox_url, company, "szamla.pdf", {"type": "income", "id": 5})
    add_document(sandbox_url, company, "bizonylat.pdf")
    base = signed_in(client, company)
    sandbox_log.reset()
    response = client.get(f"{base}documents/?attached=false")
    page = response.get_data(as_text=True)
    assert sandbox_log.entries(company_id=company.id, path="/2/documents")[-1]["args"][
        "is_attached"] == ["false"]
    assert "bizonylat.pdf" in page and "szamla.pdf" not in page
    assert upstream_calls(response) == 1
    attached = client.get(f"{base}documents/?attached=true").get_data(as_text=True)
    assert "szamla.pdf" in attached and f'href="{base}incomes/5"' in attached


def test_documents_download_from_this_origin_never_showing_the_signed_link(client, company,
                                                                           sandbox_url):
    add_document(sandbox_url, company, "letöltés.pdf")
    base = signed_in(client, company)
    page = client.get(f"{base}documents/").get_data(as_text=True)
    link = html_lib.unescape(re.search(r'href="([^"]+)" download="letöltés.pdf"', page)[1])
    assert link.startswith(f"{base}documents/") and sandbox_url not in page and "sig=" not in page
    assert company.tokens["admin"] not in page
    download = client.get(link)
    assert download.status_code == 200 and download.get_data().startswith(b"%PDF")
    assert download.headers["Content-Disposition"].startswith('attachment; filename="letoltes.pdf"')


def test_a_document_without_a_file_is_not_found(client, company):
    assert client.get(f"{signed_in(client, company)}documents/987654/file").status_code == 404


def test_documents_follow_the_api_cursor(client, company, sandbox_url):
    for number in range(53):
        add_document(sandbox_url, company, f"dok_{number:02d}.pdf")
    base = signed_in(client, company)
    first = client.get(f"{base}documents/").get_data(as_text=True)
    assert "dok_52.pdf" in first and "dok_02.pdf" not in first
    following = html_lib.unescape(re.search(r'rel="next" href="([^"]+)"', first)[1])
    assert "cursor=" in following
    second = client.get(following).get_data(as_text=True)
    assert "dok_02.pdf" in second and "dok_52.pdf" not in second
