"""Names sort by the page's collation (ICU): Hungarian letters, digraphs and accents in order;
search ignores case and accents where Bookdesk filters, and is normalised where the API does."""
from __future__ import annotations

import random
import re

from app.i18n import collated, fold, matches, search_text
from tests.app.conftest import signed_in

# The Hungarian alphabet's order: A Á B C Cs D Dz Dzs E É ... O Ó Ö Ő ... S Sz ... Z Zs.
HUNGARIAN_ORDER = ["Alma Kft.", "Ár Bt.", "Barna Kft.", "Cukor Zrt.", "Csiga Bt.", "Dió Kft.",
                   "Éden Kft.", "Gumi Kft.", "Gyula Bt.", "Nyár Kft.", "Oroszlán Kft.",
                   "Ökör Bt.", "Őz Kft.", "Sárga Kft.", "Szilva Bt.", "Tó Kft.", "Ügy Kft.",
                   "Zoltán Bt.", "Zsák Kft."]


def test_hungarian_names_sort_as_the_hungarian_alphabet():
    shuffled = random.Random(7).sample(HUNGARIAN_ORDER, len(HUNGARIAN_ORDER))
    assert collated(shuffled, locale="hu") == HUNGARIAN_ORDER


def test_single_letters_and_digraphs_sort_as_letters():
    letters = ["Zs", "Z", "Ő", "Ö", "O", "Á", "A", "Sz", "S", "Cs", "C", "Gy", "G"]
    assert collated(letters, locale="hu") == ["A", "Á", "C", "Cs", "G", "Gy", "O", "Ö", "Ő",
                                              "S", "Sz", "Z", "Zs"]


def test_ő_sorts_before_p_not_after_z_and_cs_after_cukor():
    names = collated(["Zebra", "Őrség", "Pécs", "Csónak", "Cukor"], locale="hu")
    assert names == ["Cukor", "Csónak", "Őrség", "Pécs", "Zebra"]


def test_collated_sorts_records_by_a_key():
    rows = [{"name": "Zsák"}, {"name": "Őz"}, {"name": "Alma"}]
    assert [r["name"] for r in collated(rows, "name", locale="hu")] == ["Alma", "Őz", "Zsák"]


def test_folding_ignores_case_and_accents():
    assert fold("ŐRSÉG Kft.") == fold("orseg kft.")
    assert matches("árvíztűrő", "ÁRVÍZTŰRŐ TÜKÖRFÚRÓGÉP Kft.")
    assert matches("TUKORFURO", "Árvíztűrő tükörfúrógép")
    assert not matches("alfa", "Béta Kft.")


def test_a_search_is_sent_in_composed_form_and_trimmed():
    decomposed = "O\u0308ko\u0308r  "  # "Ökör" as macOS may type it
    assert search_text(decomposed) == "Ökör"


def test_partner_list_in_hungarian_order(client, company, api):
    for name in random.Random(3).sample(HUNGARIAN_ORDER, len(HUNGARIAN_ORDER)):
        resp = api.post("/2/partners/create/", json={"name": name, "is_customer": True})
        assert resp.status_code == 201, resp.text
    signed_in(client, company)
    client.get("/lang/hu")
    html = client.get(f"/c/{company.id}/partners/").get_data(as_text=True)
    shown = re.findall(r">([^<>]+ (?:Kft|Bt|Zrt)\.)<", html)
    assert shown == HUNGARIAN_ORDER
    client.get("/lang/en")  # an English page sorts by English rules: Cs is C, then s
    html = client.get(f"/c/{company.id}/partners/").get_data(as_text=True)
    shown = re.findall(r">([^<>]+ (?:Kft|Bt|Zrt)\.)<", html)
    assert shown.index("Csiga Bt.") < shown.index("Cukor Zrt.")


def test_partner_search_finds_accented_capitals(client, company, api):
    api.post("/2/partners/create/", json={"name": "Őrség Kft.", "is_customer": True})
    api.post("/2/partners/create/", json={"name": "Béta Kft.", "is_customer": True})
    signed_in(client, company)
    for typed in ("ŐRSÉG", "őrség", "O\u030brség"):  # the last: Ő typed decomposed
        html = client.get(f"/c/{company.id}/partners/", query_string={"q": typed}
                          ).get_data(as_text=True)
        assert "Őrség Kft." in html, typed
        assert "Béta Kft." not in html, typed
