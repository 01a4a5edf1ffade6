"""validate(): what a policy sets, and splits that must cover the whole income."""

import pytest

from app.policies import labels as M
from app.policies.validate import empty_config, validate

SET = ("policies", 0, "set")
SPLIT = SET + ("split",)


def problems_for(actions):
    rule = {"name": "R", "conditions": [{"field": "note", "op": "contains", "value": "x"}]}
    config = {**empty_config(), "policies": [{**rule, "set": actions}]}
    return [(p.path, p.message, p.level) for p in validate(config)]


def test_set_must_be_an_object():
    assert problems_for([1]) == [(SET, M.SET_NOT_OBJECT, "error")]


@pytest.mark.parametrize("actions", [None, {}, {"revenue_type": None, "tags": None}])
def test_a_policy_that_sets_nothing_is_a_warning(actions):
    assert problems_for(actions) == [(SET, M.SETS_NOTHING, "warning")]


@pytest.mark.parametrize("key", ["revenue_type", "ledger_number"])
@pytest.mark.parametrize("value", [3, "New name"])
def test_references_are_ids_or_names(key, value):
    assert problems_for({key: value}) == []


@pytest.mark.parametrize("key", ["revenue_type", "ledger_number"])
@pytest.mark.parametrize("value", [0, -1, True, "  ", 1.5, {"id": 1}])
def test_references_must_be_positive_ids_or_non_blank_names(key, value):
    assert problems_for({key: value}) == [(SET + (key,), M.REF_INVALID, "error")]


def test_job_number_must_be_text():
    assert problems_for({"job_number": "J-7"}) == []
    assert problems_for({"job_number": 7}) == [
        (SET + ("job_number",), M.JOB_NUMBER_INVALID, "error")
    ]


def test_tags_must_be_a_list():
    assert problems_for({"tags": "vip"}) == [(SET + ("tags",), M.TAGS_NOT_LIST, "error")]


def test_each_tag_is_an_id_or_a_name():
    assert problems_for({"tags": [1, "vip", 0, ""]}) == [
        (SET + ("tags", 2), M.TAG_INVALID, "error"),
        (SET + ("tags", 3), M.TAG_INVALID, "error"),
    ]


def test_empty_tag_list_is_allowed_and_clears_tags():
    assert problems_for({"tags": []}) == []


@pytest.mark.parametrize("split", [[], {}, "50/50"])
def test_split_needs_a_list_of_parts(split):
    assert problems_for({"split": split}) == [(SPLIT, M.SPLIT_EMPTY, "error")]


def test_split_part_must_be_an_object():
    assert problems_for({"split": [{"percent": 100}, 5]}) == [
        (SPLIT + (1,), M.PART_NOT_OBJECT, "error")
    ]


def test_a_part_with_both_a_percent_and_an_amount_is_told_not_both():
    part = {"percent": 50, "amount": "10.00"}
    assert problems_for({"split": [part]}) == [(SPLIT + (0,), M.PART_KIND, "error")]


@pytest.mark.parametrize("part", [{"revenue_type": 1}, {"percent": None, "amount": None}])
def test_a_part_with_neither_a_percent_nor_an_amount_is_asked_for_one(part):
    assert problems_for({"split": [part]}) == [(SPLIT + (0,), M.PART_EMPTY, "error")]


def test_percents_must_add_up_to_100():
    problems = problems_for({"split": [{"percent": 60}, {"percent": "30.5"}]})
    assert problems == [(SPLIT, M.PERCENT_SUM, "error")]


def test_percent_sum_message_shows_the_total():
    rule = {"name": "R", "set": {"split": [{"percent": 60}, {"percent": "30.50"}]}}
    problems = validate({**empty_config(), "policies": [rule]})
    (problem,) = [p for p in problems if p.message == M.PERCENT_SUM]
    assert problem.text() == "The percents add up to 90.5; they must add up to exactly 100."


def test_percents_with_decimals_adding_up_to_100_are_valid():
    parts = [{"percent": "33.33"}, {"percent": "33.33"}, {"percent": "33.34"}]
    assert problems_for({"split": parts}) == []


@pytest.mark.parametrize("percent", [0, -10, 101, "x", True])
def test_a_percent_is_more_than_0_and_at_most_100(percent):
    problems = problems_for({"split": [{"percent": percent}, {"percent": 100}]})
    assert problems[0] == (SPLIT + (0, "percent"), M.PERCENT_RANGE, "error")


def test_an_invalid_percent_does_not_also_report_a_wrong_sum():
    assert problems_for({"split": [{"percent": "x"}, {"percent": 100}]}) == [
        (SPLIT + (0, "percent"), M.PERCENT_RANGE, "error")
    ]


@pytest.mark.parametrize("amount", [0, "0.00", "-5.00", "abc", False])
def test_an_amount_is_more_than_0(amount):
    assert problems_for({"split": [{"amount": amount}]}) == [
        (SPLIT + (0, "amount"), M.AMOUNT_NOT_POSITIVE, "error")
    ]


@pytest.mark.parametrize("amount", ["10.001", 0.125, "1e-3"])
def test_an_amount_has_at_most_two_decimal_places(amount):
    assert problems_for({"split": [{"amount": amount}]}) == [
        (SPLIT + (0, "amount"), M.AMOUNT_PLACES, "error")
    ]


@pytest.mark.parametrize("amount", ["10.50", "10.500", 10, 10.5, "1E+3"])
def test_amounts_with_up_to_two_significant_decimals_are_valid(amount):
    assert problems_for({"split": [{"amount": amount}]}) == []


def test_amount_parts_alone_are_valid_because_the_gross_is_only_known_per_income():
    assert problems_for({"split": [{"amount": "100.00"}, {"amount": "50.00"}]}) == []


def test_amounts_plus_percent_parts_for_the_rest_are_valid():
    parts = [{"amount": "100.00"}, {"percent": 70}, {"percent": 30}]
    assert problems_for({"split": parts}) == []


def test_split_parts_check_their_own_targets():
    parts = [{"percent": 100, "revenue_type": 0, "tags": "x", "job_number": 1}]
    assert problems_for({"split": parts}) == [
        (SPLIT + (0, "revenue_type"), M.REF_INVALID, "error"),
        (SPLIT + (0, "job_number"), M.JOB_NUMBER_INVALID, "error"),
        (SPLIT + (0, "tags"), M.TAGS_NOT_LIST, "error"),
    ]
