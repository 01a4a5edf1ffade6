"""Upstream faults on writes and reads, as the user meets them.

Lost response on every write (sandbox fault kind=reset_after: the write commits, the connection
is reset before the answer): the user gets a clear message, either the record it led to (Bookdesk
read it back) or the form again with everything typed still in it and a message above it; sending
the same form again stores nothing twice (the sandbox's data shows one record, and for a create
the request log shows one accepted write; an update sent again with the same values is harmless).

Flaky reads (10% 503s and 5% resets on every GET): every page answers as it does without faults;
the client's retries absorb them.

WRITES lists one case per create/update route; a case is collected when its endpoint exists in
the app, so an area that lands is covered by adding its case here.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from app import create_app
from tests.app.incomes_helpers import BrowserForm, catalogue, page_form, signed_in
from tests.support.routes import RouteSampler, SampleContext

MESSAGE = re.compile(r'class="[^"]*\balert\b|role="alert"')
NOT_PAGES = ("static", "logout", "switch_language", "demo_login")


@dataclass
class Ctx:
    """What a case works with: client, company, API, the incomes base path."""

    client: object
    company: object
    api: object
    base: str


@dataclass(frozen=True)
class WriteCase:
    """One write route: its form, the upstream write it sends, how to count what it stored."""

    name: str
    endpoint: str
    method: str
    upstream_path: str
    fill: Callable[[Ctx, str], tuple[str, BrowserForm]]
    stored: Callable[[Ctx, str], int]
    # An update sent again with the same values changes nothing; a create sent again duplicates.
    creates: bool = True


def _incomes(ctx: Ctx) -> list[dict]:
    body = ctx.api.get("/1/incomes", params={"page_size": 100}).json()
    return body["results"]["incomes"]


def _notes(ctx: Ctx, marker: str) -> int:
    """How many incomes carry the marker as their note (the list leaves notes out)."""
    details = [ctx.api.get(f"/1/incomes/{i['id']}/").json() for i in _incomes(ctx)]
    return sum((d.get("note") or "") == marker for d in details)


def _revenue_income(ctx: Ctx) -> int:
    """A categorised income through the public API (its edit form saves as it is)."""
    ids = catalogue(ctx.api)
    body = {"invoice_number": "WF-BASE-1", "issued_at": "2025-03-05", "fulfilled_at": "2025-03-05",
            "net_amount": "1000.00", "vat_amount": "270.00", "gross_amount": "1270.00",
            "partner_name": "Írás Kft.",
            "assignments": [{"revenue_type": ids.revenue_types[0], "vat": ids.vats[0],
                             "net_amount": "1000.00", "gross_amount": "1270.00"}]}
    response = ctx.api.post("/2/incomes/create/", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def _income_create(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    ids = catalogue(ctx.api)
    form = page_form(ctx.client, ctx.base + "new")
    form.set("invoice_number", marker).set("partner_name", "Elveszett Válasz Kft.")
    form.set("note", f"note {marker}")
    form.set("assignments-0-revenue_type", str(ids.revenue_types[0]))
    form.set("assignments-0-net_amount", "1000").set("assignments-0-gross_amount", "1270")
    return ctx.base + "new", form


def _income_edit(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    path = f"{ctx.base}{_revenue_income(ctx)}/edit"
    return path, page_form(ctx.client, path).set("note", marker)


def _income_cancel(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    path = f"{ctx.base}{_revenue_income(ctx)}/cancel"
    return path, page_form(ctx.client, path)


WRITES = [
    WriteCase("income create", "incomes.new", "POST", "/2/incomes/create/", _income_create,
              lambda ctx, m: sum(i["invoice_number"] == m for i in _incomes(ctx))),
    WriteCase("income edit", "incomes.edit", "PATCH", "/2/incomes/*/update/", _income_edit,
              _notes, creates=False),
    WriteCase("income cancel", "incomes.cancel", "PATCH", "/2/incomes/*/update/", _income_cancel,
              lambda ctx, m: sum(bool(i.get("is_cancelled")) for i in _incomes(ctx)),
              creates=False),
]


def _existing_endpoints() -> set[str]:
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "UPSTREAM_URL": "http://127.0.0.1:9"})
    return set(app.view_functions)


_ENDPOINTS = _existing_endpoints()


def _successful_writes(sandbox_log, company_id: int, case: WriteCase) -> list[dict]:
    pattern = re.compile("^" + re.escape(case.upstream_path).replace(r"\*", "[^/]+") + "$")
    return [e for e in sandbox_log.entries(company_id=company_id, method=case.method)
            if pattern.match(e["path"]) and e["status"] < 400]


def clear_outcome_problems(ctx: Ctx, response, form: BrowserForm, marker: str) -> list[str]:
    """Either the record it led to, with a message; or the form again, input kept, a message."""
    if response.status_code in (302, 303):
        landed = ctx.client.get(response.headers["Location"]).get_data(as_text=True)
        return [] if MESSAGE.search(landed) else \
            ["redirected to the record without a message about the lost answer"]
    html = response.get_data(as_text=True)
    problems = [] if MESSAGE.search(html) else \
        [f"answered {response.status_code} with no message above a form"]
    typed = [v for k, v in form.pairs if marker in v]
    if not all(value in html for value in typed):
        problems.append(f"answered {response.status_code} without the form: the input is lost")
    return problems


@pytest.mark.parametrize("case", [c for c in WRITES if c.endpoint in _ENDPOINTS],
                         ids=lambda c: c.name)
def test_a_lost_write_response_gives_a_message_keeps_the_input_and_stores_once(
        case, client, company, api, faults, sandbox_log):
    ctx = Ctx(client, company, api, signed_in(client, company))
    marker = f"LOST-{case.endpoint.replace('.', '-')}-1"
    path, form = case.fill(ctx, marker)
    before = case.stored(ctx, marker)
    sandbox_log.reset()
    faults.add(path=case.upstream_path, method=case.method, kind="reset_after", count=1)
    problems = clear_outcome_problems(ctx, client.post(path, data=form.data()), form, marker)
    again = client.post(path, data=form.data())
    if again.status_code >= 400:
        problems.append(f"the resubmit answered {again.status_code}")
    stored = case.stored(ctx, marker) - before
    if stored != 1:
        problems.append(f"stored {stored} times")
    writes = len(_successful_writes(sandbox_log, company.id, case))
    if case.creates and writes != 1:
        problems.append(f"the upstream accepted the write {writes} times")
    assert not problems, f"{case.name} after a lost response: " + "; ".join(problems)


@pytest.fixture
def retrying_app(app_config):
    """Bookdesk with the default retry count and a short backoff."""
    config = {**app_config, "UPSTREAM_BACKOFF": 0.01}
    config.pop("UPSTREAM_RETRIES")
    return create_app(config)


def test_ten_percent_503s_and_five_percent_resets_on_reads_never_reach_the_user(
        retrying_app, sandbox_url, company, faults):
    client = retrying_app.test_client()
    signed_in(client, company)
    routes = [r for r in RouteSampler(retrying_app, SampleContext(sandbox_url, company))
              .get_routes() if not any(word in r.endpoint for word in NOT_PAGES)]
    baseline = {r.path: client.get(r.path).status_code for r in routes}
    faults.add(path="/[12]/*", method="GET", kind="status", status=503, rate=0.10)
    faults.add(path="/[12]/*", method="GET", kind="reset", rate=0.05)
    seen = {r.path: client.get(r.path).status_code for r in routes}
    changed = {path: (baseline[path], status) for path, status in seen.items()
               if status != baseline[path]}
    assert len(routes) >= 5 and not changed, f"pages that answered differently: {changed}"
