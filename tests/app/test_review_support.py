"""Helpers for the review tests: incomes waiting for review, the screen's form, htmx posts."""
from __future__ import annotations

import re
import time

import requests

from app.review import prefetch
from tests.app.conftest import csrf_token, signed_in
from tests.app.incomes_helpers import BrowserForm, make_income

HTMX = {"HX-Request": "true"}
_FORM = re.compile(r'<form class="review-form[^>]*hx-post="([^"]+)"')


def waiting(api, **fields) -> dict:
    """An accounting document waiting for review (needs_review true, review_done false)."""
    return make_income(api, **{"type": 2, "needs_review": True, "review_done": False, **fields})


def queue_ids(api, **params) -> list[int]:
    """The ids the API lists as waiting for review, in the queue's default order."""
    body = api.get("/1/incomes", params={"needs_review": "true", "review_done": "false",
                                         "ordering": "-issued_at", "page_size": 100,
                                         **params}).json()
    return [row["id"] for row in body["results"]["incomes"]]


def review_base(client, company) -> str:
    """Sign in; the review area's base path."""
    signed_in(client, company, "incomes/")
    return f"/c/{company.id}/review/"


class Screen:
    """One rendered review screen: its html, the action URL and the form a browser sends."""

    def __init__(self, html: str):
        self.html = html
        match = _FORM.search(html)
        assert match, html[:3000]
        self.action = match.group(1).replace("&amp;", "&")
        self.form = BrowserForm(html[match.start():])

    def data(self, action: str) -> dict:
        """The form data with the pressed button."""
        data = self.form.data()
        data["action"] = [action]
        return data


def open_screen(client, path: str) -> Screen:
    """GET a review screen; waits for the background reads it starts."""
    response = client.get(path)
    assert response.status_code == 200, response.get_data(as_text=True)[:3000]
    settle()
    return Screen(response.get_data(as_text=True))


def settle(timeout: float = 5.0) -> None:
    """Wait until the prefetch pool has nothing under way (a reviewer's think time)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not prefetch.under_way():
            return
        time.sleep(0.02)


def step(client, screen: Screen, action: str = "done", **changes):
    """Press a button of the screen as htmx does (form fields plus the button)."""
    data = screen.data(action)
    for name, values in changes.items():
        data[name] = values if isinstance(values, list) else [values]
    return client.post(screen.action, data=data, headers=HTMX)


def undo(client, page_html: str, company_id: int, back: str = "screen", **headers):
    """Press the undo bar's button on a page."""
    match = re.search(r'name="action_id" value="(\d+)"', page_html)
    assert match, "no undo button on the page"
    return client.post(f"/c/{company_id}/review/undo", headers=headers, data={
        "action_id": match.group(1), "back": back, "csrf_token": csrf_token(page_html)})


def sandbox_change(api, income_id: int, **state) -> None:
    """Change an income behind Bookdesk's back (another user, through the API)."""
    body = {k: v for k, v in state.items() if k not in ("needs_review", "review_done")}
    if body:
        response = api.patch(f"/2/incomes/{income_id}/update/", json=body)
        assert response.status_code == 200, response.text
    flags = {k: v for k, v in state.items() if k in ("needs_review", "review_done")}
    if flags:
        response = requests.patch(f"{api.base}/_sandbox/incomes/{income_id}/", json=flags,
                                  timeout=10)
        assert response.status_code == 200, response.text


def income_now(api, income_id: int) -> dict:
    """The income as the API has it now."""
    return api.get(f"/1/incomes/{income_id}/").json()


def writes(sandbox_log, company_id: int) -> list[dict]:
    """PATCH bodies Bookdesk (not the test's own API client) sent for the company's incomes."""
    return [e["body"] for e in sandbox_log.entries(company_id=company_id, method="PATCH")
            if e["path"].startswith("/2/incomes/") and from_bookdesk(e)]


def from_bookdesk(entry: dict) -> bool:
    """True for a request Bookdesk made (its X-Application names it)."""
    return entry["headers"].get("X-Application", "").startswith("bookdesk")


def reads(sandbox_log, company_id: int, background: bool = False) -> list[str]:
    """Paths Bookdesk read: on a request's own path, or (background=True) ahead of time."""
    return [e["path"] for e in sandbox_log.entries(company_id=company_id, method="GET")
            if from_bookdesk(e)
            and e["headers"]["X-Application"].endswith("prefetch") == background]
