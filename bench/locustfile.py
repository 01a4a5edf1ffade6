"""Locust users for bench.load: signed-in bookkeepers doing a realistic mix.

Each user signs in through /login with the demo admin token, then browses: dashboard, income
list pages, income details, the review queue and a review step (when the area exists), and now
and then saves an edit (changes the note). Run by `python -m bench.load`; it passes:
    BENCH_TASKS      comma-separated task names that exist in this Bookdesk (others are left out)
    BENCH_TIMINGS    a file to write every response's Server-Timing figures to (JSON) at the end
"""
from __future__ import annotations

import json
import os
import random
import re

from locust import HttpUser, between, events, task

from bench.common import DEMO_TOKEN, csrf_token, server_timing

BASE = "/c/1"
TASKS = set(filter(None, os.environ.get("BENCH_TASKS", "").split(",")))
_INCOME = re.compile(rf'href="{BASE}/incomes/(\d+)"')
_REVIEW = re.compile(rf'href="{BASE}/review/(\d+)"')
TIMINGS: list[tuple[str, float, float, int]] = []


def available(name: str):
    """Decorator: a task that only runs when bench.load says its route exists."""
    def wrap(fn):
        return task(WEIGHTS[name])(fn) if name in TASKS else fn
    return wrap


CONFLICT = "Changed by someone else meanwhile"
WEIGHTS = {"dashboard": 2, "incomes": 4, "income": 4, "review": 2, "edit": 1}


class Bookkeeper(HttpUser):
    """One signed-in user clicking through incomes with short pauses."""

    wait_time = between(0.05, 0.25)

    def on_start(self):
        """Sign in and remember a page of income ids."""
        page = self.client.get("/login", name="/login")
        self.client.post("/login", name="/login", allow_redirects=False, data={
            "csrf_token": csrf_token(page.text), "token": DEMO_TOKEN, "name": "Load Lajos",
            "company_id": "1"})
        listing = self.client.get(f"{BASE}/incomes/?page_size=100", name="incomes list")
        self.incomes = [int(i) for i in _INCOME.findall(listing.text)] or [1]

    def _get(self, path: str, name: str):
        with self.client.get(path, name=name, catch_response=True,
                             allow_redirects=False) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
            else:
                _keep(name, response)
            return response

    @available("dashboard")
    def dashboard(self):
        """The overview."""
        self._get(f"{BASE}/", "dashboard")

    @available("incomes")
    def incomes_list(self):
        """A page of the income list."""
        self._get(f"{BASE}/incomes/?page={random.randint(1, 4)}&page_size=50", "incomes list")

    @available("income")
    def income_detail(self):
        """One income."""
        self._get(f"{BASE}/incomes/{random.choice(self.incomes)}", "income detail")

    @available("review")
    def review_step(self):
        """The review queue, then its first step."""
        queue = self._get(f"{BASE}/review/", "review queue")
        step = _REVIEW.search(queue.text or "")
        if step:
            self._get(f"{BASE}/review/{step.group(1)}", "review step")

    @available("edit")
    def edit_save(self):
        """Open an income's edit form and save a changed note."""
        from tests.support.htmx import post_forms

        path = f"{BASE}/incomes/{random.choice(self.incomes)}/edit"
        form_page = self._get(path, "income edit form")
        forms = [f for f in post_forms(form_page.text or "", path) if f.url.endswith("/edit")]
        if not forms:
            return
        # The <template> row's fields are not sent by a browser.
        values = [(k, f"load {random.random():.6f}" if k == "note" else v)
                  for k, v in forms[0].values if "__index__" not in k]
        # An uncategorised income (a review-queue one) cannot be saved without a revenue type.
        if any(k.endswith("-revenue_type") and not v for k, v in values):
            return
        with self.client.post(path, data=values, name="income edit save", catch_response=True,
                              allow_redirects=False,
                              headers={"Accept-Language": "en"}) as response:
            if response.status_code == 303:
                _keep("income edit save", response)
            elif response.status_code == 400 and CONFLICT in response.text:
                # Two users saved the same income at once: the form held the second save back,
                # as designed. Counted on a row of its own, not as an error.
                response.success()
                _conflict(self, response)
            else:
                response.failure(f"status {response.status_code}")


def _conflict(user, response) -> None:
    user.environment.events.request.fire(
        request_type="POST", name="income edit save: conflict held back",
        response_time=response.elapsed.total_seconds() * 1000, response_length=0,
        response=response, context={}, exception=None)


def _keep(name: str, response) -> None:
    try:
        timing = server_timing(response)
    except RuntimeError:
        return
    TIMINGS.append((name, timing.app_ms, timing.upstream_ms, timing.calls))


@events.quitting.add_listener
def _write_timings(environment, **_kwargs):
    path = os.environ.get("BENCH_TIMINGS")
    if path:
        with open(path, "w") as out:
            json.dump(TIMINGS, out)
