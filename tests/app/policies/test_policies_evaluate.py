"""evaluate(): ignore rules, disabled policies, multiple matches and the resulting assignments."""

import copy

import pytest

from app.policies import labels as M
from app.policies.engine import Outcome, evaluate
from app.policies.validate import InvalidConfig, empty_config

INCOME = {
    "id": 9,
    "partner_name": "Acme Kft.",
    "note": "March retainer",
    "currency": 1,
    "net_amount": "10000.00",
    "vat_amount": "2700.00",
    "gross_amount": "12700.00",
}
ACME = [{"field": "partner_name", "op": "contains", "value": "acme"}]
RETAINER = [{"field": "note", "op": "contains", "value": "retainer"}]


def policy(name, conditions=ACME, **actions):
    return {"name": name, "enabled": True, "match": "all", "conditions": conditions, "set": actions}


def config(*policies, ignore=(), skip=False):
    base = empty_config()
    return {
        **base,
        "policies": list(policies),
        "ignore_policies": list(ignore),
        "skip_for_multiple_match": skip,
    }


def test_null_config_applies_nothing_and_mirrors_the_totals():
    outcome = evaluate(None, INCOME)
    assert outcome == Outcome(assignments=outcome.assignments, facts=outcome.facts)
    assert outcome.assignments == [
        {
            "revenue_type": None,
            "job_number": None,
            "ledger_number_id": None,
            "tags": [],
            "vat": None,
            "net_amount": "10000.00",
            "vat_amount": "2700.00",
            "gross_amount": "12700.00",
        }
    ]


def test_income_without_assignments_gets_one_mirroring_its_totals_before_policies_run():
    outcome = evaluate(config(policy("Acme", revenue_type=5)), {**INCOME, "assignments": []})
    (assignment,) = outcome.assignments
    assert assignment["revenue_type"] == 5
    assert (assignment["net_amount"], assignment["vat_amount"], assignment["gross_amount"]) == (
        "10000.00",
        "2700.00",
        "12700.00",
    )


def test_mirrored_vat_amount_is_gross_minus_net_when_missing():
    income = {"net_amount": "100", "gross_amount": "127"}
    assert evaluate(None, income).assignments[0]["vat_amount"] == "27.00"


def test_existing_assignments_are_kept_with_references_as_ids():
    existing = {
        "revenue_type": {"id": 3, "name": "Sales"},
        "tags": [{"id": 8, "name": "vip"}, 9],
        "net_amount": "100",
        "vat_amount": "27",
        "gross_amount": "127",
        "vat": {"id": 2, "name": "27%", "percent": 27.0},
        "company_vat_category_id": 4,
    }
    (assignment,) = evaluate(None, {**INCOME, "assignments": [existing]}).assignments
    assert assignment["revenue_type"] == 3
    assert assignment["tags"] == [8, 9]
    assert assignment["gross_amount"] == "127.00"
    assert assignment["vat"] == existing["vat"]
    assert assignment["company_vat_category_id"] == 4


def test_matching_policy_sets_its_fields_on_the_assignment():
    actions = {"revenue_type": 5, "job_number": "J-1", "ledger_number": 12, "tags": [1, 2]}
    outcome = evaluate(config(policy("Acme", **actions)), INCOME)
    assert (outcome.matched, outcome.applied, outcome.needs_review) == ([0], 0, False)
    (assignment,) = outcome.assignments
    assert assignment["revenue_type"] == 5
    assert assignment["job_number"] == "J-1"
    assert assignment["ledger_number_id"] == 12
    assert assignment["tags"] == [1, 2]


def test_set_replaces_tags_and_leaves_fields_it_does_not_name():
    existing = {"revenue_type": 3, "job_number": "OLD", "tags": [7], "gross_amount": "1"}
    outcome = evaluate(
        config(policy("Acme", tags=[1, 1, 2])), {**INCOME, "assignments": [existing]}
    )
    assert outcome.assignments[0]["tags"] == [1, 2]
    assert (outcome.assignments[0]["revenue_type"], outcome.assignments[0]["job_number"]) == (
        3,
        "OLD",
    )


def test_set_applies_to_every_existing_assignment():
    existing = [{"revenue_type": 1, "gross_amount": "1"}, {"revenue_type": 2, "gross_amount": "2"}]
    outcome = evaluate(config(policy("Acme", revenue_type=5)), {**INCOME, "assignments": existing})
    assert [a["revenue_type"] for a in outcome.assignments] == [5, 5]
    assert outcome.changes == {"revenue_type": ([1, 2], 5)}


def test_no_match_leaves_the_income_alone_and_does_not_flag_review():
    outcome = evaluate(
        config(
            policy("Other", conditions=[{"field": "note", "op": "equals", "value": "x"}], tags=[1])
        ),
        INCOME,
    )
    assert (outcome.matched, outcome.applied, outcome.needs_review) == ([], None, False)
    assert outcome.changes == {} and outcome.set_by == {}


def test_disabled_policies_never_match():
    disabled = {**policy("Off", revenue_type=1), "enabled": False}
    outcome = evaluate(config(disabled, policy("On", revenue_type=2)), INCOME)
    assert (outcome.matched, outcome.applied) == ([1], 1)
    assert outcome.assignments[0]["revenue_type"] == 2


def test_first_matching_policy_in_list_order_wins_when_the_switch_is_off():
    outcome = evaluate(config(policy("A", revenue_type=1), policy("B", revenue_type=2)), INCOME)
    assert (outcome.matched, outcome.applied, outcome.skipped_multiple) == ([0, 1], 0, False)
    assert outcome.assignments[0]["revenue_type"] == 1
    assert outcome.needs_review is False


