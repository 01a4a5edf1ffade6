"""Two reviewers on one queue: one reviewer's done never becomes the other's, so the other's
undo never takes it back; a done whose answer was lost is logged once it is found applied."""
from __future__ import annotations

import re

from app.store.history import Actor, recent_actions, record_action
from app.upstream import incomes as income_api
from tests.app.conftest import csrf_token, signed_in
from tests.app.test_review_support import (
    income_now,
    open_screen,
    queue_ids,
    reads,
    step,
    undo,
    waiting,
    writes,
)

BOX = re.compile(r'name="ids" value="(\d+:[0-9a-f]+)"')
ANNAS = "was already marked done by Kovács Anna, as it is now: it stays done."


def _reviewer(client, company, role: str, name: str) -> str:
    """Sign the client in as name with role's token; the review area's base path."""
    signed_in(client, company, "incomes/", role=role, name=name)
    return f"/c/{company.id}/review/"


def _both(app, client, company) -> tuple:
    """(Anna's client, Péter's client, base): the admin and the bookkeeper, each signed in
    in a browser of their own with a token of their own."""
    base = _reviewer(client, company, "admin", "Kovács Anna")
    peter = app.test_client()
    _reviewer(peter, company, "bookkeeper", "Szabó Péter")
    return client, peter, base


def _waiting_with_one_after(api, number: str, after: str) -> dict:
    """An income waiting for review, and another after it in the queue; the first."""
    created = waiting(api, invoice_number=number)
    waiting(api, invoice_number=after)
    return created


def _logged(app, company_id: int) -> list[tuple[str, str, list[int]]]:
    """(who, kind, incomes) of every logged review action, oldest first."""
    with app.app_context():
        return [(a.actor, a.kind, a.income_ids) for a in reversed(recent_actions(company_id))]


def test_a_done_drops_the_income_from_the_other_reviewers_read_ahead(
        app, client, company, api, sandbox_log):
    created = _waiting_with_one_after(api, "R-401", "R-402")
    anna, peter, base = _both(app, client, company)
    hers = open_screen(anna, f"{base}{created['id']}")
    his = open_screen(peter, f"{base}{created['id']}")
    assert step(anna, hers, "done").status_code == 200
    sandbox_log.reset()
    response = step(peter, his, "done")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert writes(sandbox_log, company.id) == [], "read again, found done: nothing sent"
    assert f"R-401 {ANNAS}" in html
    assert _logged(app, company.id) == [("Kovács Anna", "done", [created["id"]])]
    assert 'id="undo-last"' not in html, "Péter has nothing to undo"


def test_a_done_on_a_copy_read_before_anothers_done_is_not_logged_as_his(
        app, client, company, api, sandbox_log, monkeypatch):
    created = _waiting_with_one_after(api, "R-401", "R-402")
    anna, peter, base = _both(app, client, company)
    hers = open_screen(anna, f"{base}{created['id']}")
    his = open_screen(peter, f"{base}{created['id']}")
    # Anna's done goes through another worker process: its cache drop never reaches Péter's.
    with monkeypatch.context() as patched:
        patched.setattr(income_api, "ON_UPDATE", [])
        assert step(anna, hers, "done").status_code == 200
    sandbox_log.reset()
    response = step(peter, his, "done")
    assert writes(sandbox_log, company.id) == [{"review_done": True}], "still one write"
    assert reads(sandbox_log, company.id) == [], "and no read before it"
    assert f"R-401 {ANNAS}" in response.get_data(as_text=True)
    assert _logged(app, company.id) == [("Kovács Anna", "done", [created["id"]])]
    assert income_now(api, created["id"])["review_done"] is True


def test_undo_of_an_entry_claiming_anothers_review_leaves_the_income_done(
        app, client, company, api):
    created = waiting(api, invoice_number="R-401")
    anna, peter, base = _both(app, client, company)
    assert step(anna, open_screen(anna, f"{base}{created['id']}"), "done").status_code == 200
    key = str(created["id"])
    with app.app_context():  # as logged before done looked at the log: "No -> Yes", his
        entry = record_action(company.id, Actor("Szabó Péter", "1" * 16), "done",
                              [created["id"]], {key: {"review_done": False}},
                              {key: {"review_done": True, "is_cancelled": False}},
                              numbers={key: "R-401"}).id
    page = peter.get(f"{base}actions").get_data(as_text=True)
    peter.post(f"/c/{company.id}/review/undo", data={
        "action_id": entry, "back": f"{base}actions", "csrf_token": csrf_token(page)})
    assert income_now(api, created["id"])["review_done"] is True
    assert "R-401 was left as it is: Kovács Anna had marked it done before this action, so " \
        "undo leaves it done" in peter.get(f"{base}actions").get_data(as_text=True)


def test_bulk_done_leaves_what_another_reviewer_marked_done_meanwhile_to_them(
        app, client, company, api, sandbox_log):
    for number in range(3):
        waiting(api, invoice_number=f"B-{number}")
    ids = queue_ids(api)
    anna, peter, base = _both(app, client, company)
    html = peter.get(base).get_data(as_text=True)
    boxes = {int(v.split(":")[0]): v for v in BOX.findall(html)}
    theirs = ids[1]
    assert step(anna, open_screen(anna, f"{base}{theirs}"), "done").status_code == 200
    sandbox_log.reset()
    peter.post(f"{base}bulk", data={"csrf_token": csrf_token(html), "scope": "selected",
                                    "ids": [boxes[i] for i in ids]})
    assert len(writes(sandbox_log, company.id)) == 2, "the one done already is not sent"
    page = peter.get(base).get_data(as_text=True)
    number = income_now(api, theirs)["invoice_number"]
    assert "Marked done: 2." in page
    assert f"Already marked done by Kovács Anna, so left as they are: {number}" in page
    assert _logged(app, company.id)[-1] == (
        "Szabó Péter", "bulk_done", [i for i in ids if i != theirs])
    undo(peter, page, company.id, back=base)
    assert [income_now(api, i)["review_done"] for i in ids] == [False, True, False]


