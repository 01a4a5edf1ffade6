"""Partner search that ignores case and accents (issue 19): the partner list, its export and
the forms' partner picker read the company's partners and match them folded; past
PARTNER_SCAN_LIMIT partners the API's own (accent-sensitive) search answers, with a note."""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.upstream import partners as partners_api
from tests.app.conftest import signed_in
from tests.app.incomes_helpers import upstream_calls
from tests.app.test_list_exports import _csv, _partner_rows
from tests.app.test_partners_pages import create_form, make_partner

ROW_ID = re.compile(r'<tr data-partner-id="(\d+)">')
NOTE = "accented letters count in the search"
HUNGARIAN = "aáeéiíoóöőuúüűAÁEÉIÍOÓÖŐUÚÜŰbcdgklmnrsz"


def folded(text: str | None) -> str:
    """Case and accents aside, written here apart from the app's own folding."""
    decomposed = unicodedata.normalize("NFKD", (text or "").casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def shown_ids(client, url: str) -> set[int]:
    """The partner ids of every page of the list."""
    ids: set[int] = set()
    for number in range(1, 40):
        html = client.get(f"{url}&page={number}").get_data(as_text=True)
        found = {int(found) for found in ROW_ID.findall(html)}
        if not found:
            return ids
        ids |= found
    raise AssertionError("too many pages")


def picker(client, company, text: str) -> str:
    """The options the forms' partner picker gets for a typed text."""
    return client.get(f"/c/{company.id}/incomes/partners?partner_q={quote(text)}").get_data(
        as_text=True)


def test_list_finds_accented_names_typed_without_accents_in_any_case(client, company, api):
    make_partner(api, name="Kovács Kft", tax_number="11111111-2-41")
    make_partner(api, name="Árvíztűrő Bt", is_vendor=True)
    make_partner(api, name="Nagy Zrt")
    base = signed_in(client, company, "partners/")
    for typed in ("kovacs", "KOVÁCS", "Kovacs"):
        html = client.get(f"{base}?q={quote(typed)}").get_data(as_text=True)
        assert "Kovács Kft" in html and "Nagy Zrt" not in html and NOTE not in html
    html = client.get(base + "?q=arvizturo").get_data(as_text=True)
    assert "Árvíztűrő Bt" in html and "Kovács Kft" not in html
    assert "Kovács Kft" in client.get(base + "?q=11111111-2-41").get_data(as_text=True)


def test_picker_finds_accented_names_typed_without_accents_in_any_case(client, company, api):
    make_partner(api, name="Kovács Kft")
    make_partner(api, name="Nagy Zrt")
    signed_in(client, company, "partners/")
    for typed in ("kovacs", "KOVÁCS"):
        options = picker(client, company, typed)
        assert "<option" in options and "Kovács Kft" in options and "Nagy Zrt" not in options


def test_a_search_reads_a_small_company_in_one_call_and_a_list_by_date_pages_the_api(
        client, company, api, sandbox_log):
    make_partner(api, name="Kovács Kft")
    base = signed_in(client, company, "partners/")
    sandbox_log.reset()
    assert upstream_calls(client.get(base + "?q=kovacs")) == 1
    scan = sandbox_log.entries(company_id=company.id, path="/1/partners")[-1]["args"]
    assert "search" not in scan and scan["page_size"] == [str(partners_api.SCAN_PAGE_SIZE)]
    sandbox_log.reset()
    assert upstream_calls(client.get(base + "?ordering=-created_at")) == 1
    assert sandbox_log.entries(company_id=company.id, path="/1/partners")[-1]["args"][
        "page_size"] == ["25"]


def test_export_of_an_accent_blind_search_equals_the_list(client, company, api):
    for number in range(30):
        make_partner(api, name=f"{('Kovács', 'KOVACS', 'Kóvacs', 'Nagy')[number % 4]} "
                               f"{number:02d} Kft")
    base = signed_in(client, company, "partners/")
    shown = _partner_rows(client, f"{base}?q=kovacs&ordering=-name")
    assert len(shown) == 23 and not any(name.startswith("Nagy") for name in shown)
    _header, rows = _csv(client.get(f"{base}export?q=kovacs&ordering=-name"))
    assert [row[0] for row in rows] == shown


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(st.text(HUNGARIAN + " ", min_size=1, max_size=8), max_size=4),
       query=st.text(HUNGARIAN, min_size=1, max_size=3))