def test_skip_for_multiple_match_applies_nothing_and_flags_review():
    rules = config(policy("A", revenue_type=1), policy("B", RETAINER, revenue_type=2), skip=True)
    outcome = evaluate(rules, INCOME)
    assert (outcome.matched, outcome.applied) == ([0, 1], None)
    assert outcome.skipped_multiple is True and outcome.needs_review is True
    assert outcome.assignments[0]["revenue_type"] is None
    assert outcome.changes == {} and outcome.set_by == {} and outcome.to_create == {}
    assert outcome.review_reason.message == M.REVIEW_MULTIPLE
    assert outcome.review_reason.text() == (
        "More than one rule matches this income, so none was applied: A, B."
    )


def test_skip_for_multiple_match_still_applies_a_single_match():
    outcome = evaluate(config(policy("A", revenue_type=1), skip=True), INCOME)
    assert (outcome.applied, outcome.skipped_multiple, outcome.needs_review) == (0, False, False)


def test_disabled_policy_does_not_count_as_a_second_match():
    off = {**policy("Off", revenue_type=2), "enabled": False}
    outcome = evaluate(config(policy("A", revenue_type=1), off, skip=True), INCOME)
    assert (outcome.matched, outcome.applied) == ([0], 0)


def test_ignore_rule_skips_the_income_before_any_policy_runs():
    ignore = {"name": "Internal", "conditions": RETAINER}
    outcome = evaluate(config(policy("A", revenue_type=1), ignore=[ignore]), INCOME)
    assert (outcome.ignored, outcome.ignored_by) == (True, "Internal")
    assert (outcome.matched, outcome.applied, outcome.needs_review) == ([], None, False)
    assert outcome.assignments[0]["revenue_type"] is None


def test_first_matching_ignore_rule_is_reported():
    ignores = [
        {"name": "Nope", "conditions": [{"field": "note", "op": "equals", "value": "x"}]},
        {"name": "First", "conditions": ACME},
        {"name": "Second", "conditions": RETAINER},
    ]
    assert evaluate(config(ignore=ignores), INCOME).ignored_by == "First"


def test_disabled_ignore_rule_does_not_skip():
    ignore = {"name": "Internal", "enabled": False, "conditions": RETAINER}
    outcome = evaluate(config(policy("A", revenue_type=1), ignore=[ignore]), INCOME)
    assert (outcome.ignored, outcome.applied) == (False, 0)


def test_ignore_rule_with_any_match_needs_one_condition():
    ignore = {
        "name": "I",
        "match": "any",
        "conditions": [*RETAINER, {"field": "note", "op": "equals", "value": "x"}],
    }
    assert evaluate(config(ignore=[ignore]), INCOME).ignored is True


def test_changes_show_before_and_after_and_set_by_names_the_policy():
    outcome = evaluate(config(policy("Acme", revenue_type=5, job_number="J", tags=[])), INCOME)
    assert outcome.changes == {"revenue_type": (None, 5), "job_number": (None, "J")}
    assert outcome.set_by == {"revenue_type": "Acme", "job_number": "Acme", "tags": "Acme"}


def test_policy_that_sets_nothing_still_counts_as_applied():
    outcome = evaluate(config(policy("Acme")), INCOME)
    assert (outcome.applied, outcome.changes, outcome.set_by) == (0, {}, {})


def test_unknown_keys_survive_validate_and_evaluate():
    rule = {**policy("Acme", revenue_type=5), "colour": "red"}
    rule["conditions"] = [{**ACME[0], "hint": "x"}]
    rule["set"]["future_action"] = {"a": 1}
    rules = {**config(rule), "owner": "lead"}
    kept = copy.deepcopy(rules)
    outcome = evaluate(rules, {**INCOME, "assignments": [{"gross_amount": "1", "extra": True}]})
    assert rules == kept
    assert outcome.applied == 0
    assert outcome.assignments[0]["extra"] is True


def test_evaluate_does_not_change_the_income():
    income = {
        **INCOME,
        "assignments": [{"revenue_type": {"id": 3}, "tags": [{"id": 1}], "gross_amount": "5"}],
    }
    kept = copy.deepcopy(income)
    evaluate(config(policy("Acme", revenue_type=5, tags=["x"])), income)
    assert income == kept


def test_invalid_config_raises_with_the_problems():
    bad = config({"name": "", "conditions": [{"field": "colour", "op": "equals", "value": 1}]})
    with pytest.raises(InvalidConfig) as raised:
        evaluate(bad, INCOME)
    assert [p.message for p in raised.value.problems] == [M.NAME_MISSING, M.FIELD_UNKNOWN]
    assert isinstance(raised.value, ValueError)


def test_warnings_do_not_stop_evaluation():
    rules = {**config(policy("A", revenue_type=1), policy("A", RETAINER)), "future": 1}
    assert evaluate(rules, INCOME).applied == 0


def test_facts_are_reported_for_preview():
    outcome = evaluate(None, INCOME, {1: "HUF"})
    assert outcome.facts["currency"] == "HUF"


def test_existing_assignment_missing_an_amount_gets_it_from_the_other_two():
    existing = {"net_amount": "100", "vat_amount": "27", "revenue_type": 3}
    (assignment,) = evaluate(None, {**INCOME, "assignments": [existing]}).assignments
    assert (assignment["gross_amount"], assignment["vat"]) == ("127.00", None)