def test_a_done_whose_answer_was_lost_is_logged_as_the_reviewers_once_found_applied(
        app, client, company, api, faults):
    created = _waiting_with_one_after(api, "R-398", "R-399")
    _anna, peter, base = _both(app, client, company)
    his = open_screen(peter, f"{base}{created['id']}")
    faults.add(path=f"/2/incomes/{created['id']}/update/", method="PATCH", kind="reset_after",
               count=1)
    assert step(peter, his, "done").status_code == 503
    assert income_now(api, created["id"])["review_done"] is True
    again = step(peter, his, "done").get_data(as_text=True)
    assert "R-398 is already marked done; nothing was sent again." in again
    assert _logged(app, company.id) == [("Szabó Péter", "done", [created["id"]])]
    bar = again.split('id="review-undo"')[1].split("</form>")[0]
    assert "R-398" in bar and 'id="undo-last"' in bar
    undo(peter, again, company.id, back=f"{base}actions")
    assert income_now(api, created["id"])["review_done"] is False


def test_a_save_and_done_whose_answer_was_lost_is_found_applied_not_taken_for_anothers(
        app, client, company, api, faults, sandbox_log):
    created = _waiting_with_one_after(api, "R-396", "R-397")
    _anna, peter, base = _both(app, client, company)
    his = open_screen(peter, f"{base}{created['id']}")
    faults.add(path=f"/2/incomes/{created['id']}/update/", method="PATCH", kind="reset_after",
               count=1)
    assert step(peter, his, "save_done", note="audit jegyzet").status_code == 503
    assert income_now(api, created["id"])["note"] == "audit jegyzet"
    sandbox_log.reset()
    again = step(peter, his, "save_done", note="audit jegyzet")
    page = again.get_data(as_text=True)
    assert again.status_code == 200 and writes(sandbox_log, company.id) == []
    assert "R-396 was already saved and marked done" in page
    assert 'id="review-conflict"' not in page
    assert _logged(app, company.id) == [("Szabó Péter", "save_done", [created["id"]])]


def _bulk(client, base: str, html: str, boxes: list[str]) -> str:
    """Post the queue's bulk done with the ticked boxes of html; the queue page after it."""
    client.post(f"{base}bulk", data={"csrf_token": csrf_token(html), "scope": "selected",
                                     "ids": boxes})
    return client.get(base).get_data(as_text=True)


def test_a_bulk_done_whose_answer_was_lost_is_logged_as_the_reviewers_once_found_applied(
        app, client, company, api, faults):
    created = _waiting_with_one_after(api, "R-394", "R-395")
    _anna, peter, base = _both(app, client, company)
    html = peter.get(base).get_data(as_text=True)
    boxes = {int(v.split(":")[0]): v for v in BOX.findall(html)}
    faults.add(path=f"/2/incomes/{created['id']}/update/", method="PATCH", kind="reset_after",
               count=1)
    assert "did not confirm R-394" in _bulk(peter, base, html, [boxes[created["id"]]])
    assert income_now(api, created["id"])["review_done"] is True
    assert _logged(app, company.id) == []
    again = step(peter, open_screen(peter, f"{base}{created['id']}"), "done")
    page = again.get_data(as_text=True)
    assert "R-394 is already marked done; nothing was sent again." in page
    assert _logged(app, company.id) == [("Szabó Péter", "done", [created["id"]])]
    undo(peter, page, company.id, back=f"{base}actions")
    assert income_now(api, created["id"])["review_done"] is False


def test_a_bulk_done_sent_again_after_a_lost_answer_logs_it_once_as_the_reviewers(
        app, client, company, api, faults, sandbox_log, monkeypatch):
    lost, other = waiting(api, invoice_number="R-392"), waiting(api, invoice_number="R-393")
    anna, peter, base = _both(app, client, company)
    hers = open_screen(anna, f"{base}{lost['id']}")
    html = peter.get(base).get_data(as_text=True)
    boxes = {int(v.split(":")[0]): v for v in BOX.findall(html)}
    faults.add(path=f"/2/incomes/{lost['id']}/update/", method="PATCH", kind="reset_after",
               count=1)
    # Péter works on another worker process: his writes never drop Anna's read-ahead copy.
    monkeypatch.setattr(income_api, "ON_UPDATE", [])
    _bulk(peter, base, html, [boxes[lost["id"]]])
    sandbox_log.reset()
    page = _bulk(peter, base, html, [boxes[lost["id"]], boxes[other["id"]]])
    assert writes(sandbox_log, company.id) == [{"review_done": True}], "R-392 is not sent again"
    assert "Already marked done, so left as they are: R-392" in page
    mine = [("Szabó Péter", "done", [lost["id"]]), ("Szabó Péter", "bulk_done", [other["id"]])]
    assert _logged(app, company.id) == mine
    _bulk(peter, base, html, [boxes[lost["id"]]])
    assert _logged(app, company.id) == mine, "logged once"
    response = step(anna, hers, "done")
    assert "R-392 was already marked done by Szabó Péter, as it is now" in response.get_data(
        as_text=True)
    assert _logged(app, company.id) == mine, "Anna's later done is not logged as hers"
