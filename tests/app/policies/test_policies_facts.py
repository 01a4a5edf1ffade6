"""facts_from_income(): the flat values conditions look at, from list and detail shapes."""

from decimal import Decimal

from app.policies.engine import facts_from_income
from app.policies.labels import FIELDS

LIST_SHAPE = {
    "id": 9,
    "partner": 4,
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


def test_list_shape_income_gives_every_condition_field():
    facts = facts_from_income(LIST_SHAPE, {1: "HUF", 2: "EUR"})
    assert facts == {
        "partner_name": "Acme Kft.",
        "partner_tax_number": "12345678241",
        "invoice_number": "INV-2024/001",
        "note": "March retainer",
        "currency": "EUR",
        "vat_area": "HU",
        "gross_amount": Decimal("12700.00"),
        "net_amount": Decimal("10000.00"),
        "type": Decimal(1),
        "source": "manual",
    }
    assert set(facts) == set(FIELDS)


def test_detail_shape_currency_object_is_resolved_by_id_then_name():
    income = {"currency": {"id": 2, "name": "EUR"}}
    assert facts_from_income(income, {2: "USD"})["currency"] == "USD"
    assert facts_from_income(income)["currency"] == "EUR"


def test_currency_given_as_a_code_is_used_upper_case():
    assert facts_from_income({"currency": "huf"})["currency"] == "HUF"


def test_currency_id_without_a_catalogue_entry_is_unknown():
    assert facts_from_income({"currency": 7}, {1: "HUF"})["currency"] is None
    assert facts_from_income({"currency": 7})["currency"] is None


def test_currency_id_as_a_digit_string_is_looked_up():
    assert facts_from_income({"currency": "1"}, {1: "HUF"})["currency"] == "HUF"


def test_income_type_comes_from_type_or_income_type():
    assert facts_from_income({"type": 6})["type"] == 6
    assert facts_from_income({"income_type": 2})["type"] == 2
    assert facts_from_income({"type": {"id": 7, "name": "collective"}})["type"] == 7
    assert facts_from_income({})["type"] is None


def test_missing_source_means_manual():
    assert facts_from_income({})["source"] == "manual"
    assert facts_from_income({"source": ""})["source"] == "manual"
    assert facts_from_income({"source": "szamlazz"})["source"] == "szamlazz"


def test_partner_object_fills_partner_name_and_tax_number():
    income = {"partner": {"id": 4, "name": "Beta Zrt.", "tax_number": "87654321-1-13"}}
    facts = facts_from_income(income)
    assert (facts["partner_name"], facts["partner_tax_number"]) == ("Beta Zrt.", "87654321113")


def test_amounts_are_decimals_and_unparseable_ones_are_unknown():
    facts = facts_from_income({"gross_amount": "12.50", "net_amount": "n/a"})
    assert facts["gross_amount"] == Decimal("12.50")
    assert facts["net_amount"] is None


def test_missing_text_fields_are_none():
    facts = facts_from_income({})
    assert [facts[f] for f in ("partner_name", "note", "vat_area", "invoice_number")] == [None] * 4


def test_numeric_invoice_number_is_read_as_text():
    assert facts_from_income({"invoice_number": 1001})["invoice_number"] == "1001"
