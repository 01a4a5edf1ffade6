"""Fidelity of expenses to the live API: record keys and types of /2/expenses and its detail
(live-api-shapes.json), every documented filter excluding what it should on two expenses that
differ in each, repeated keys and comma lists, page numbers, and the live update fields."""
from __future__ import annotations

from datetime import timedelta

import pytest
import requests

from sandbox.core.model import budapest_today
from tests.conftest import Api
from tests.sandbox import expense_support
from tests.sandbox.bank_support import settle
from tests.sandbox.expense_support import artifact, assignment, detail, make_expense, set_state
from tests.sandbox.live_shapes import live_operation, live_response, shape_problems

ecat = expense_support.ecat  # a fixture, found by name
TODAY = budapest_today()
# Where the written spec speaks it wins over the live description: expense tags and
# simple_tags are lists of tag ids (spec 2.3), VAT percent is a float (spec 2.3), and the
# expense lists keep the observed nested envelope (results.expenses, upstream-notes).
SPEC_WINS = {"tags[]": "integer", "simple_tags[]": "integer",
             "assignments[].vat.percent": "number", "user_saw": "string"}
DROPPED = ("tags[].id", "tags[].name", "simple_tags[].id", "simple_tags[].name")


def _detail_shape() -> dict:
    shape = live_response("GET", "/2/expenses/{expense_id}", overrides=SPEC_WINS)
    return {k: v for k, v in shape.items() if k not in DROPPED}


def _list_shape() -> dict:
    # Spec 2.3: each assignment has a vat object with a float percent, lists included.
    return live_response("GET", "/2/expenses", rename={"[]": "results.expenses[]"},
                         overrides={"results.expenses[].assignments[].vat": "object"})


@pytest.fixture
def pair(api, ecat, make_company):
    """A: a complete, approved, exported, tagged, card-paid EUR expense with a file, note,
    accounting id, custom field and a document, due long ago and unpaid; B: a bare upload
    paid in cash, due soon, seen by a user, with a twin (same partner and number)."""
    tag = ecat.tags[0]
    partner = api.post("/2/partners/create/", json={
        "name": "Alfa Kft.", "is_vendor": True, "tax_number": "12345676-2-42",
        "zip_code": "1111", "city": "Budapest", "address": "Fő utca 1.", "country": "HU",
        "default_account_number": "11700024-00000009"}).json()["id"]
    a = make_expense(api, assignments=[assignment(ecat, tags=[tag])], tags=[tag],
                     simple_tags=[tag], partner=partner, invoice_number="A-1",
                     issued_at="2026-01-05", fulfilled_at="2026-01-04",
                     due_at=str(TODAY - timedelta(days=40)),
                     payment_method="card", vat_area="EU", currency=2, exchange_rate="390.5",
                     note="Post-it", custom_fields={"Projekt": "Webshop"}, processed=True,
                     artifact=artifact(), source="szamlazz.hu")["id"]
    b = make_expense(api, partner_name="Béta Bt.", invoice_number="B-1",
                     due_at=str(TODAY + timedelta(days=3)), payment_method="cash")["id"]
    twin = make_expense(api, partner_name="Béta Bt.", invoice_number="B-1")["id"]
    api.post("/1/expenses/approve/", json={"ids": [a]})
    api.post("/1/expenses/export/", json={"ids": [a]})
    requests.post(f"{api.base}/_sandbox/expenses/{a}/state/", timeout=10,
                  json={"accounting_todo": "Ellenőrizni", "created_at": "2026-01-05T08:00:00Z"})
    requests.post(f"{api.base}/_sandbox/expenses/{b}/state/", timeout=10,
                  json={"user_saw": "2026-02-01T08:00:00Z", "updated_at": None})
    requests.post(f"{api.base}/_sandbox/documents/", timeout=10, json={
        "company_id": api.company.id, "attached_to": {"type": "expense", "id": a}})
    return {"A": a, "B": b, "twin": twin, "tag": tag, "type": ecat.expense_types[0]}


