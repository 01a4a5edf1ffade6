"""Sandbox-only expense controls (issue 4 item 7): fixtures in any state, state changes."""
import expense_support
import requests
from expense_support import detail, make_expense, set_state

ecat = expense_support.ecat  # a fixture, found by name


def test_control_creates_expense_in_any_state(api, ecat):
    expense = make_expense(api, ecat, processed=True, checked=True, source="nav",
                           paid_status=3, excluded_from_accounting=True)
    body = detail(api, expense["id"])
    assert (body["processed"], body["checked"], body["source"]) == (True, True, "nav")
    assert body["paid_status"] == 3 and body["excluded_from_accounting"] is True
    assert [a["type"] for a in body["actions"]] == ["exclude_from_accounting"]


def test_state_control_marks_processed_checked_booked_and_synced(api, ecat):
    expense = make_expense(api, ecat)
    set_state(api, expense["id"], processed=True)
    set_state(api, expense["id"], checked=True)
    body = set_state(api, expense["id"], booked=True, source="szamlazz.hu")
    assert (body["processed"], body["checked"], body["booked"]) == (True, True, True)
    assert body["source"] == "szamlazz.hu" and body["accounting_status"] == "booked"


def test_marking_booked_also_marks_processed(api, ecat):
    body = set_state(api, make_expense(api, ecat)["id"], booked=True)
    assert body["processed"] is True


def test_state_change_bumps_updated_at_unless_given(api, ecat):
    expense = make_expense(api, ecat, updated_at="2024-01-01T00:00:00Z")
    assert detail(api, expense["id"])["updated_at"].startswith("2024-01-01")
    assert set_state(api, expense["id"], checked=True)["updated_at"] > "2025"
    pinned = set_state(api, expense["id"], updated_at="2024-06-01T12:00:00+02:00")
    assert pinned["updated_at"] == "2024-06-01T10:00:00+00:00"


def test_state_control_patch_alias(api, ecat, sandbox_url):
    expense = make_expense(api, ecat)
    resp = requests.patch(f"{sandbox_url}/_sandbox/expenses/{expense['id']}/",
                          json={"processed": True}, timeout=10)
    assert resp.status_code == 200 and resp.json()["processed"] is True


def test_controls_validate_their_input(api, sandbox_url):
    base = f"{sandbox_url}/_sandbox"
    assert requests.post(f"{base}/expenses/", json={"company_id": 0},
                         timeout=10).status_code == 400
    assert requests.post(f"{base}/expenses/999999999/state/", json={},
                         timeout=10).status_code == 404
    expense = make_expense(api)
    assert requests.post(f"{base}/expenses/{expense['id']}/state/", json={"paid_status": 7},
                         timeout=10).status_code == 400
    assert requests.put(f"{base}/artifacts/url-ttl/", json={"seconds": -1},
                        timeout=10).status_code == 400


def test_controls_are_outside_the_api_and_need_no_token(api, sandbox_url):
    resp = requests.post(f"{sandbox_url}/_sandbox/expenses/",
                         json={"company_id": api.company.id}, timeout=10)
    assert resp.status_code == 201
    assert api.get("/1/_sandbox/expenses/").status_code == 404
