"""Records named by string: what would be created, and resolving the names to ids."""

from app.policies.engine import apply_names, evaluate, names_in_config
from app.policies.validate import empty_config

ANY = [{"field": "gross_amount", "op": "gte", "value": 0}]
INCOME = {"net_amount": "100.00", "vat_amount": "0.00", "gross_amount": "100.00"}


def outcome_for(actions):
    policy = {"name": "P", "conditions": ANY, "set": actions}
    return evaluate({**empty_config(), "policies": [policy]}, INCOME)


class Resolver:
    """Creates-or-finds by name like the sandbox would, and records the calls."""

    def __init__(self, existing=None):
        self.ids = dict(existing or {})
        self.calls = []

    def __call__(self, kind, name):
        self.calls.append((kind, name))
        return self.ids.setdefault((kind, name), 100 + len(self.ids))


def test_to_create_lists_names_by_kind_sorted():
    outcome = outcome_for(
        {"revenue_type": "Consulting", "ledger_number": "9110", "tags": ["vip", 3, "b2b"]}
    )
    assert outcome.to_create == {
        "ledger_numbers": ["9110"],
        "revenue_types": ["Consulting"],
        "tags": ["b2b", "vip"],
    }


def test_ids_are_not_listed_for_creation():
    assert outcome_for({"revenue_type": 5, "tags": [1, 2]}).to_create == {}


def test_split_parts_names_are_listed_once():
    parts = [
        {"percent": 50, "revenue_type": "Fees", "tags": ["x"]},
        {"percent": 50, "revenue_type": "Fees"},
    ]
    outcome = outcome_for({"split": parts, "tags": ["x"]})
    assert outcome.to_create == {"revenue_types": ["Fees"], "tags": ["x"]}


def test_apply_names_resolves_every_name_once_and_keeps_ids():
    parts = [
        {"percent": 50, "revenue_type": "Fees", "tags": ["x", 4]},
        {"percent": 50, "revenue_type": 7, "ledger_number": "L"},
    ]
    outcome = outcome_for({"split": parts})
    resolve = Resolver()
    assignments = apply_names(outcome, resolve)
    assert sorted(resolve.calls) == [
        ("ledger_numbers", "L"),
        ("revenue_types", "Fees"),
        ("tags", "x"),
    ]
    assert [a["revenue_type"] for a in assignments] == [resolve.ids[("revenue_types", "Fees")], 7]
    assert assignments[0]["tags"] == [resolve.ids[("tags", "x")], 4]
    assert assignments[1]["ledger_number_id"] == resolve.ids[("ledger_numbers", "L")]


def test_apply_names_merges_a_name_that_resolves_to_a_tag_already_listed():
    outcome = outcome_for({"tags": [8, "vip"]})
    assert apply_names(outcome, Resolver({("tags", "vip"): 8}))[0]["tags"] == [8]


def test_apply_names_leaves_the_outcome_unchanged():
    outcome = outcome_for({"revenue_type": "Fees"})
    apply_names(outcome, Resolver())
    assert outcome.assignments[0]["revenue_type"] == "Fees"


def test_apply_names_without_names_does_not_call_resolve():
    resolve = Resolver()
    assignments = apply_names(outcome_for({"revenue_type": 5}), resolve)
    assert resolve.calls == [] and assignments[0]["revenue_type"] == 5


def test_apply_names_on_an_ignored_or_unmatched_income_returns_the_baseline():
    outcome = evaluate(None, INCOME)
    assert apply_names(outcome, Resolver()) == outcome.assignments


def test_names_in_config_lists_every_named_record_of_every_policy():
    rules = {
        **empty_config(),
        "policies": [
            {"name": "A", "set": {"revenue_type": "Fees", "tags": ["a", 1]}},
            {
                "name": "B",
                "set": {"split": [{"percent": 100, "ledger_number": "L", "tags": ["b"]}]},
            },
            {"name": "C", "set": {"revenue_type": 4}},
        ],
    }
    assert names_in_config(rules) == {
        "ledger_numbers": ["L"],
        "revenue_types": ["Fees"],
        "tags": ["a", "b"],
    }


def test_names_in_config_of_null_is_empty():
    assert names_in_config(None) == {}