def ids_of(body) -> list[int]:
    """Expense ids of a /2/expenses answer, in order."""
    results = body["results"]
    return [e["id"] for e in (results["expenses"] if isinstance(results, dict) else results)]


def names(pair, body) -> list[str]:
    """Which of A and B the answer lists, in order."""
    by_id = {pair["A"]: "A", pair["B"]: "B"}
    return [by_id[i] for i in ids_of(body) if i in by_id]


def test_detail_carries_every_live_key_with_its_type(api, pair):
    settle(api, pair["A"], 3)
    set_state(api, pair["A"], user_saw="2026-02-02T10:00:00Z")
    body = detail(api, pair["A"])
    filled = {**body, "delivered_at": "x", "accounting_period_start": "x",
              "accounting_period_end": "x", "integration_payment_method": "x"}
    problems = shape_problems(filled, _detail_shape())
    assert problems == []
    assert body["exchange_rate"] == "390.500000"
    assert body["assignments"][0]["tags"] == [{"id": pair["tag"], "name": body["assignments"][0][
        "tags"][0]["name"]}]


def test_list_records_carry_every_live_key_with_its_type(api, pair):
    settle(api, pair["A"], 3)
    body = api.get("/2/expenses/", params={"ids": pair["A"]}).json()
    record = body["results"]["expenses"][0]
    for key in ("delivered_at", "accounting_period_start", "accounting_period_end",
                "integration_payment_method", "user_saw"):
        record[key] = record[key] or "x"  # keys the sandbox sends as null until set
    problems = shape_problems(body, _list_shape())
    assert [p for p in problems if not p.startswith(("next", "previous"))] == []


FILTERS = [
    ({"has_accounting_todo": "true"}, ["A"]), ({"has_accounting_todo": "false"}, ["B"]),
    ({"has_unfinished_accounting_todo": "true"}, ["A"]),
    ({"is_accounting_todo_done": "true"}, []),
    ({"has_approvals": "true"}, ["A"]), ({"is_approved": "false"}, ["B"]),
    ({"has_artifact": "true"}, ["A"]), ({"has_artifact": "false"}, ["B"]),
    ({"has_attachment": "true"}, ["A"]), ({"has_expense_type": "false"}, ["B"]),
    ({"has_post_it": "true"}, ["A"]), ({"is_accounting_exported": "true"}, ["A"]),
    ({"is_duplicate": "true"}, ["B"]), ({"is_duplicate": "false"}, ["A"]),
    ({"is_expired": "true"}, ["A"]), ({"is_expiring": "true"}, ["B"]),
    ({"is_expiring": "true", "expiring_days": "1"}, []),
    ({"expired_days": "30"}, ["A"]), ({"expired_days": "50"}, []),
    ({"is_incomplete": "true"}, ["B"]), ({"is_incomplete": "false"}, ["A"]),
    ({"is_new": "false"}, ["B"]), ({"is_new": "true"}, ["A"]),
    ({"is_processed": "true"}, ["A"]), ({"is_synced": "true"}, ["A"]),
    ({"is_synced": "false"}, ["B"]), ({"is_ready_to_sync": "true"}, ["A"]),
    ({"is_ready_to_acounto_sync": "true"}, []), ({"is_updated": "true"}, ["A"]),
    ({"is_filed": "true"}, ["B", "A"]), ({"is_excluded_from_accounting": "true"}, []),
    ({"is_nav": "false"}, ["B", "A"]), ({"is_paid": "false"}, ["B", "A"]),
    ({"has_accounting_id": "false"}, ["B", "A"]), ({"has_vat_period": "false"}, ["B", "A"]),
    ({"gross_amount_min": "1000"}, ["A"]), ({"gross_amount_max": "1000"}, ["B"]),
    ({"ids": "A"}, ["A"]), ({"without_ids": "A"}, ["B"]),
    ({"currency_id": "2"}, ["A"]), ({"currency_id": "1"}, ["B"]),
    ({"with_tag_ids": "tag"}, ["A"]), ({"without_tag_ids": "tag"}, ["B"]),
    ({"with_expense_type_ids": "type"}, ["A"]), ({"without_expense_type_ids": "type"}, ["B"]),
    ({"payment_method": "card"}, ["A"]), ({"payment_method": "cash,transfer"}, ["B"]),
    ({"payment_method": ["cash", "card"]}, ["B", "A"]),
    ({"vat_area": "EU"}, ["A"]), ({"origin": "manual"}, ["B"]),
    ({"with_approvers": "Admin User"}, ["A"]), ({"without_approvers": "Admin User"}, ["B"]),
    ({"custom_fields": "Projekt:Webshop"}, ["A"]), ({"search": "alfa"}, ["A"]),
    ({"search": "a-1", "search_fields": "partner_name"}, []),
    ({"ordering": "invoice_number"}, ["A", "B"]), ({"ordering": "-invoice_number"}, ["B", "A"]),
    ({"unknown_filter": "1"}, ["B", "A"]),
]


