"""Malformed-input sweep: hostile query parameters and form fields never make a server error.

Routes come from app.url_map through the shared sampler, and the parameters and fields from the
pages themselves (tests/support/crawl.py): every GET form, every link's query and every POST
form the signed-in pages render, plus the parameters every list shares. So a filter, field or
page added later is swept too. Each gets non-numbers, 40-digit numbers, negatives, NaN,
Infinity, huge strings, impossible dates and repeated values; every answer must be below 500,
and what is refused for its size must not reach the accounting service.
"""
from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest

from tests.app.conftest import csrf_token, sign_in
from tests.support.crawl import PageMap
from tests.support.routes import RouteSampler, SampleContext

MALFORMED = {
    "not a number": "abc",
    "40 digits": "9" * 40,
    "negative": "-1",
    "NaN": "NaN",
    "Infinity": "-Infinity",
    "impossible date": "2024-02-30",
    # years whose neighbouring month or year date() cannot hold (a period's previous / next)
    "last year": "9999",
    "last month": "9999-12",
    "month of year one": "0001-01",
    "unicode digits": "²³",
}
HUGE = "x" * 5000
NON_FINITE = ("NaN", "Infinity", "-Infinity", "1e400", "9" * 40)
OVERSIZED = "7" * 20_000
# Read by most lists and pages; sent together to every route even where no link shows them.
COMMON_PARAMS = ("page", "page_size", "id", "ordering", "cursor", "q")
# Pages that read another page's parameters: an export and a review screen read the list's
# filter, and a fresh company has no version for a link to the version export.
SAME_PARAMS_AS = {"incomes.export": "incomes.index", "expenses.export": "expenses.index",
                  "review.screen": "review.index"}
EXTRA_PARAMS = {"policy_editor.export": {"what"}}
# Forms whose submission ends the session.
SESSION_ENDING = {"/logout"}
ROW_INDEX = re.compile(r"-\d+-")


@pytest.fixture
def swept(app, company, sandbox_url):
    """(client signed in as admin, sampled GET routes, the crawled page map)."""
    client = app.test_client()
    sign_in(client, company)
    routes = RouteSampler(app, SampleContext(sandbox_url, company)).get_routes()
    routes = [route for route in routes if route.endpoint != "static"]
    pages = PageMap()
    for route in routes:
        response = client.get(route.path)
        assert response.status_code < 500, f"GET {route.path} -> {response.status_code}"
        if response.mimetype == "text/html":
            pages.visit(route.path, response.get_data(as_text=True))
        response.close()  # a streamed export ends here, in its own request context
    return client, routes, pages


def _query_attempts(names: set[str]):
    """(label, query): one huge value for all; the common parameters together with each
    malformed value; each parameter the route's pages use alone with each, and repeated."""
    everything = sorted(names | set(COMMON_PARAMS))
    yield "all huge", urlencode(dict.fromkeys(everything, HUGE))
    for label, value in MALFORMED.items():
        yield f"common={label}", urlencode(dict.fromkeys(COMMON_PARAMS, value))
    for name in sorted(names):
        for label, value in MALFORMED.items():
            yield f"{name}={label}", urlencode({name: value})
        yield f"{name} twice", urlencode([(name, "1"), (name, "9" * 40)])


def test_every_query_parameter_with_malformed_values_gets_no_server_error(swept):
    client, routes, pages = swept
    by_endpoint = {route.endpoint: route.path for route in routes}
    assert "partner" in pages.params[by_endpoint["incomes.index"]]
    failures, sent = [], 0
    for route in routes:
        for label, query in _query_attempts(_params_of(route, pages, by_endpoint)):
            response = client.get(f"{route.path}?{query}")
            response.close()
            sent += 1
            if response.status_code >= 500:
                failures.append(f"GET {route.path} [{label}] -> {response.status_code}")
    assert sent > 300
    assert not failures, f"{len(failures)} server errors:\n" + "\n".join(failures)


def _params_of(route, pages: PageMap, by_endpoint: dict) -> set[str]:
    """The parameters a route's pages use, with those of the page it shares them with."""
    shared = by_endpoint.get(SAME_PARAMS_AS.get(route.endpoint), "")
    return (pages.params.get(route.path, set()) | pages.params.get(shared, set())
            | EXTRA_PARAMS.get(route.endpoint, set()))


def _swept_fields(form) -> list[str]:
    """The form's fields to spoil: the first row of a repeated table stands for the others."""
    names, seen = [], set()
    for name in [*form.fields, *form.options]:
        shape = ROW_INDEX.sub("-#-", name)
        if name != "csrf_token" and "__index__" not in name and shape not in seen:
            seen.add(shape)
            names.append(name)
    return names


def _sweepable(form) -> bool:
    return form.path not in SESSION_ENDING and bool(_swept_fields(form))


def _spoil(form, spoilt: dict) -> dict:
    """The form as sent untouched, with the spoilt fields (ticked boxes among them)."""
    return {**form.data(), **spoilt}


def _post_all(client, pages: PageMap, attempts) -> list[str]:
    """POST every sweepable form with each (label, spoilt fields); the server errors."""
    forms = [form for form in pages.write_forms.values() if _sweepable(form)]
    assert len(forms) >= 10, sorted(pages.write_forms)
    token = csrf_token(client.get("/login").get_data(as_text=True))
    failures = []
    for form in forms:
        for label, spoilt in attempts(_swept_fields(form)):
            response = client.post(form.path, data={**_spoil(form, spoilt),
                                                    "csrf_token": token})
            if response.status_code >= 500:
                failures.append(f"POST {form.path} [{label}] -> {response.status_code}")
    return failures


def _non_finite(names):
    for value in NON_FINITE:
        yield f"all={value[:12]}", dict.fromkeys(names, value)
    for position, name in enumerate(names):
        yield name, {name: NON_FINITE[position % len(NON_FINITE)]}


def test_every_form_field_with_non_finite_values_gets_no_server_error(swept):
    client, _routes, pages = swept
    failures = _post_all(client, pages, _non_finite)
    assert not failures, f"{len(failures)} server errors:\n" + "\n".join(failures)


def test_every_form_field_oversized_is_refused_before_the_accounting_service(swept,
                                                                               sandbox_log):
    client, _routes, pages = swept
    sandbox_log.reset()
    failures = _post_all(client, pages, lambda names: ((n, {n: OVERSIZED}) for n in names))
    leaked = {f"{e['method']} {e['path']}" for e in sandbox_log.entries()
              if OVERSIZED[:1000] in json.dumps(e)}
    assert not leaked, f"oversized input reached the accounting service: {sorted(leaked)}"
    assert not failures, f"{len(failures)} server errors:\n" + "\n".join(failures)


def test_a_10_mb_form_field_is_refused_before_the_accounting_service(app, company,
                                                                     sandbox_log):
    client = app.test_client()
    sign_in(client, company)
    path = f"/c/{company.id}/partners/new"
    token = csrf_token(client.get(path).get_data(as_text=True))
    sandbox_log.reset()
    response = client.post(path, data={"csrf_token": token, "name": "x" * 10_000_000})
    assert response.status_code == 413
    assert "a file or a field is over the size Bookdesk accepts" in response.get_data(
        as_text=True)
    assert not sandbox_log.entries(company_id=company.id)


def test_a_policy_export_of_an_unknown_kind_is_a_400(app, company):
    client = app.test_client()
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/policies/export?what=everything")
    assert response.status_code == 400
    assert "“what” has a value this page does not know" in response.get_data(as_text=True)
