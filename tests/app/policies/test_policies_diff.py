"""diff_configs(): the editor's "what changes" summary."""

import copy

from app.policies import labels as M
from app.policies.editor.history import Change, diff_configs
from app.policies.labels import Catalogs
from app.policies.validate import empty_config

ACME = [{"field": "partner_name", "op": "contains", "value": "acme"}]


def policy(name, **extra):
    return {
        "name": name,
        "enabled": True,
        "match": "all",
        "conditions": ACME,
        "set": {"revenue_type": 1},
        **extra,
    }


def ignore(name, **extra):
    return {"name": name, "conditions": ACME, **extra}


def config(*policies, ignores=(), **top):
    return {**empty_config(), "policies": list(policies), "ignore_policies": list(ignores), **top}


def summary(old, new):
    return [(change.kind, change.params) for change in diff_configs(old, new)]


def test_identical_configs_have_no_changes():
    rules = config(policy("A"), policy("B"), ignores=[ignore("I")])
    assert diff_configs(rules, copy.deepcopy(rules)) == []


def test_null_and_empty_config_are_the_same():
    assert diff_configs(None, empty_config()) == []
    assert diff_configs(None, None) == []


def test_policy_added_and_removed_by_name():
    other = policy("B", conditions=[{"field": "note", "op": "contains", "value": "x"}],
                    set={"revenue_type": 2})
    assert summary(config(policy("A")), config(other)) == [
        ("policy_removed", {"name": "A"}),
        ("policy_added", {"name": "B"}),
    ]


def test_added_policy_message_reads_well():
    (change,) = diff_configs(None, config(policy("Acme fees")))
    assert change == Change("policy_added", M.POLICY_CHANGES["added"], {"name": "Acme fees"})
    assert change.text() == "Rule Acme fees added."


def test_switching_a_policy_off_and_on():
    assert summary(config(policy("A")), config(policy("A", enabled=False))) == [
        ("policy_disabled", {"name": "A"})
    ]
    assert summary(config(policy("A", enabled=False)), config(policy("A"))) == [
        ("policy_enabled", {"name": "A"})
    ]


def test_missing_enabled_counts_as_on():
    rule = policy("A")
    del rule["enabled"]
    assert diff_configs(config(rule), config(policy("A"))) == []


def test_match_mode_change():
    assert summary(config(policy("A")), config(policy("A", match="any"))) == [
        ("policy_match_any", {"name": "A"})
    ]
    assert summary(config(policy("A", match="any")), config(policy("A"))) == [
        ("policy_match_all", {"name": "A"})
    ]


def test_conditions_and_actions_changes_are_told_apart():
    other_conditions = [{"field": "note", "op": "contains", "value": "x"}]
    changed = policy("A", conditions=other_conditions, set={"revenue_type": 2})
    assert summary(config(policy("A")), config(changed)) == [
        ("policy_conditions", {"name": "A"}),
        ("policy_sets", {"name": "A", "target": "Revenue type", "old": "#1", "new": "#2"}),
    ]


def test_what_a_policy_sets_is_named_before_and_after_from_the_catalogues():
    catalogs = Catalogs.from_lists({
        "revenue_types": [{"id": 1, "name": "Termék"}, {"id": 2, "name": "Szolgáltatás"}],
        "ledger_numbers": [{"id": 7, "code": "911", "name": "Belföldi árbevétel"}]})
    new = policy("A", set={"revenue_type": 2, "ledger_number": 7, "tags": ["Licenc"]})
    changes = diff_configs(config(policy("A")), config(new), catalogs=catalogs)
    assert [change.text() for change in changes] == [
        "Rule A: what it sets changed — Revenue type: Termék → Szolgáltatás.",
        "Rule A: what it sets changed — Ledger number: (not set) → 911 – Belföldi árbevétel.",
        "Rule A: what it sets changed — Tags: (not set) → Licenc.",
    ]


def test_a_split_is_named_part_by_part():
    split = [{"percent": 70, "revenue_type": 1}, {"percent": 30, "job_number": "M-2"}]
    changes = diff_configs(config(policy("A")), config(policy("A", set={"split": split})))
    assert [change.text() for change in changes] == [
        "Rule A: what it sets changed — Revenue type: #1 → (not set).",
        "Rule A: what it sets changed — Split: (not set) → 70% (#1) + 30% (M-2)."]
    changes = diff_configs(config(policy("A", set={"split": split})),
                           config(policy("A", set={"split": [split[1], split[0]]})))
    assert [change.text() for change in changes] == [
        "Rule A: what it sets changed — Split: 70% (#1) + 30% (M-2) → 30% (M-2) + 70% (#1)."]


def test_the_same_record_by_id_and_by_name_is_no_detail_but_still_a_change():
    catalogs = Catalogs.from_lists({"revenue_types": [{"id": 1, "name": "Termék"}]})
    changes = diff_configs(config(policy("A")),
                           config(policy("A", set={"revenue_type": "Termék"})), catalogs=catalogs)
    assert [(change.kind, change.text()) for change in changes] == [
        ("policy_actions", "Rule A: what it sets changed.")]


def test_unknown_policy_keys_changing_is_reported_as_other_settings():
    assert summary(config(policy("A")), config(policy("A", colour="red"))) == [
        ("policy_changed", {"name": "A", "keys": "colour"})
    ]
    new = policy("A", colour="red", set={"revenue_type": 1, "x_set": 1})
    (change,) = diff_configs(config(policy("A", colour="blue")), config(new))
    assert change.text() == "Rule A: settings Bookdesk does not edit changed: colour, x_set."