@pytest.mark.parametrize(("params", "expected"), FILTERS)
def test_every_documented_filter_excludes_what_it_should(api, pair, params, expected):
    params = {k: (str(pair[v]) if isinstance(v, str) and v in pair else v)
              for k, v in params.items()}
    body = api.get("/2/expenses/", params={**params, "page_size": 100}).json()
    assert names(pair, body) == expected


@pytest.mark.parametrize("params", [{"is_new": "maybe"}, {"ids": "x"},
                                    {"gross_amount_min": "sok"}, {"payment_method": "barter"},
                                    {"ordering": "colour"}, {"custom_fields": "nocolon"},
                                    {"search_fields": "note"}])
def test_malformed_filter_is_a_400(api, params):
    resp = api.get("/2/expenses/", params=params)
    assert resp.status_code == 400 and set(params) <= set(resp.json())


def test_page_returns_that_page_not_page_one_again(api, ecat):
    made = [make_expense(api, invoice_number=f"P-{n}")["id"] for n in range(5)]
    pages = [ids_of(api.get("/2/expenses/", params={"page": n, "page_size": 2}).json())
             for n in (1, 2, 3)]
    assert pages == [made[4:2:-1], made[2:0:-1], made[:1]]


def test_update_takes_accounting_id_and_the_vat_period_pair(api, make_company):
    office = Api(api.base, make_company(enable_accounting_id=True, enable_vat_period=True))
    expense = make_expense(office)["id"]
    resp = office.patch(f"/2/expenses/{expense}/update/", json={
        "accounting_id": "K-77", "vat_period_type": "quarterly",
        "vat_period_started_at": "2026-01-01"})
    assert resp.status_code == 200, resp.text
    got = detail(office, expense)
    assert (got["accounting_id"], got["vat_period_type"], got["vat_period_started_at"]) == \
        ("K-77", "quarterly", "2026-01-01")
    alone = office.patch(f"/2/expenses/{expense}/update/", json={"vat_period_started_at": None})
    assert alone.status_code == 400 and "vat_period_started_at" in alone.json()


def test_accounting_id_is_refused_where_the_company_does_not_use_it(api):
    expense = make_expense(api)["id"]
    resp = api.patch(f"/2/expenses/{expense}/update/", json={"accounting_id": "K-1"})
    assert resp.status_code == 400 and "accounting_id" in resp.json()


@pytest.fixture
def v1_pair(api, pair, ecat):
    """pair, with B in quarantine, partially paid and carrying another tag as a simple tag only;
    A's partner and filing number noted."""
    set_state(api, pair["B"], quarantined=True, paid_status=3)
    resp = api.patch(f"/2/expenses/{pair['B']}/update/", json={"simple_tags": [ecat.tags[1]]})
    assert resp.status_code == 200, resp.text
    a = detail(api, pair["A"])
    return {**pair, "simple": ecat.tags[1], "partner": a["partner"]["id"],
            "filing": a["filing_number"]}


