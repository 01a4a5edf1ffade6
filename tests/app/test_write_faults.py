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

import io
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
import requests

from app import create_app
from sandbox.core.demo_files import minimal_pdf
from tests.app.conftest import signed_in
from tests.app.incomes_helpers import BrowserForm, catalogue, page_form
from tests.app.test_policy_editor_kit import Editor, config, policy, set_stored, stored
from tests.support.htmx import post_forms
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
    # Fresh file parts for each submit (a file object is read once).
    files: Callable[[str], dict] | None = None

    def data(self, form: BrowserForm, marker: str) -> dict:
        """What the browser posts: the form's fields and, for an upload, its files."""
        return {**form.data(), **(self.files(marker) if self.files else {})}


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


def _company_path(ctx: Ctx, rest: str) -> str:
    return f"/c/{ctx.company.id}/{rest}"


def _partner_create(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    path = _company_path(ctx, "partners/new")
    form = page_form(ctx.client, path).set("name", marker).set("city", f"City {marker}")
    form.pairs.append(("is_customer", "y"))
    return path, form


def _partner_edit(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    created = ctx.api.post("/2/partners/create/", json={"name": "Régi Név Kft.",
                                                        "is_customer": True})
    assert created.status_code == 201, created.text
    path = _company_path(ctx, f"partners/{created.json()['id']}/")
    return path, page_form(ctx.client, path).set("name", marker)


def _partners_named(ctx: Ctx, marker: str) -> int:
    body = ctx.api.get("/1/partners/", params={"search": marker, "page_size": 100}).json()
    items = body["results"] if isinstance(body.get("results"), list) else body["partners"]
    return sum(p["name"] == marker for p in items)


def _named_create(area: str) -> Callable[[Ctx, str], tuple[str, BrowserForm]]:
    def fill(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
        html = ctx.client.get(_company_path(ctx, f"{area}/")).get_data(as_text=True)
        form = next(f for f in _forms(html) if f.url.endswith(f"/{area}/new"))
        return form.url, form.set("name", marker)
    return fill


def _forms(html: str) -> list[BrowserForm]:
    """Every post form of a page as an editable BrowserForm with its `url`."""
    found = []
    for action in post_forms(html, "/"):
        form = BrowserForm("")
        form.pairs, form.url = list(action.values), action.url
        found.append(form)
    return found


def _catalog_named(path: str) -> Callable[[Ctx, str], int]:
    return lambda ctx, marker: sum(i.get("name") == marker for i in ctx.api.get(path).json())


def _vat_create(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    path, form = _named_create("vat-categories")(ctx, marker)
    return path, form.set("percent", "27").set("type", "revenue")


def _tax_create(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    path = _company_path(ctx, "taxes/new")
    form = page_form(ctx.client, path).set("rows-0-month", "2024-03")
    form.set("rows-0-amount", "150000").set("rows-0-code", "103")
    return path, form.set("rows-0-description", marker)


def _vat_edit(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    first = ctx.api.get("/2/accounting/vat-categories/").json()[0]["id"]
    path = _company_path(ctx, f"vat-categories/{first}/edit")
    return path, page_form(ctx.client, path).set("name", marker)


def _tag_rename(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    assert ctx.api.post("/2/tags/create/", json={"name": "Régi címke"}).ok
    tag_id = next(t["id"] for t in ctx.api.get("/2/tags/").json() if t["name"] == "Régi címke")
    html = ctx.client.get(_company_path(ctx, "tags/")).get_data(as_text=True)
    form = next(f for f in _forms(html) if f.url.endswith("/tags/rename"))
    return form.url, form.set(f"name-{tag_id}", marker)


def _tax_edit(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    made = ctx.api.post("/2/taxes/create/", json=[{"month": "2024-03", "amount": "100",
                                                   "code": "103"}])
    assert made.status_code == 201, made.text
    record = made.json()["monthly_taxes"][0]["taxes"][0]["id"]
    path = _company_path(ctx, f"taxes/edit?ids={record}")
    return path, page_form(ctx.client, path).set(f"r-{record}-description", marker)


def _taxes_described(ctx: Ctx, marker: str) -> int:
    body = ctx.api.get("/2/monthly-taxes/", params={"fields": "taxes"}).json()
    return sum(r.get("description") == marker for m in body["monthly_taxes"] for r in m["taxes"])


def _review_done(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    income_id = _revenue_income(ctx)
    reset = ctx.client.application.config["UPSTREAM_URL"] + f"/_sandbox/incomes/{income_id}/"
    assert requests.patch(reset, json={"needs_review": True, "review_done": False},
                          timeout=10).status_code == 200
    path = _company_path(ctx, f"review/{income_id}")
    html = ctx.client.get(path).get_data(as_text=True)
    form = next(f for f in _forms(html) if f.url.split("?")[0].endswith("/done"))
    form.pairs.append(("action", "done"))
    return form.url, form


def _reviewed(ctx: Ctx, marker: str) -> int:
    return sum(bool(ctx.api.get(f"/1/incomes/{i['id']}/").json().get("review_done"))
               for i in _incomes(ctx))


def _expense_upload(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    path = _company_path(ctx, "expenses/new")
    return path, page_form(ctx.client, path)


def _expense_file(marker: str) -> dict:
    return {"files": [(io.BytesIO(minimal_pdf(marker)), f"{marker}.pdf")]}


def _expenses(ctx: Ctx, marker: str) -> int:
    body = ctx.api.get("/2/expenses", params={"page_size": 100}).json()
    return len(body["results"]["expenses"])


def _salary_create(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    path = _company_path(ctx, "salaries/new")
    form = page_form(ctx.client, path).set("rows-0-month", "2024-03")
    form.set("rows-0-amount", "420000").set("rows-0-name", "Kovács Anna")
    form.set("rows-0-account_number", "11773016-11111018-00000000")
    return path, form.set("rows-0-tax_number", "8412345673").set("rows-0-description", marker)


def _salaries_described(ctx: Ctx, marker: str) -> int:
    body = ctx.api.get("/2/monthly-salaries/", params={"fields": "salaries"}).json()
    return sum(r.get("description") == marker
               for m in body["monthly_salaries"] for r in m["salaries"])


def _expense_edit(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    made = requests.post(f"{ctx.api.base}/_sandbox/expenses/", timeout=10, json={
        "company_id": ctx.company.id, "partner_name": "Szállító Kft.",
        "invoice_number": "SZ-WF-1"})
    assert made.status_code == 201, made.text
    path = _company_path(ctx, f"expenses/{made.json()['id']}/edit")
    form = page_form(ctx.client, path).set("note", marker)
    form.pairs = [(k, v) for k, v in form.pairs if "__index__" not in k]
    return path, form


def _expense_notes(ctx: Ctx, marker: str) -> int:
    body = ctx.api.get("/2/expenses", params={"page_size": 100}).json()
    details = [ctx.api.get(f"/2/expenses/{e['id']}/").json() for e in body["results"]["expenses"]]
    return sum((d.get("note") or "") == marker for d in details)


def _settings_save(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    path = _company_path(ctx, "settings/")
    form = page_form(ctx.client, path)
    form.pairs.append(("enable_vat_period", "y"))
    return path, form


def _vat_period_on(ctx: Ctx, marker: str) -> int:
    return int(bool(ctx.api.get("/2/company-info/").json().get("enable_vat_period")))


def _policy_save(ctx: Ctx, marker: str) -> tuple[str, BrowserForm]:
    set_stored(ctx.api, config(policy("Régi szabály")))
    editor = Editor(ctx.client, ctx.company)
    assert editor.rule("policies", 0, {"name": marker}).status_code == 303
    html = ctx.client.get(_company_path(ctx, "policies/review")).get_data(as_text=True)
    form = next(f for f in _forms(html) if f.url.endswith("/policies/save"))
    return form.url, form


def _policies_named(ctx: Ctx, marker: str) -> int:
    return sum(p.get("name") == marker for p in (stored(ctx.api) or {}).get("policies", []))


WRITES = [
    WriteCase("income create", "incomes.new", "POST", "/2/incomes/create/", _income_create,
              lambda ctx, m: sum(i["invoice_number"] == m for i in _incomes(ctx))),
    WriteCase("income edit", "incomes.edit", "PATCH", "/2/incomes/*/update/", _income_edit,
              _notes, creates=False),
    WriteCase("income cancel", "incomes.cancel", "PATCH", "/2/incomes/*/update/", _income_cancel,
              lambda ctx, m: sum(bool(i.get("is_cancelled")) for i in _incomes(ctx)),
              creates=False),
    WriteCase("partner create", "partners.new", "POST", "/2/partners/create/", _partner_create,
              _partners_named),
    WriteCase("partner edit", "partners.edit", "PATCH", "/2/partners/*/update/", _partner_edit,
              _partners_named, creates=False),
    WriteCase("tag create", "tags.create", "POST", "/2/tags/create/", _named_create("tags"),
              _catalog_named("/2/tags/")),
    WriteCase("revenue type create", "revenue_types.create", "POST", "/2/revenue-types/create/",
              _named_create("revenue-types"), _catalog_named("/2/revenue-types/")),
    WriteCase("VAT category create", "vat_categories.create", "POST",
              "/2/accounting/vat-categories/create/", _vat_create,
              _catalog_named("/2/accounting/vat-categories/")),
    WriteCase("VAT category edit", "vat_categories.edit", "POST",
              "/2/accounting/vat-categories/update/*/", _vat_edit,
              _catalog_named("/2/accounting/vat-categories/"), creates=False),
    WriteCase("tag rename", "tags.rename", "PATCH", "/2/tags/update/", _tag_rename,
              _catalog_named("/2/tags/"), creates=False),
    WriteCase("tax create", "taxes.new", "POST", "/2/taxes/create/", _tax_create,
              _taxes_described),
    WriteCase("tax edit", "taxes.edit", "POST", "/2/taxes/update/", _tax_edit,
              _taxes_described, creates=False),
    WriteCase("review done", "review.act", "PATCH", "/2/incomes/*/update/", _review_done,
              _reviewed, creates=False),
    WriteCase("expense upload", "expenses.new", "POST", "/2/expenses/create/", _expense_upload,
              _expenses, files=_expense_file),
    WriteCase("expense edit", "expenses.edit", "PATCH", "/2/expenses/*/update/", _expense_edit,
              _expense_notes, creates=False),
    WriteCase("salary create", "salaries.new", "POST", "/2/salaries/create/", _salary_create,
              _salaries_described),
    WriteCase("settings save", "settings.index", "PATCH", "/2/company-info/update/*/",
              _settings_save, _vat_period_on, creates=False),
    WriteCase("policy save", "policy_editor.save", "PATCH", "/2/company-info/update/*/",
              _policy_save, _policies_named, creates=False),
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
    ctx = Ctx(client, company, api, signed_in(client, company, "incomes/"))
    marker = f"LOST-{case.endpoint.replace('.', '-')}-1"
    path, form = case.fill(ctx, marker)
    before = case.stored(ctx, marker)
    sandbox_log.reset()
    faults.add(path=case.upstream_path, method=case.method, kind="reset_after", count=1)
    first = client.post(path, data=case.data(form, marker))
    assert not faults.unspent(), f"{case.name} never sent {case.method} {case.upstream_path}"
    problems = clear_outcome_problems(ctx, first, form, marker)
    again = client.post(path, data=case.data(form, marker))
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


def _status(client, path: str) -> int:
    """The status of a GET, its body read and closed as a browser would (a streamed export
    left open keeps its request context until it is collected, inside a later request)."""
    response = client.get(path)
    response.get_data()
    response.close()
    return response.status_code


def test_ten_percent_503s_and_five_percent_resets_on_reads_never_reach_the_user(
        retrying_app, sandbox_url, company, faults):
    client = retrying_app.test_client()
    signed_in(client, company, "incomes/")
    routes = [r for r in RouteSampler(retrying_app, SampleContext(sandbox_url, company))
              .get_routes() if not any(word in r.endpoint for word in NOT_PAGES)]
    baseline = {r.path: _status(client, r.path) for r in routes}
    faults.add(path="/[12]/*", method="GET", kind="status", status=503, rate=0.10)
    faults.add(path="/[12]/*", method="GET", kind="reset", rate=0.05)
    seen = {r.path: _status(client, r.path) for r in routes}
    changed = {path: (baseline[path], status) for path, status in seen.items()
               if status != baseline[path]}
    assert len(routes) >= 5 and not changed, f"pages that answered differently: {changed}"