def test_reordered_policies_report_the_fewest_moves():
    old = config(policy("A"), policy("B"), policy("C"), policy("D"))
    new = config(policy("D"), policy("A"), policy("B"), policy("C"))
    assert summary(old, new) == [("policy_moved", {"name": "D", "position": 1})]


def test_adding_a_policy_on_top_is_not_a_reorder():
    old = config(policy("A"), policy("B"))
    new = config(policy("New"), policy("A"), policy("B"))
    assert summary(old, new) == [("policy_added", {"name": "New"})]


def test_moved_message_names_the_new_position():
    changes = diff_configs(config(policy("A"), policy("B")), config(policy("B"), policy("A")))
    assert [change.text() for change in changes] == ["Rule B moved to position 1."]


def test_duplicate_names_pair_up_in_order():
    old = config(policy("A"), policy("A", match="any"))
    new = config(policy("A"), policy("A"))
    assert summary(old, new) == [("policy_match_all", {"name": "A"})]


def test_renaming_in_place_is_one_rule_renamed_with_its_other_changes():
    assert summary(config(policy("A"), policy("B")), config(policy("A2"), policy("B"))) == [
        ("policy_renamed", {"name": "A2", "old": "A"})]
    other = [{"field": "note", "op": "contains", "value": "x"}]
    changes = diff_configs(config(policy("A")), config(policy("A2", conditions=other)))
    assert [change.text() for change in changes] == [
        "Rule A renamed to A2.", "Rule A2: conditions changed."]
    ignored = summary(config(ignores=[ignore("I")]), config(ignores=[ignore("I2")]))
    assert ignored == [("ignore_renamed", {"name": "I2", "old": "I"})]


def test_a_new_rule_in_a_removed_ones_place_with_nothing_kept_is_not_a_rename():
    other = [{"field": "note", "op": "contains", "value": "x"}]
    assert [kind for kind, _ in summary(
        config(ignores=[ignore("I")]), config(ignores=[ignore("J", conditions=other)]))] == [
        "ignore_removed", "ignore_added"]


def test_switch_turned_on_and_off():
    on = diff_configs(config(), config(skip_for_multiple_match=True))
    assert [(c.kind, c.message) for c in on] == [("switch", M.SWITCH_ON)]
    off = diff_configs(config(skip_for_multiple_match=True), config())
    assert [(c.kind, c.message) for c in off] == [("switch", M.SWITCH_OFF)]


def test_ignore_policies_changes_have_their_own_kinds_and_messages():
    old = config(ignores=[ignore("I"), ignore("J"), ignore("K")])
    new = config(ignores=[ignore("K"), ignore("J", enabled=False), ignore("L")])
    changes = diff_configs(old, new)
    assert [(c.kind, c.params["name"]) for c in changes] == [
        ("ignore_removed", "I"),
        ("ignore_disabled", "J"),
        ("ignore_added", "L"),
        ("ignore_moved", "K"),
    ]
    assert changes[0].text() == "Ignore rule I removed."


def test_ignore_rule_conditions_change():
    other = [{"field": "note", "op": "contains", "value": "x"}]
    old, new = config(ignores=[ignore("I")]), config(ignores=[ignore("I", conditions=other)])
    assert summary(old, new) == [("ignore_conditions", {"name": "I"})]


def test_deleting_the_config_says_so_and_lists_what_goes():
    changes = diff_configs(config(policy("A"), ignores=[ignore("I")]), None)
    assert [c.kind for c in changes] == ["deleted", "policy_removed", "ignore_removed"]
    assert changes[0].message == M.CONFIG_DELETED


def test_unknown_top_level_keys_changing_is_reported_by_their_keys():
    assert summary(config(owner="a", x=1), config(owner="b", y=2, x=1)) == [
        ("other", {"keys": "owner, y"})]
    (change,) = diff_configs(config(owner="a"), config())
    assert change.text() == "Other settings Bookdesk does not edit changed: owner."


def test_an_unnamed_rule_is_named_by_its_number_in_the_list():
    old = config(policy("A"), policy(""), ignores=[ignore(" ")])
    new = config(policy("A"), policy("", enabled=False), policy("B"), policy(""),
                 ignores=[])
    assert [change.text() for change in diff_configs(old, new)] == [
        "Rule (no name, #2) switched off.", "Rule B added.", "Rule (no name, #4) added.",
        "Ignore rule (no name, #1) removed."]
    renamed = diff_configs(config(policy("")), config(policy("Named")))
    assert [change.text() for change in renamed] == ["Rule (no name, #1) renamed to Named."]


def test_changes_to_both_lists_come_in_a_stable_order():
    old = config(policy("A"), ignores=[ignore("I")])
    new = config(policy("A", enabled=False), ignores=[], skip_for_multiple_match=True)
    assert [c.kind for c in diff_configs(old, new)] == [
        "switch",
        "policy_disabled",
        "ignore_removed",
    ]


def test_change_text_uses_the_given_gettext():
    (change,) = diff_configs(config(policy("A")), config())
    assert (
        change.text({M.POLICY_CHANGES["removed"]: "%(name)s szabály törölve."}.get)
        == "A szabály törölve."
    )
