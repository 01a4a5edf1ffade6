"""validate(): conditions need a known field, a known comparison and a value that fits both."""

import pytest
from flask_babel import gettext

from app.policies import labels as M
from app.policies.labels import FIELDS, NUMERIC_FIELDS, OPS, TEXT_FIELDS
from app.policies.validate import empty_config, validate

VALUE = ("policies", 0, "conditions", 0, "value")
OP = ("policies", 0, "conditions", 0, "op")
FIELD = ("policies", 0, "conditions", 0, "field")


def problems_for(condition):
    rule = {"name": "R", "conditions": [condition], "set": {"revenue_type": 1}}
    return [(p.path, p.message) for p in validate({**empty_config(), "policies": [rule]})]


def cond(field, op, value):
    return {"field": field, "op": op, "value": value}


def test_every_field_and_op_is_exported_for_the_editor():
    assert set(FIELDS) == set(TEXT_FIELDS) | set(NUMERIC_FIELDS)
    assert len(OPS) == 13


def test_condition_that_is_not_an_object_is_an_error():
    assert problems_for("partner_name") == [
        (("policies", 0, "conditions", 0), M.CONDITION_NOT_OBJECT)
    ]


@pytest.mark.parametrize("field", [None, ""])
def test_condition_needs_a_field(field):
    assert problems_for(cond(field, "equals", "x")) == [(FIELD, M.FIELD_MISSING)]


@pytest.mark.parametrize("field", ["partner", "gross", 7])
def test_unknown_field_is_an_error(field):
    assert problems_for(cond(field, "equals", "x")) == [(FIELD, M.FIELD_UNKNOWN)]


@pytest.mark.parametrize("op", [None, ""])
def test_condition_needs_an_op(op):
    assert problems_for(cond("note", op, "x")) == [(OP, M.OP_MISSING)]


@pytest.mark.parametrize("op", ["like", "EQUALS", "=="])
def test_unknown_op_is_an_error(op):
    assert problems_for(cond("note", op, "x")) == [(OP, M.OP_UNKNOWN)]


def test_unknown_field_and_op_are_both_reported():
    assert problems_for(cond("colour", "like", "x")) == [
        (FIELD, M.FIELD_UNKNOWN),
        (OP, M.OP_UNKNOWN),
    ]


@pytest.mark.parametrize("op", ["contains", "not_contains", "starts_with", "ends_with", "regex"])
@pytest.mark.parametrize("field", NUMERIC_FIELDS)
def test_text_ops_on_numeric_fields_are_errors(field, op):
    assert problems_for(cond(field, op, "1")) == [(OP, M.TEXT_OP_ON_NUMBER)]


@pytest.mark.parametrize("op", ["gt", "gte", "lt", "lte", "between"])
@pytest.mark.parametrize("field", TEXT_FIELDS)
def test_numeric_ops_on_text_fields_are_errors(field, op):
    assert problems_for(cond(field, op, 1)) == [(OP, M.NUMBER_OP_ON_TEXT)]


@pytest.mark.parametrize("value", [None, 5, ["a"]])
@pytest.mark.parametrize("op", ["equals", "not_equals", "contains", "ends_with"])
def test_text_fields_need_text_values(op, value):
    assert problems_for(cond("partner_name", op, value)) == [(VALUE, M.NEED_TEXT)]


@pytest.mark.parametrize("op", ["contains", "not_contains", "starts_with", "ends_with", "regex"])
def test_searching_for_empty_text_is_an_error(op):
    assert problems_for(cond("note", op, "")) == [(VALUE, M.EMPTY_TEXT)]


def test_equals_empty_text_is_allowed():
    assert problems_for(cond("note", "equals", "")) == []


@pytest.mark.parametrize("value", ["1500", "1500.50", 1500, 1500.5, "-20", "1e3"])
@pytest.mark.parametrize("op", ["equals", "not_equals", "gt", "gte", "lt", "lte"])
def test_numeric_ops_accept_numbers_and_decimal_strings(op, value):
    assert problems_for(cond("gross_amount", op, value)) == []


@pytest.mark.parametrize("value", [None, "", "abc", "1,5", True, "NaN", "Infinity", [1]])
@pytest.mark.parametrize("op", ["equals", "gt", "lte"])
def test_numeric_ops_need_a_number(op, value):
    assert problems_for(cond("net_amount", op, value)) == [(VALUE, M.NEED_NUMBER)]


def test_income_type_is_compared_as_a_number():
    assert problems_for(cond("type", "equals", 2)) == []
    assert problems_for(cond("type", "equals", "invoice")) == [(VALUE, M.NEED_NUMBER)]


@pytest.mark.parametrize("value", [[1, 2], ["100", "100"], [-5, "0.5"]])
def test_between_accepts_two_numbers_lowest_first(value):
    assert problems_for(cond("gross_amount", "between", value)) == []


@pytest.mark.parametrize("value", [[2, 1], [1], [1, 2, 3], "1-2", [1, "x"], None, []])
def test_between_needs_two_values_lowest_first(value):
    assert problems_for(cond("gross_amount", "between", value)) == [(VALUE, M.BETWEEN_INVALID)]


@pytest.mark.parametrize("value", [[], "EUR", None])
def test_in_needs_a_non_empty_list(value):
    assert problems_for(cond("currency", "in", value)) == [(VALUE, M.IN_INVALID)]


def test_in_checks_every_item_against_the_field():
    assert problems_for(cond("type", "in", [1, "x", 6])) == [(VALUE + (1,), M.NEED_NUMBER)]
    assert problems_for(cond("note", "in", ["a", 2])) == [(VALUE + (1,), M.NEED_TEXT)]


@pytest.mark.parametrize("op,value", [("equals", "EUR"), ("not_equals", "huf"), ("in", ["EUR"])])
def test_currency_accepts_three_letter_codes(op, value):
    assert problems_for(cond("currency", op, value)) == []


@pytest.mark.parametrize(
    "op,value,path", [("equals", "1", VALUE), ("in", ["EUR", "euro"], VALUE + (1,))]
)
def test_currency_must_be_a_three_letter_code(op, value, path):
    assert problems_for(cond("currency", op, value)) == [(path, M.CURRENCY_CODE)]


def test_regex_must_compile_and_the_message_says_where():
    rule = {"name": "R", "conditions": [cond("note", "regex", "ab(unclosed")]}
    (problem,) = validate({**empty_config(), "policies": [{**rule, "set": {"tags": [1]}}]})
    assert (problem.path, problem.message) == (VALUE, M.REGEX_INVALID)
    assert problem.text() == ("This is not a valid regular expression: check it near "
                              "character 3.")  # the unclosed "(", in words the page translates


def test_a_mismatched_comparison_names_the_field_and_comparison_in_words(app):
    (problem,) = [p for p in validate({**empty_config(), "policies": [{
        "name": "R", "conditions": [cond("currency", "gt", "EUR")], "set": {"tags": [1]}}]})
        if p.message == M.NUMBER_OP_ON_TEXT]
    assert problem.params == {"field": "currency", "op": "gt"}  # the keys, for the sandbox
    with app.test_request_context("/", headers={"Accept-Language": "hu"}):
        assert problem.text(gettext) == "A(z) „Pénznem” szöveg: a(z) „nagyobb, mint” csak " \
            "összegekre és a bizonylattípusra használható."


def test_regex_needs_text():
    assert problems_for(cond("note", "regex", 5)) == [(VALUE, M.NEED_TEXT)]


def test_valid_regex_passes():
    assert problems_for(cond("invoice_number", "regex", r"^INV-\d{4}/")) == []
