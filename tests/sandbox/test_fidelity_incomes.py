"""Incomes as the live API serves them: key set and types of the list and detail records
(live-api-shapes.json), every documented list filter, and every create field read back."""
from __future__ import annotations

from datetime import timedelta

import pytest
import requests

from sandbox.core.model import budapest_today
from tests.conftest import Api, create_company
from tests.sandbox.incomes_support import assignment, income_body, make_income, read_catalogue
from tests.sandbox.live_shapes import live_response, shape_problems

TODAY = budapest_today()
# Where the written spec speaks, it wins over the live type: vat on an assignment is an object
# with percent on reads (spec 2.2), and percent is a float (spec 9.5). `results` is the nested
# object real users observe (upstream-notes, "Envelopes"), the records under results.incomes.
LIST_OVERRIDES = {"results": "object", "results.incomes[].assignments[].vat": "object"}
DETAIL_OVERRIDES = {"assignments[].vat.percent": "number"}


@pytest.fixture(scope="module")
def shop(sandbox_url, sandbox_db_path):
    """A company with two partners, read straight back: (api, catalogue, partner ids)."""
    api = Api(sandbox_url, create_company(sandbox_url))
    cat = read_catalogue(sandbox_db_path, api.company.id)
    partners = [_partner(api, name, number) for name, number in
                (("Alfa Kft.", "12345676-2-42"), ("Béta Bt.", "24387136-2-41"))]
    return api, cat, partners


def _partner(api: Api, name: str, tax_number: str) -> int:
    resp = api.post("/2/partners/create/", json={
        "name": name, "tax_number": tax_number, "is_customer": True, "zip_code": "1011",
        "city": "Budapest", "address": "Fő utca 1.", "country": "HU",
        "default_account_number": "11773016-11111018"})
    assert resp.status_code == 201, resp.text
    return resp.json()["id"]


def _full(api: Api, cat, partner: int, number: str) -> dict:
    """An income with every live key holding a value (a storno, so the reference is set)."""
    return make_income(
        api, invoice_number=number, partner_id=partner, partner_name="Alfa Kft.",
        partner_zip_code="1011", partner_city="Budapest", partner_address="Fő utca 1.",
        partner_country="HU", partner_tax_number="12345676242",
        partner_account_number="11773016-11111018", payment_method="transfer",
        invoice_type=1, referred_invoice_number="ORIG-1", issued_at="2025-03-01",
        fulfilled_at="2025-03-01", due_at="2025-03-15", planned_payment_date="2025-03-14",
        accounting_period_start="2025-03-01", accounting_period_end="2025-03-31",
        tags=[cat.tags[0]], simple_tags=[cat.tags[1]],
        assignments=[assignment(cat, tags=[cat.tags[2]])],
        integration_payment_method="Átutalás", user_saw="2025-03-02T09:30:00Z")


@pytest.fixture(scope="module")
def shaped(shop):
    """Three full incomes, so page 2 of size 1 has both a next and a previous link."""
    api, cat, partners = shop
    return [_full(api, cat, partners[0], f"SHAPE-{n}") for n in range(3)]


def test_list_has_every_live_key_with_its_live_type(shop, shaped):
    api = shop[0]
    body = api.get("/1/incomes", params={"ordering": "id",
                                         "page_size": 1, "page": 2}).json()
    shape = live_response("GET", "/1/incomes", rename={"results[]": "results.incomes[]"},
                          overrides=LIST_OVERRIDES)
    assert shape_problems(body, shape) == []


def test_detail_has_every_live_key_with_its_live_type(shop, shaped):
    api = shop[0]
    body = api.get(f"/1/incomes/{shaped[0]['id']}/").json()
    shape = live_response("GET", "/1/incomes/{income_id}", overrides=DETAIL_OVERRIDES)
    assert shape_problems(body, shape) == []


def test_live_only_keys_read_back_as_set(shop, shaped):
    api = shop[0]
    body = api.get(f"/1/incomes/{shaped[1]['id']}/").json()
    assert body["integration_payment_method"] == "Átutalás"
    assert body["user_saw"] == "2025-03-02T09:30:00Z"
    assert body["partner_account_number"] == "11773016-11111018"


