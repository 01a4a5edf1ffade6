"""Every comparison, through evaluate(): which incomes a single-condition policy matches."""

import pytest

from app.policies.engine import evaluate
from app.policies.validate import empty_config

INCOME = {
    "partner_name": "Acme Kft.",
    "partner_tax_number": "12345678-2-41",
    "invoice_number": "INV-2024/001",
    "note": "March retainer",
    "currency": 2,
    "vat_area": "HU",
    "net_amount": "10000.00",
    "vat_amount": "2700.00",
    "gross_amount": "12700.00",
    "type": 1,
}
CURRENCIES = {1: "HUF", 2: "EUR"}


def matches(field, op, value, income=INCOME, match="all"):
    condition = {"field": field, "op": op, "value": value}
    policy = {"name": "P", "match": match, "conditions": [condition], "set": {"tags": [1]}}
    outcome = evaluate({**empty_config(), "policies": [policy]}, income, CURRENCIES)
    return outcome.matched == [0]


@pytest.mark.parametrize(
    "value,expected", [("acme kft.", True), ("ACME KFT.", True), ("Acme", False)]
)
def test_equals_is_whole_text_and_case_insensitive(value, expected):
    assert matches("partner_name", "equals", value) is expected


@pytest.mark.parametrize("value,expected", [("acme kft.", False), ("Beta", True)])
def test_not_equals_is_the_negation_of_equals(value, expected):
    assert matches("partner_name", "not_equals", value) is expected


@pytest.mark.parametrize("value,expected", [("RETAIN", True), ("april", False)])
def test_contains_is_case_insensitive(value, expected):
    assert matches("note", "contains", value) is expected


@pytest.mark.parametrize("value,expected", [("RETAIN", False), ("april", True)])
def test_not_contains_is_the_negation_of_contains(value, expected):
    assert matches("note", "not_contains", value) is expected


@pytest.mark.parametrize("value,expected", [("inv-2024", True), ("2024", False)])
def test_starts_with(value, expected):
    assert matches("invoice_number", "starts_with", value) is expected


@pytest.mark.parametrize("value,expected", [("/001", True), ("INV", False)])
def test_ends_with(value, expected):
    assert matches("invoice_number", "ends_with", value) is expected


@pytest.mark.parametrize(
    "pattern,expected",
    [(r"^inv-\d{4}/", True), (r"\d{3}$", True), (r"^\d", False), (r"\D{3}-", True)],
)
def test_regex_searches_case_insensitively_without_folding_escapes(pattern, expected):
    assert matches("invoice_number", "regex", pattern) is expected


@pytest.mark.parametrize("value,expected", [(["HUF", "eur"], True), (["USD"], False)])
def test_in_matches_any_listed_text_ignoring_case(value, expected):
    assert matches("currency", "in", value) is expected


def test_in_matches_any_listed_number():
    assert matches("type", "in", [2, 1]) is True
    assert matches("type", "in", [2, 6, 7]) is False


@pytest.mark.parametrize(
    "op,value,expected",
    [
        ("gt", "12699.99", True),
        ("gt", "12700", False),
        ("gte", "12700", True),
        ("gte", "12700.01", False),
        ("lt", 12700.01, True),
        ("lt", 12700, False),
        ("lte", "12700.00", True),
        ("lte", "12699.99", False),
        ("equals", 12700, True),
        ("equals", "12700.001", False),
        ("not_equals", "12700", False),
        ("not_equals", "1", True),
    ],
)
def test_numeric_comparisons_use_exact_decimals(op, value, expected):
    assert matches("gross_amount", op, value) is expected


@pytest.mark.parametrize(
    "bounds,expected",
    [([12700, 20000], True), ([0, "12700.00"], True), (["12700.01", 20000], False)],
)
def test_between_is_inclusive(bounds, expected):
    assert matches("gross_amount", "between", bounds) is expected


def test_net_amount_and_type_are_numeric_fields():
    assert matches("net_amount", "lt", 10001) is True
    assert matches("type", "equals", "1") is True


def test_tax_numbers_match_with_or_without_dashes():
    assert matches("partner_tax_number", "equals", "12345678-2-41") is True
    assert matches("partner_tax_number", "equals", "12345678241") is True
    assert matches("partner_tax_number", "starts_with", "1234 5678") is True


def test_vat_area_and_source_are_text_fields():
    assert matches("vat_area", "equals", "hu") is True
    assert matches("source", "equals", "Manual") is True


def test_missing_text_is_empty_so_only_negative_ops_match():
    income = {"gross_amount": "1.00"}
    assert matches("note", "contains", "x", income) is False
    assert matches("note", "not_contains", "x", income) is True
    assert matches("note", "equals", "", income) is True


def test_missing_amount_fails_every_numeric_comparison_except_not_equals():
    income = {"note": "no amounts"}
    for op, value in [("gt", 0), ("lte", 0), ("equals", 0), ("between", [-1, 1]), ("in", [0])]:
        assert matches("net_amount", op, value, {**income, "net_amount": None}) is False
    assert matches("net_amount", "not_equals", 0, {**income, "net_amount": None}) is True


def test_unknown_currency_id_matches_no_code():
    assert matches("currency", "equals", "EUR", {**INCOME, "currency": 99}) is False


def test_all_needs_every_condition_and_any_needs_one():
    conditions = [
        {"field": "note", "op": "contains", "value": "retainer"},
        {"field": "currency", "op": "equals", "value": "HUF"},
    ]
    for match, expected in [("all", []), ("any", [0])]:
        policy = {"name": "P", "match": match, "conditions": conditions, "set": {"tags": [1]}}
        config = {**empty_config(), "policies": [policy]}
        assert evaluate(config, INCOME, CURRENCIES).matched == expected


def test_policy_without_conditions_matches_every_income_in_either_mode():
    for match in ("all", "any"):
        policy = {"name": "P", "match": match, "conditions": [], "set": {"tags": [1]}}
        assert evaluate({**empty_config(), "policies": [policy]}, {}).matched == [0]
