"""Live bulk actions on expenses: POST /1/expenses/<action>/ {"ids": [...]}."""
from __future__ import annotations

import pytest

from tests.conftest import Api
from tests.sandbox import expense_support
from tests.sandbox.expense_support import detail, make_expense
from tests.sandbox.live_shapes import live_response, shape_problems

ecat = expense_support.ecat  # a fixture, found by name
ACTIONS = ("approve", "unapprove", "check", "uncheck", "export")


def bulk(api, action: str, ids, token: str = "admin"):
    """POST the action; returns the response."""
    return api.post(f"/1/expenses/{action}/", json={"ids": ids}, token=token)


@pytest.mark.parametrize("action", ACTIONS + ("quarantine-accept",))
def test_answer_carries_the_live_keys_and_types(api, ecat, action):
    good = make_expense(api, ecat, quarantined=action == "quarantine-accept")["id"]
    resp = bulk(api, action, [good, 987654])
    assert resp.status_code == 200
    assert shape_problems(resp.json(), live_response("POST", f"/1/expenses/{action}")) == []


@pytest.mark.parametrize(("action", "flag", "value"), [
    ("approve", "approved", True), ("check", "checked", True)])
def test_action_sets_the_state_of_every_listed_expense(api, ecat, action, flag, value):
    ids = [make_expense(api, ecat)["id"] for _ in range(2)]
    assert bulk(api, action, ids).json()["success_ids"] == ids
    assert all(detail(api, i)[flag] is value for i in ids)


@pytest.mark.parametrize(("action", "flag"), [("unapprove", "approved"),
                                              ("uncheck", "checked")])
def test_undo_action_clears_the_state(api, ecat, action, flag):
    expense = make_expense(api, ecat, **{flag: True})["id"]
    assert bulk(api, action, [expense]).json()["success_ids"] == [expense]
    assert detail(api, expense)[flag] is False


def test_export_stamps_the_expense(api, ecat):
    expense = make_expense(api, ecat)["id"]
    bulk(api, "export", [expense])
    assert detail(api, expense)["exported_at"]


def test_unknown_and_foreign_ids_fail_without_failing_the_rest(api, ecat, make_company):
    other = Api(api.base, make_company())
    foreign = make_expense(other)["id"]
    mine = make_expense(api, ecat)["id"]
    body = bulk(api, "approve", [mine, foreign, 10**20]).json()
    assert body["success_ids"] == [mine] and body["failed_ids"] == [foreign, 10**20]
    assert body["errors"][0] == {"id": foreign, "errors": ["Not found."]}
    assert detail(other, foreign)["approved"] is False


@pytest.mark.parametrize(("action", "state", "word"), [
    ("approve", {"quarantined": True}, "quarantine"),
    ("approve", {"excluded_from_accounting": True}, "excluded"),
    ("check", {"excluded_from_accounting": True}, "excluded"),
    ("export", {"quarantined": True}, "quarantine"),
    ("uncheck", {"checked": True, "booked": True}, "booked"),
    ("unapprove", {"approved": True, "booked": True}, "booked"),
])
def test_refused_expense_is_reported_with_the_reason(api, ecat, action, state, word):
    expense = make_expense(api, ecat, **state)["id"]
    body = bulk(api, action, [expense]).json()
    assert body["failed_ids"] == [expense] and word in body["errors"][0]["errors"][0]


def test_unapprove_refuses_an_exported_expense(api, ecat):
    expense = make_expense(api, ecat, approved=True)["id"]
    bulk(api, "export", [expense])
    assert bulk(api, "unapprove", [expense]).json()["failed_ids"] == [expense]


def test_quarantine_accept_releases_only_quarantined_expenses(api, ecat):
    held = make_expense(api, ecat, quarantined=True)["id"]
    free = make_expense(api, ecat)["id"]
    body = bulk(api, "quarantine-accept", [held, free]).json()
    assert body == {"success_ids": [held], "success_count": 1, "failure_count": 1}
    assert detail(api, held)["quarantined"] is False
    assert bulk(api, "approve", [held]).json()["success_ids"] == [held]


def test_repeated_ids_count_once(api, ecat):
    expense = make_expense(api, ecat)["id"]
    assert bulk(api, "check", [expense, expense]).json()["success_ids"] == [expense]


def test_successes_are_stored_beside_failures_of_the_same_request(api, ecat):
    ids = [make_expense(api, ecat)["id"] for _ in range(2)]
    held = make_expense(api, ecat, quarantined=True)["id"]
    body = bulk(api, "check", [ids[0], held, ids[1]]).json()
    assert body["success_ids"] == ids and body["failed_ids"] == [held]
    assert [detail(api, i)["checked"] for i in (*ids, held)] == [True, True, False]


@pytest.mark.parametrize("body", [{}, {"ids": []}, {"ids": ["1"]}, {"ids": [True]}, {"ids": 3},
                                  [1, 2]])
def test_malformed_ids_are_a_400(api, body):
    assert api.post("/1/expenses/approve/", json=body).status_code == 400


def test_viewer_may_not_run_bulk_actions(api, ecat):
    expense = make_expense(api, ecat)["id"]
    assert bulk(api, "approve", [expense], token="viewer").status_code == 403