@pytest.fixture(scope="module")
def filtered(sandbox_url, sandbox_db_path):
    """Five incomes that differ in every filtered field; returns (api, ids, catalogue, partners)."""
    api = Api(sandbox_url, create_company(sandbox_url))
    cat = read_catalogue(sandbox_db_path, api.company.id)
    partners = [_partner(api, name, number) for name, number in
                (("Alfa Kft.", "12345676-2-42"), ("Béta Bt.", "24387136-2-41"))]
    rows = {
        "A": dict(payment_method="transfer", tags=[cat.tags[0]], partner_id=partners[0],
                  due_at=str(TODAY + timedelta(days=3)), issued_at="2025-01-10",
                  assignments=[{"revenue_type": cat.revenue_types[0]}]),
        "B": dict(payment_method="cash", simple_tags=[cat.tags[1]], partner_id=partners[1],
                  due_at=str(TODAY - timedelta(days=5)), issued_at="2025-02-10",
                  assignments=[{"revenue_type": cat.revenue_types[1]}]),
        "C": dict(payment_method="card", due_at=str(TODAY + timedelta(days=30)),
                  issued_at="2025-03-10", payments=[{"paid_at": "2025-03-11",
                                                     "amount": "1270.00"}],
                  assignments=[{"revenue_type": cat.revenue_types[2],
                                "tags": [cat.tags[2]]}]),
        "D": dict(payment_method="cod", due_at=str(TODAY - timedelta(days=9)),
                  issued_at="2025-04-10", currency=cat.currencies["EUR"],
                  exchange_rate="400.5", payments=[{"paid_at": "2025-04-11",
                                                    "amount": "1270.00"}],
                  assignments=[{"revenue_type": cat.revenue_types[0]}]),
        "E": dict(type=6, due_at=str(TODAY + timedelta(days=1)), issued_at="2025-05-10",
                  needs_review=True, payments=[{"paid_at": "2025-05-11", "amount": "100.00"}],
                  assignments=[{"revenue_type": cat.revenue_types[3]}]),
    }
    ids = {key: make_income(api, invoice_number=f"F-{key}", **fields)["id"]
           for key, fields in rows.items()}
    return api, ids, cat, partners


def _found(api: Api, query: str) -> set[str]:
    resp = api.get(f"/1/incomes/?page_size=100&{query}")
    assert resp.status_code == 200, resp.text
    return {row["invoice_number"][2:] for row in resp.json()["results"]["incomes"]}


FILTERS = [
    ("payment_method=transfer", "A"),
    ("payment_method=transfer&payment_method=cash", "AB"),
    ("payment_method=transfer,cash", "AB"),
    ("revenue_types={rt1}", "B"),
    ("revenue_types={rt1}&revenue_types={rt2}", "BC"),
    ("revenue_types={rt1},{rt2}", "BC"),
    ("tags={t0}", "A"),
    ("tags={t1}", "B"),
    ("tags={t2}", "C"),
    ("tags={t0}&tags={t2}", "AC"),
    ("due_at={due_a}", "A"),
    ("is_due_soon=true", "AE"),
    ("is_due_soon=false", "BCD"),
    ("is_expired=true", "B"),
    ("is_expired=false", "ACDE"),
    ("is_overdue=true", "B"),
    ("paid_status=2", "CD"),
    ("paid_status=1&paid_status=3", "ABE"),
    ("paid_status=3", "E"),
    ("partner={p0}", "A"),
    ("partner={p0},{p1}", "AB"),
    ("partner={p0}&partner={p1}", "AB"),
    ("from_date=2025-02-01&to_date=2025-04-30", "BCD"),
    ("date_field=due_at&from_date={due_a}", "AC"),
    ("invoice_number=F-C", "C"),
    ("currency=EUR", "D"),
    ("currency={eur}&currency={huf}", "ABCDE"),
    ("type=6", "E"),
    ("type=2,6", "ABCDE"),
    ("needs_review=true", "E"),
    ("search=F-D", "D"),
    ("colour=blue&payment_method=card", "C"),
]


@pytest.mark.parametrize(("query", "expected"), FILTERS)
def test_filter_keeps_exactly_the_matching_incomes(filtered, query, expected):
    api, _ids, cat, partners = filtered
    values = {"rt1": cat.revenue_types[1], "rt2": cat.revenue_types[2], "t0": cat.tags[0],
              "t1": cat.tags[1], "t2": cat.tags[2], "p0": partners[0], "p1": partners[1],
              "due_a": TODAY + timedelta(days=3), "eur": cat.currencies["EUR"],
              "huf": cat.currencies["HUF"]}
    assert _found(api, query.format(**values)) == set(expected)


def test_ordering_by_issued_at_descending(filtered):
    api = filtered[0]
    body = api.get("/1/incomes/?ordering=-issued_at").json()
    assert [r["invoice_number"] for r in body["results"]["incomes"]] == [
        "F-E", "F-D", "F-C", "F-B", "F-A"]


@pytest.mark.parametrize("query", [
    "paid_status=paid", "partner=Alfa", "revenue_types=1.5", "tags=x", "is_due_soon=maybe",
    "is_expired=2", "due_at=2025-13-01", "from_date=yesterday", "payment_method=bitcoin",
    "type=2,x",
])
def test_malformed_filter_value_is_a_400_naming_the_parameter(filtered, query):
    resp = filtered[0].get(f"/1/incomes/?{query}")
    assert resp.status_code == 400
    assert query.split("=")[0] in resp.json()