# /1/expenses reads a name /2/ shares as /2/ does, one /1/incomes shares as that list does, and
# ignores /2/'s other filters, which its live description does not list.
V1_FILTERS = [
    ({"is_approved": "true"}, ["A"]), ({"is_approved": "false"}, ["B"]),
    ({"is_exported": "true"}, ["A"]), ({"is_exported": "false"}, ["B"]),
    ({"is_due_soon": "true"}, ["B"]), ({"is_due_soon": "false"}, ["A"]),
    ({"is_expired": "true"}, ["A"]), ({"is_expired": "false"}, ["B"]),
    ({"is_incomplete": "true"}, ["B"]), ({"is_incomplete": "false"}, ["A"]),
    ({"is_new": "true"}, ["A"]), ({"is_new": "false"}, ["B"]),
    ({"is_processed": "true"}, ["A"]), ({"is_processed": "false"}, ["B"]),
    ({"is_excluded_from_accounting": "true"}, []),
    ({"is_excluded_from_accounting": "false"}, ["B", "A"]),
    ({"needs_review": "true"}, ["B"]), ({"needs_review": "false"}, ["A"]),
    ({"paid_status": "3"}, ["B"]), ({"paid_status": ["1", "2"]}, ["A"]),
    ({"partner": "partner"}, ["A"]), ({"expense_types": "type"}, ["A"]),
    ({"tags": "tag"}, ["A"]), ({"tags": "simple"}, ["B"]),
    ({"payment_method": "card"}, ["A"]), ({"payment_method": "cash,transfer"}, ["B"]),
    ({"invoice_number": "A-1"}, ["A"]), ({"filing_number": "filing"}, ["A"]),
    ({"due_at": str(TODAY + timedelta(days=3))}, ["B"]), ({"fulfilled_at": "2026-01-04"}, ["A"]),
    ({"created": "2026-01-05"}, ["A"]),
    ({"from_date": "2026-01-05", "to_date": "2026-01-05"}, ["A"]),
    ({"date_field": "due_at", "from_date": str(TODAY)}, ["B"]),
    ({"date_field": "created_at", "to_date": "2026-01-05"}, ["A"]),
    ({"ordering": "invoice_number"}, ["A", "B"]), ({"ordering": "-invoice_number"}, ["B", "A"]),
    ({"ordering": "colour"}, ["B", "A"]),
    ({"is_paid": "true"}, ["B", "A"]), ({"ids": "A"}, ["B", "A"]), ({"search": "alfa"}, ["B", "A"]),
    ({"is_accounting_exported": "true"}, ["B", "A"]), ({"unknown_filter": "1"}, ["B", "A"]),
]


@pytest.mark.parametrize(("params", "expected"), V1_FILTERS)
def test_every_v1_filter_excludes_what_it_should(api, v1_pair, params, expected):
    params = {k: (str(v1_pair[v]) if isinstance(v, str) and v in v1_pair else v)
              for k, v in params.items()}
    resp = api.get("/1/expenses/", params={**params, "page_size": 100})
    assert resp.status_code == 200, resp.text
    by_id = {v1_pair["A"]: "A", v1_pair["B"]: "B"}
    assert [by_id[e["id"]] for e in resp.json()["results"] if e["id"] in by_id] == expected


def test_v1_filter_table_covers_every_live_parameter():
    listed = set(live_operation("GET", "/1/expenses")["query"]) - {"page", "page_size", "format",
                                                                     "fields"}
    assert listed <= {name for params, _ in V1_FILTERS for name in params}


@pytest.mark.parametrize("params", [
    {"is_due_soon": "maybe"}, {"needs_review": "2"}, {"paid_status": "x"}, {"partner": "Alfa"},
    {"tags": "x"}, {"expense_types": "x"}, {"payment_method": "barter"}, {"due_at": "holnap"},
    {"created": "2026-13-01"}, {"from_date": "tegnap"}, {"date_field": "colour"}])
def test_malformed_v1_filter_is_a_400(api, params):
    resp = api.get("/1/expenses/", params=params)
    assert resp.status_code == 400 and set(params) <= set(resp.json())
