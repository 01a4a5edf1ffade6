"""Reading the spec's and the live service's shapes alike: envelopes, numbers, artifact keys.

Literal JSON in the shapes of upstream-notes ("Live shapes") and live-api-shapes.json; the stub
serves live-keyed artifact records to the areas' own upstream calls.
"""
from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from app.numbers import to_decimal
from app.review.forms import amount as compared_amount
from app.templating import amount as cell_amount
from app.upstream import expenses as expenses_upstream
from app.upstream import incomes as incomes_upstream
from app.upstream.responses import (
    artifact_filenames,
    artifact_owner,
    as_id,
    created_id,
    find_artifact,
    parse_page,
)

RECORD = st.fixed_dictionaries({"id": st.integers(1, 10**9),
                                "gross_amount": st.decimals(-10**9, 10**9, places=2).map(str)})
CENTS = st.integers(-10**13, 10**13).map(lambda cents: Decimal(cents) / 100)

SPEC_ARTIFACT = {"id": 7, "has_artifact": True, "filename": "szamla.pdf", "extension": "pdf",
                 "url": "/files/7?sig=x"}
LIVE_ARTIFACT = {"expense_id": 7, "has_artifact": True, "filename": "szamla.pdf",
                 "extension": "pdf", "url": "/files/7?sig=x"}


@settings(max_examples=200)
@given(st.lists(RECORD, max_size=8), st.sampled_from(["incomes", "expenses"]))
def test_bare_list_flat_results_and_nested_results_read_the_same_records(records, resource):
    bare = parse_page(records, resource)
    flat = parse_page({"count": len(records), "next": None, "results": records}, resource)
    nested = parse_page({"next": None, "results": {resource: records, "tags": []}}, resource)
    assert bare.items == flat.items == nested.items == records


def test_live_expense_list_is_a_bare_list_with_string_amounts():
    body = [{"id": 3, "currency": 1, "exchange_rate": "1.000000", "paid_status": 2,
             "assignments": [{"id": 9, "gross_amount": "1270.00", "tags": [4]}]}]
    page = parse_page(body, "expenses")
    assert page.items == body and page.next is None
    assert to_decimal(page.items[0]["assignments"][0]["gross_amount"]) == Decimal("1270.00")


@settings(max_examples=200)
@given(CENTS)
def test_an_amount_reads_alike_as_a_string_or_a_number(value):
    as_string, as_number = f"{value:.2f}", float(value)
    assert to_decimal(as_string) == to_decimal(as_number) == value
    assert compared_amount(as_string) == compared_amount(as_number)
    assert cell_amount(as_string, "HUF", "hu") == cell_amount(as_number, "HUF", "hu")


@settings(max_examples=200)
@given(st.integers(0, 2**63 - 1))
def test_an_id_reads_alike_as_a_number_or_a_digit_string(number):
    assert as_id(number) == as_id(str(number)) == number


def test_what_is_not_an_id_is_none():
    assert [as_id(v) for v in (True, False, None, "", " ", "1.5", "-3", 2.0, "x1")] == \
        [None] * 9


def test_artifact_records_are_found_by_the_specs_or_lives_key():
    assert artifact_owner(SPEC_ARTIFACT) == artifact_owner(LIVE_ARTIFACT) == 7
    assert artifact_owner({"income_id": "12", "has_artifact": False}) == 12
    assert find_artifact([SPEC_ARTIFACT], 7) is SPEC_ARTIFACT
    assert find_artifact([{"expense_id": 6, "has_artifact": True}, LIVE_ARTIFACT], 7) \
        is LIVE_ARTIFACT
    assert find_artifact([{**LIVE_ARTIFACT, "has_artifact": False}], 7) is None
    assert find_artifact(None, 7) is None
    assert artifact_filenames([LIVE_ARTIFACT, {"id": 8, "filename": "b.png"}]) == \
        {7: "szamla.pdf", 8: "b.png"}


def test_created_expense_id_from_the_record_or_from_lives_processed_list():
    assert created_id({"id": 41, "filing_number": "K-1"}) == 41
    assert created_id({"processed": [42]}) == 42
    assert created_id({"processed": [{"success": True, "id": 43}]}) == 43
    assert created_id({"processed": []}) is None
    assert created_id(None) is None


def test_expense_and_income_artifacts_are_read_from_live_keyed_records(stub, stub_client):
    stub.then(stub.reply(body=[{"expense_id": 5, "has_artifact": True, "filename": "a.pdf"}]),
              stub.reply(body=[{"income_id": 6, "has_artifact": True, "filename": "b.xml"}]))
    assert expenses_upstream.artifact(stub_client, 5)["filename"] == "a.pdf"
    assert incomes_upstream.artifact(stub_client, 6)["filename"] == "b.xml"
