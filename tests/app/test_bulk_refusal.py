"""A bulk write stops at the first authorisation refusal (403) and says what was done.

A viewer's "mark all done" sends exactly one write; when a 403 comes later (permission taken
away mid-way) the incomes marked before it stay marked, and the rest are not sent. Undo of a
bulk action stops the same way.
"""
from __future__ import annotations

from tests.app.conftest import csrf_token, signed_in
from tests.app.test_review_support import from_bookdesk, income_now, queue_ids, waiting

STOPPED = "Stopped at the first refusal"


def _income_writes(sandbox_log, ids: list[int]) -> list[dict]:
    """Bookdesk's PATCHes of these incomes (a fault-refused one is logged without a company)."""
    paths = {f"/2/incomes/{income_id}/update/" for income_id in ids}
    return [e for e in sandbox_log.entries(method="PATCH")
            if e["path"] in paths and from_bookdesk(e)]


def _mark_all_done(client, company, expected: int):
    base = f"/c/{company.id}/review/"
    html = client.get(base).get_data(as_text=True)
    return client.post(f"{base}bulk", data={"csrf_token": csrf_token(html), "scope": "all",
                                            "expected": str(expected)}, follow_redirects=True)


def test_a_viewers_mark_all_done_sends_one_write_and_says_it_stopped(client, company, api,
                                                                      sandbox_log):
    ids = [waiting(api)["id"] for _ in range(12)]
    signed_in(client, company, role="viewer")
    sandbox_log.reset()
    page = _mark_all_done(client, company, len(ids))
    writes = _income_writes(sandbox_log, ids)
    assert len(writes) == 1 and writes[0]["status"] == 403
    html = page.get_data(as_text=True)
    assert STOPPED in html and "Marked done before that: 0. Not sent: 11." in html
    assert sorted(queue_ids(api)) == sorted(ids)


def test_a_refusal_mid_way_keeps_what_was_done_and_sends_nothing_after(client, company, api,
                                                                        sandbox_log, faults):
    for _ in range(20):
        waiting(api)
    order = queue_ids(api)
    faults.add(path=f"/2/incomes/{order[1]}/update/", method="PATCH", kind="status",
               status=403)
    signed_in(client, company)
    sandbox_log.reset()
    html = _mark_all_done(client, company, len(order)).get_data(as_text=True)
    sent = {int(e["path"].split("/")[3]) for e in _income_writes(sandbox_log, order)}
    assert sent == set(order[:9])
    refused = income_now(api, order[1])["invoice_number"]
    assert f"({refused} was refused" in html and "Marked done: 8." in html
    assert "Marked done before that: 8. Not sent: 11." in html
    assert "Bulk: marked done</strong> · incomes: 8" in html, "more than three are counted"
    assert [income_now(api, i)["review_done"] for i in order[:9]] == \
        [True, False, *[True] * 7]
    assert set(queue_ids(api)) == {order[1], *order[9:]}


def test_undo_of_a_bulk_action_stops_at_the_first_refusal(client, company, api, sandbox_log,
                                                          faults):
    ids = [waiting(api)["id"] for _ in range(5)]
    signed_in(client, company)
    html = _mark_all_done(client, company, len(ids)).get_data(as_text=True)
    assert "Marked done: 5." in html
    faults.add(path="/2/incomes/*/update/", method="PATCH", kind="status", status=403)
    sandbox_log.reset()
    actions = client.get(f"/c/{company.id}/review/actions").get_data(as_text=True)
    action_id = actions.split('name="action_id" value="')[1].split('"')[0]
    page = client.post(f"/c/{company.id}/review/undo", follow_redirects=True, data={
        "action_id": action_id, "csrf_token": csrf_token(actions)}).get_data(as_text=True)
    assert len(_income_writes(sandbox_log, ids)) == 1
    assert STOPPED in page and "Put back before that: 0. Not sent: 4." in page
    assert all(income_now(api, i)["review_done"] for i in ids)
