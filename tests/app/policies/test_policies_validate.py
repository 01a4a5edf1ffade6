"""validate(): configuration-level, rule-level and "set"-level problems."""

import copy

import pytest

from app.policies import labels as M
from app.policies.validate import empty_config, has_errors, validate


def policy(**overrides):
    base = {
        "name": "Acme",
        "enabled": True,
        "match": "all",
        "conditions": [{"field": "partner_name", "op": "contains", "value": "acme"}],
        "set": {"revenue_type": 5},
    }
    return {**base, **overrides}


def config(*policies, ignore=(), **top):
    return {**empty_config(), "policies": list(policies), "ignore_policies": list(ignore), **top}


def found(problems):
    """(path, message, level) triples, for exact assertions."""
    return [(p.path, p.message, p.level) for p in problems]


def test_null_config_means_no_policies_and_is_valid():
    assert validate(None) == []


def test_empty_config_is_valid():
    assert validate(empty_config()) == []


def test_a_complete_config_has_no_problems():
    split = [{"amount": "1000.50", "revenue_type": "Fees"}, {"percent": 100, "tags": [1, "x"]}]
    full = config(
        policy(set={"revenue_type": 5, "job_number": "J-1", "ledger_number": "Sales", "tags": [1]}),
        policy(name="Split", match="any", set={"split": split}),
        ignore=[{"name": "Tests", "enabled": False, "conditions": [policy()["conditions"][0]]}],
        skip_for_multiple_match=True,
    )
    assert validate(full) == []


def test_config_that_is_not_an_object_is_an_error():
    assert found(validate([])) == [((), M.CONFIG_NOT_OBJECT, "error")]


def test_missing_version_is_an_error():
    assert found(validate({"policies": []})) == [(("v",), M.VERSION_MISSING, "error")]


@pytest.mark.parametrize("version", [1, 3, True])
def test_only_version_2_is_supported(version):
    problems = validate({**empty_config(), "v": version})
    assert found(problems) == [(("v",), M.VERSION_UNSUPPORTED, "error")]
    assert problems[0].params == {"found": str(version)}


@pytest.mark.parametrize("version", ["2", "3"])
def test_a_version_given_as_text_is_told_it_must_be_the_number(version):
    (problem,) = validate({**empty_config(), "v": version})
    assert (problem.path, problem.message, problem.params) == (
        ("v",), M.VERSION_NOT_NUMBER, {"found": version})
    assert problem.text() == f'The format version must be the number 2 ("v": 2), not the text ' \
        f'"{version}".'


def test_multiple_match_switch_must_be_boolean():
    problems = validate(config(skip_for_multiple_match="yes"))
    assert found(problems) == [(("skip_for_multiple_match",), M.NOT_BOOL, "error")]


@pytest.mark.parametrize("key", ["policies", "ignore_policies"])
def test_rule_lists_must_be_lists(key):
    assert found(validate({**empty_config(), key: {}})) == [((key,), M.NOT_LIST, "error")]


def test_missing_rule_lists_mean_no_rules():
    assert validate({"v": 2}) == []


def test_rule_that_is_not_an_object_is_an_error():
    assert found(validate(config("Acme"))) == [(("policies", 0), M.RULE_NOT_OBJECT, "error")]


@pytest.mark.parametrize("name", ["", "   ", None, 5])
def test_rule_needs_a_text_name(name):
    assert found(validate(config(policy(name=name)))) == [
        (("policies", 0, "name"), M.NAME_MISSING, "error")
    ]


def test_ignore_rule_needs_a_name_too():
    rule = {"conditions": policy()["conditions"]}
    assert found(validate(config(ignore=[rule]))) == [
        (("ignore_policies", 0, "name"), M.NAME_MISSING, "error")
    ]


def test_duplicate_policy_names_are_a_warning_ignoring_case():
    problems = validate(config(policy(), policy(name="ACME")))
    assert found(problems) == [(("policies", 1, "name"), M.NAME_DUPLICATE, "warning")]
    assert problems[0].params == {"name": "ACME"}
    assert not has_errors(problems)


def test_a_policy_and_an_ignore_rule_may_share_a_name():
    ignore = {"name": "Acme", "conditions": policy()["conditions"]}
    assert validate(config(policy(), ignore=[ignore])) == []


def test_enabled_must_be_boolean():
    assert found(validate(config(policy(enabled="no")))) == [
        (("policies", 0, "enabled"), M.NOT_BOOL, "error")
    ]


def test_match_must_be_all_or_any():
    assert found(validate(config(policy(match="some")))) == [
        (("policies", 0, "match"), M.MATCH_INVALID, "error")
    ]


def test_enabled_and_match_may_be_left_out():
    rule = policy()
    del rule["enabled"], rule["match"]
    assert validate(config(rule)) == []


def test_policy_without_conditions_is_a_warning_that_it_matches_everything():
    assert found(validate(config(policy(conditions=[])))) == [
        (("policies", 0, "conditions"), M.NO_CONDITIONS, "warning")
    ]


def test_ignore_rule_without_conditions_is_an_error():
    problems = validate(config(ignore=[{"name": "All", "conditions": []}]))
    assert found(problems) == [
        (("ignore_policies", 0, "conditions"), M.IGNORE_NO_CONDITIONS, "error")
    ]


def test_conditions_must_be_a_list():
    assert found(validate(config(policy(conditions={})))) == [
        (("policies", 0, "conditions"), M.NOT_LIST, "error")
    ]


def test_unknown_keys_are_warnings_at_every_level_and_never_errors():
    rule = policy(colour="red")
    rule["conditions"][0]["hint"] = 1
    rule["set"] = {"revenue_type": 5, "x": 1, "split": [{"percent": 100, "y": 2}]}
    problems = validate(config(rule, future=True))
    assert found(problems) == [
        (("future",), M.UNKNOWN_KEY, "warning"),
        (("policies", 0, "colour"), M.UNKNOWN_KEY, "warning"),
        (("policies", 0, "conditions", 0, "hint"), M.UNKNOWN_KEY, "warning"),
        (("policies", 0, "set", "x"), M.UNKNOWN_KEY, "warning"),
        (("policies", 0, "set", "split", 0, "y"), M.UNKNOWN_KEY, "warning"),
    ]
    assert problems[0].params == {"key": "future"}


def test_set_on_an_ignore_rule_is_only_an_unknown_key():
    ignore = {"name": "Tests", "conditions": policy()["conditions"], "set": {"tags": [1]}}
    assert found(validate(config(ignore=[ignore]))) == [
        (("ignore_policies", 0, "set"), M.UNKNOWN_KEY, "warning")
    ]


def test_validate_does_not_change_the_config():
    original = config(policy(colour="red", set={"split": [{"percent": 60}, {"percent": 40}]}))
    kept = copy.deepcopy(original)
    validate(original)
    assert original == kept


def test_problem_text_fills_in_params_and_uses_the_given_gettext():
    problem = validate(config(policy(), policy()))[0]
    assert problem.text() == "Another rule is already called Acme; give each rule its own name."
    hungarian = {M.NAME_DUPLICATE: "Már van %(name)s nevű szabály."}
    assert problem.text(hungarian.get) == "Már van Acme nevű szabály."