def test_rows_shown_are_the_partners_whose_folded_name_or_tax_number_holds_the_query(
        client, company, api, names, query):
    for name in names:
        api.post("/2/partners/create/", json={"name": name, "is_customer": True})
    partners_api.forget(company.id)  # written past Bookdesk: its copy is dropped by hand
    everyone = api.get("/1/partners/", params={"page_size": 1000}).json()["results"]
    expected = {p["id"] for p in everyone if folded(query) in folded(p["name"])
                or folded(query) in folded(p["tax_number"])}
    base = signed_in(client, company, "partners/")
    assert shown_ids(client, f"{base}?q={quote(query)}") == expected


def test_past_the_scan_limit_the_api_searches_and_the_page_says_accents_count(
        client, company, api, sandbox_log, monkeypatch):
    monkeypatch.setattr("app.upstream.partners.PARTNER_SCAN_LIMIT", 2)
    for name in ("Kovács Kft", "Kovacs Bt", "Nagy Zrt"):
        make_partner(api, name=name)
    base = signed_in(client, company, "partners/")
    client.get("/lang/en")
    sandbox_log.reset()
    html = client.get(base + "?q=kovacs").get_data(as_text=True)
    assert sandbox_log.entries(company_id=company.id, path="/1/partners")[-1]["args"][
        "search"] == ["kovacs"]
    assert "Kovacs Bt" in html and "Kovács Kft" not in html
    assert NOTE in html and "more than 2 partners" in html
    assert NOTE not in client.get(base).get_data(as_text=True)
    client.get("/lang/hu")
    assert "megkülönbözteti az ékezetes" in client.get(base + "?q=kovacs").get_data(as_text=True)


def test_a_partner_created_in_bookdesk_is_found_by_the_next_search(client, company, api):
    make_partner(api, name="Nagy Zrt")
    base = signed_in(client, company, "partners/")
    assert "Kovács Kft" not in client.get(base + "?q=kovacs").get_data(as_text=True)
    assert "Kovács Kft" not in picker(client, company, "kovacs")
    assert create_form(client, base, name="Kovács Kft", is_customer="y").status_code == 303
    assert "Kovács Kft" in client.get(base + "?q=kovacs").get_data(as_text=True)
    assert "Kovács Kft" in picker(client, company, "kovacs")


def test_a_search_keeps_every_ordering_the_api_list_gives(client, company, api):
    for name in ("Zebra Kft", "Ábel Kft", "Őz Kft", "Csiga Kft", "Cukor Kft", "Alfa Kft"):
        make_partner(api, name=name)
    base = signed_in(client, company, "partners/")
    for ordering in ("", "name", "-name", "created_at", "-created_at"):
        unfiltered = _partner_rows(client, f"{base}?ordering={ordering}")
        assert _partner_rows(client, f"{base}?q=KFT&ordering={ordering}") == unfiltered
    client.get("/lang/hu")  # Cs is a letter of its own after C, Ő comes after O
    assert _partner_rows(client, base + "?q=kft") == ["Ábel Kft", "Alfa Kft", "Cukor Kft",
                                                     "Csiga Kft", "Őz Kft", "Zebra Kft"]


def test_the_list_by_name_is_in_one_order_across_its_pages_and_its_export(client, company,
                                                                            api):
    # the API orders names byte by byte (Ő after Z); pages sorted one by one would break
    for number in range(24):
        make_partner(api, name=f"Pilis {number:02d} Kft")
    for name in ("Őrség Kft", "Zemplén Kft", "Ócsa Kft", "Abony Kft"):
        make_partner(api, name=name)
    base = signed_in(client, company, "partners/")
    client.get("/lang/hu")
    for ordering in ("name", "-name"):
        shown = _partner_rows(client, f"{base}?ordering={ordering}")  # every page
        whole = ["Abony Kft", "Ócsa Kft", "Őrség Kft",
                 *(f"Pilis {n:02d} Kft" for n in range(24)), "Zemplén Kft"]
        assert shown == (whole if ordering == "name" else whole[::-1])
        _header, rows = _csv(client.get(f"{base}export?ordering={ordering}"))
        assert [row[0] for row in rows] == shown
