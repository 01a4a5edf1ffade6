"""GET /2/expenses (spec 2.3, 4.3, upstream-notes): envelope, list fields, lookup tables."""
import expense_support
import requests
from expense_support import PDF, artifact, assignment, listed_ids, listing, make_expense

ecat = expense_support.ecat  # a fixture, found by name


def test_list_is_cursor_envelope_with_nested_expenses_and_no_count(api, ecat):
    make_expense(api, ecat)
    body = listing(api)
    assert set(body) == {"next", "previous", "results"}
    assert isinstance(body["results"], dict)
    assert [e["id"] for e in body["results"]["expenses"]]


def test_list_follows_next_cursor_until_null_without_gaps(api, ecat):
    made = [make_expense(api, ecat)["id"] for _ in range(5)]
    seen, url = [], f"{api.base}/2/expenses?page_size=2"
    while url:
        page = api.get(url.removeprefix(api.base)).json()
        seen += [e["id"] for e in page["results"]["expenses"]]
        url = page["next"]
    assert seen == sorted(made, reverse=True)


def test_list_previous_cursor_returns_the_page_before(api, ecat):
    for _ in range(4):
        make_expense(api, ecat)
    first = listing(api, page_size=2)
    second = api.get(first["next"].removeprefix(api.base)).json()
    back = api.get(second["previous"].removeprefix(api.base)).json()
    assert [e["id"] for e in back["results"]["expenses"]] == \
        [e["id"] for e in first["results"]["expenses"]]


def test_list_carries_the_fields_seen_live(api, ecat):
    make_expense(api, ecat, secondary_id="EXT-9", invoice_number="INV-1")
    record = listing(api)["results"]["expenses"][0]
    for key in ("filing_number", "created", "accounting_status", "excluded_from_accounting",
                "has_artifact", "secondary_id", "invoice_number", "paid_status", "tags",
                "simple_tags", "assignments", "items", "currency", "partner"):
        assert key in record, key
    assert record["secondary_id"] == "EXT-9"


def test_list_references_are_integer_ids_resolved_by_lookup_tables(api, ecat):
    make_expense(api, ecat, tags=[ecat.tags[0]],
                 assignments=[assignment(ecat, tags=[ecat.tags[1]],
                                         ledger_number=ecat.ledger_numbers[0])])
    results = listing(api)["results"]
    record = results["expenses"][0]
    item = record["assignments"][0]
    assert isinstance(item["expense_type"], int) and isinstance(record["currency"], int)
    assert isinstance(item["ledger_number"], int)
    assert {t["id"] for t in results["tags"]} == {ecat.tags[0], ecat.tags[1]}
    assert results["expense_types"] == [{"id": ecat.expense_types[0],
                                         "name": results["expense_types"][0]["name"]}]
    assert [n["id"] for n in results["ledger_numbers"]] == [ecat.ledger_numbers[0]]
    assert [c["id"] for c in results["currencies"]] == [record["currency"]]


def test_list_assignment_vat_is_object_with_float_percent(api, ecat):
    make_expense(api, ecat, items=[{"name": "Toll", "vat_percent": 27, "net_amount": "10"}])
    record = listing(api)["results"]["expenses"][0]
    vat = record["assignments"][0]["vat"]
    assert vat["id"] == ecat.vats[0] and isinstance(vat["percent"], float)
    assert isinstance(record["items"][0]["vat_percent"], float)


def test_list_artifact_extension_only_when_has_artifact(api, ecat):
    with_file = make_expense(api, ecat, artifact=artifact(PDF))["id"]
    without = make_expense(api, ecat)["id"]
    rows = {e["id"]: e for e in listing(api)["results"]["expenses"]}
    assert rows[with_file]["has_artifact"] is True
    assert rows[with_file]["artifact_extension"] == "pdf"
    assert rows[without]["has_artifact"] is False
    assert "artifact_extension" not in rows[without]


def test_list_top_level_gross_may_be_zero_while_assignments_hold_totals(api, ecat):
    make_expense(api, ecat)
    record = listing(api)["results"]["expenses"][0]
    assert record["gross_amount"] == "0.00"
    assert record["assignments"][0]["gross_amount"] == "1270.00"


def test_list_shows_only_the_token_companys_expenses(api, ecat, make_company, sandbox_url):
    mine = make_expense(api, ecat)["id"]
    other = make_company()
    resp = requests.post(f"{sandbox_url}/_sandbox/expenses/",
                         json={"company_id": other.id}, timeout=10)
    assert resp.status_code == 201
    assert listed_ids(api) == [mine]


def test_list_requires_a_token(api):
    assert api.get("/2/expenses", token=None).status_code == 401


def test_viewer_may_list_expenses(api, ecat):
    make_expense(api, ecat)
    assert api.get("/2/expenses", token="viewer").status_code == 200
