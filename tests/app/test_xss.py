"""Upstream data carrying XSS payloads is rendered inert on every page that can show it.

The test company's partners, incomes (partner name, note, invoice number), tags, revenue types,
expenses (partner, note) and income policies (names, condition values) carry script tags,
attribute breakers, javascript: links and template expressions. Every GET route of the app is
rendered (page and htmx fragment) with those records as its URL arguments; no page may contain a
payload as live markup, a javascript: URL in an attribute, or an evaluated template expression.
"""
from __future__ import annotations

import re

import pytest

from tests.app.conftest import signed_in
from tests.support.routes import RouteSampler, SampleContext

SCRIPT = "<script>alert(1)</script>"
BREAKER = '"><img src=x onerror=alert(1)>'
JS_LINK = "javascript:alert(1)"
TEMPLATE = "{{7*7}}zq{{7*'7'}}"
PAYLOADS = (SCRIPT, BREAKER, JS_LINK, TEMPLATE)
# Live markup a payload would leave behind if it reached the HTML unescaped.
LIVE = (
    re.compile(r"<script>alert\(1\)", re.I),
    re.compile(r"<img src=x onerror", re.I),
    re.compile(r"""(?:href|src|action|formaction|hx-get|hx-post)\s*=\s*["']?\s*javascript:""",
               re.I),
    re.compile(r"49zq"),
)
SKIPPED_ENDPOINTS = {"static", "auth.logout"}


def poisoned(label: str) -> str:
    """A value carrying every payload, recognisable per field."""
    return f"{label} {SCRIPT} {BREAKER} {TEMPLATE}"


@pytest.fixture
def records(sandbox_url, company, api):
    """The company's records, every text field poisoned; returns a SampleContext preset."""
    ctx = SampleContext(sandbox_url, company)
    tag = ctx.api("POST", "/2/tags/create/", {"name": poisoned("tag")})
    revenue_type = ctx.api("POST", "/2/revenue-types/create/", {"name": poisoned("rt")})
    partner = ctx.api("POST", "/2/partners/create/", {
        "name": poisoned("partner"), "is_customer": True, "is_vendor": True})
    vat = next(v["id"] for v in ctx.api("GET", "/2/accounting/vat-categories/")
               if v["type"] == "revenue")
    income = ctx.api("POST", "/2/incomes/create/", {
        "invoice_number": f"X-{SCRIPT}", "issued_at": "2025-03-05", "fulfilled_at": "2025-03-05",
        "due_at": "2025-03-20", "net_amount": "1000.00", "vat_amount": "270.00",
        "gross_amount": "1270.00", "partner_name": poisoned("buyer"),
        "note": poisoned("note") + " " + JS_LINK, "tags": [tag["id"]],
        "assignments": [{"revenue_type": revenue_type["id"], "vat": vat,
                         "net_amount": "1000.00", "gross_amount": "1270.00"}]})
    expense = ctx.control("/_sandbox/expenses/", {
        "partner_name": poisoned("vendor"), "invoice_number": f"E-{BREAKER}",
        "note": poisoned("expense note")})
    settings = api.patch(f"/2/company-info/update/{company.id}/", json={"income_policies": {
        "v": 2, "skip_for_multiple_match": False, "ignore_policies": [], "policies": [{
            "name": poisoned("policy"), "enabled": True, "match": "all",
            "conditions": [{"field": "partner_name", "op": "contains", "value": SCRIPT}],
            "set": {"tags": [poisoned("new tag")]}}]}})
    assert settings.status_code == 200, settings.text
    ctx.made.update({"income": income["id"], "expense": expense["id"],
                     "partner": partner["id"], "/2/tags/": tag["id"],
                     "/2/revenue-types/": revenue_type["id"]})
    return ctx


def live_payloads(html: str) -> list[str]:
    """The live-markup patterns found in a page."""
    return [pattern.pattern for pattern in LIVE if pattern.search(html)]


def test_payloads_are_escaped_on_the_income_pages(app, client, company, records):
    signed_in(client, company)
    for path in (f"/c/{company.id}/incomes/", f"/c/{company.id}/incomes/{records.made['income']}"):
        html = client.get(path).get_data(as_text=True)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, f"{path} does not show the data"
        assert not live_payloads(html), path


def test_no_page_or_fragment_renders_upstream_payloads_as_markup(app, client, company, records):
    signed_in(client, company)
    routes = [r for r in RouteSampler(app, records).get_routes()
              if r.endpoint not in SKIPPED_ENDPOINTS]
    found, rendered = [], 0
    for route in routes:
        path = f"{route.path}?partner_q=%3Cscript&q=%3Cscript"
        for headers in ({}, {"HX-Request": "true", "HX-Current-URL": f"http://localhost{path}"}):
            response = client.get(path, headers=headers)
            if not response.mimetype.startswith("text/html"):
                response.close()  # a streamed export ends here, in its own request context
                continue
            rendered += 1
            found += [f"{route.endpoint} {path} {'htmx' if headers else 'page'}: {pattern}"
                      for pattern in live_payloads(response.get_data(as_text=True))]
    assert rendered >= len(routes), "too few HTML pages rendered for the sweep to mean much"
    assert not found, "payloads rendered as markup:\n" + "\n".join(found)


def test_a_search_term_is_echoed_escaped(client, company, records):
    signed_in(client, company)
    response = client.get(f"/c/{company.id}/incomes/?q={BREAKER}&partner_q={BREAKER}")
    assert not live_payloads(response.get_data(as_text=True))