def test_page_links_keep_repeated_keys(filtered):
    api = filtered[0]
    body = api.get("/1/incomes/?payment_method=transfer&payment_method=cash&page_size=1").json()
    assert body["count"] == 2
    follow = requests.get(body["next"], headers={"Authorization":
                                                 f"Token {api.company.tokens['admin']}"},
                          timeout=10).json()
    assert follow["results"]["incomes"][0]["payment_method"] in {"transfer", "cash"}
    assert follow["results"]["incomes"][0]["invoice_number"] != \
        body["results"]["incomes"][0]["invoice_number"]


# POST /2/incomes/create/: every documented field is stored and read back.
CREATE_FIELDS = {
    "invoice_number": "KÉSZ-1", "issued_at": "2025-06-02", "fulfilled_at": "2025-06-01",
    "due_at": "2025-06-20", "net_amount": "1000.00", "vat_amount": "270.00",
    "gross_amount": "1270.00", "exchange_rate": "1.000000", "exchange_date": "2025-06-01",
    "payment_method": "card", "planned_payment_date": "2025-06-18", "paid_through": "OTP",
    "vat_area": "EU", "secondary_id": "SEC-9", "note": "Jegyzet", "needs_review": True,
    "review_done": True, "accounting_period_start": "2025-06-01",
    "accounting_period_end": "2025-06-30", "partner_name": "Gamma Zrt.",
    "partner_zip_code": "9021", "partner_city": "Győr", "partner_address": "Baross út 2.",
    "partner_country": "HU", "partner_tax_number": "12345676242",
    "partner_account_number": "11773016-11111018", "accounting_id": "K-77",
    "vat_period_type": "monthly", "vat_period_started_at": "2025-06-01",
}


def test_every_create_field_is_stored_and_read_back(sandbox_url, sandbox_db_path):
    api = Api(sandbox_url, create_company(sandbox_url, enable_accounting_id=True,
                                          enable_vat_period=True))
    cat = read_catalogue(sandbox_db_path, api.company.id)
    body = income_body(cat, **CREATE_FIELDS, tags=[cat.tags[0]], simple_tags=[cat.tags[1]],
                       ledger_number_id=cat.ledger_numbers[0])
    resp = api.post("/2/incomes/create/", json=body)
    assert resp.status_code == 201, resp.text
    stored = api.get(f"/1/incomes/{resp.json()['id']}/?fields=accounting").json()
    assert {key: stored[key] for key in CREATE_FIELDS} == CREATE_FIELDS
    assert [t["id"] for t in stored["tags"]] == [cat.tags[0]]
    assert [t["id"] for t in stored["simple_tags"]] == [cat.tags[1]]
    assert stored["ledger_number_id"] == cat.ledger_numbers[0]
    assert stored["assignments"][0]["revenue_type"]["id"] == cat.revenue_types[0]


@pytest.mark.parametrize(("field", "value"), [
    ("net_amount", "12345678901234567890123"),
    ("gross_amount", 1e15),
    ("net_amount", "1000000000000"),
    ("net_amount", "1000.005"),
])
def test_amount_beyond_the_schema_is_refused_not_altered(shop, field, value):
    api, cat, _ = shop
    resp = api.post("/2/incomes/create/", json=income_body(cat, f"BIG-{field}-{value}",
                                                           **{field: value}))
    assert resp.status_code == 400
    assert field in resp.json()


def test_largest_amount_the_schema_holds_is_stored_exactly(shop):
    api, cat, _ = shop
    body = income_body(cat, "BIG-OK", net_amount="999999999999.99", vat_amount="0.00",
                       gross_amount="999999999999.99",
                       assignments=[assignment(cat, net="999999999999.99",
                                               gross="999999999999.99")])
    resp = api.post("/2/incomes/create/", json=body)
    assert resp.status_code == 201, resp.text
    assert resp.json()["gross_amount"] == "999999999999.99"


UPDATE_FIELDS = {
    "vat_area": "3RD", "due_at": "2025-07-30", "payment_method": "cash",
    "planned_payment_date": "2025-07-29", "paid_through": "Pénztár", "secondary_id": "SEC-10",
    "exchange_rate": "1.000000", "exchange_date": "2025-06-03",
    "accounting_period_start": "2025-07-01", "accounting_period_end": "2025-07-31",
    "note": "Módosítva", "needs_review": False, "review_done": True,
    "invoice_number": "KÉSZ-2", "fulfilled_at": "2025-06-04", "issued_at": "2025-06-04",
    "partner_name": "Delta Kft.", "partner_city": "Pécs",
}


def test_every_update_field_is_stored_and_read_back(shop):
    api, cat, _ = shop
    created = api.post("/2/incomes/create/", json=income_body(cat, "UPD-1"))
    assert created.status_code == 201, created.text
    path = f"/2/incomes/{created.json()['id']}/update/"
    resp = api.patch(path, json={**UPDATE_FIELDS, "tags": [cat.tags[3]]})
    assert resp.status_code == 200, resp.text
    stored = api.get(f"/1/incomes/{created.json()['id']}/").json()
    assert {key: stored[key] for key in UPDATE_FIELDS} == UPDATE_FIELDS
    assert [t["id"] for t in stored["tags"]] == [cat.tags[3]]
