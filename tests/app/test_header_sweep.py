"""Header sweep: every GET route, error page and htmx fragment carries the security headers.

Routes come from app.url_map through the shared sampler, so pages added later are swept too.
"""
from __future__ import annotations

import re

import pytest

from tests.app.conftest import sign_in
from tests.support.routes import RouteSampler, SampleContext, error_paths

SERVER_TIMING = re.compile(r'(^|,\s*)upstream;dur=\d+(\.\d+)?;desc="(\d+) calls?"')
HTMX = {"HX-Request": "true", "HX-Current-URL": "http://localhost/"}


def header_problems(response, *, signed_in: bool, static: bool = False) -> list[str]:
    """What is missing or wrong in one response's security headers."""
    h = response.headers
    csp = h.get("Content-Security-Policy", "")
    checks = _framed_document_checks(h, csp) if _framed_document(csp) else {
        "CSP allows unsafe-inline/eval": "unsafe-" not in csp,
        "CSP lacks frame-ancestors 'none'": "frame-ancestors 'none'" in csp,
        "X-Frame-Options not DENY": h.get("X-Frame-Options") == "DENY",
    }
    checks |= {
        "CSP missing": bool(csp),
        "no nosniff": h.get("X-Content-Type-Options") == "nosniff",
        "Referrer-Policy not same-origin": h.get("Referrer-Policy") == "same-origin",
        "no X-Request-Id": bool(h.get("X-Request-Id")),
        "Server-Timing lacks upstream": bool(SERVER_TIMING.search(h.get("Server-Timing", ""))),
    }
    if not static:
        checks["Vary lacks HX-Request"] = "hx-request" in h.get("Vary", "").lower()
        if signed_in:
            checks["Cache-Control lacks no-store"] = "no-store" in h.get("Cache-Control", "")
    return [name for name, ok in checks.items() if not ok]


def _framed_document(csp: str) -> bool:
    return "frame-ancestors 'self'" in csp


def _framed_document_checks(headers, csp: str) -> dict[str, bool]:
    """A document Bookdesk's own pages frame (a PDF) must itself load and run nothing."""
    return {
        "framed document CSP lacks default-src 'none'": "default-src 'none'" in csp,
        "framed document has an attachment or inline disposition":
            "Content-Disposition" in headers,
        "framed document X-Frame-Options not SAMEORIGIN":
            headers.get("X-Frame-Options") == "SAMEORIGIN",
    }


def upstream_calls(response) -> int:
    """The call count the Server-Timing header reports."""
    return int(SERVER_TIMING.search(response.headers["Server-Timing"]).group(3))


def _sweep(client, paths, *, signed_in: bool) -> list[str]:
    problems = []
    for path in paths:
        for label, headers in (("", {}), ("htmx ", HTMX)):
            response = client.get(path, headers=headers)
            static = path.startswith("/static/")
            found = header_problems(response, signed_in=signed_in, static=static)
            response.close()  # a streamed export ends here, in its own request context
            problems += [f"{label}GET {path} ({response.status_code}): {p}" for p in found]
    return problems


@pytest.fixture
def swept_app(app):
    """The app with a route that crashes, to sweep the 500 page too."""
    def crash():
        raise RuntimeError("boom for the header sweep")

    app.add_url_rule("/_test/crash", "test_crash", crash)
    return app


def test_every_get_route_and_its_htmx_fragment_carries_the_security_headers(
        swept_app, company, sandbox_url):
    client = swept_app.test_client()
    sign_in(client, company)
    sampler = RouteSampler(swept_app, SampleContext(sandbox_url, company))
    paths = [route.path for route in sampler.get_routes()]
    paths += list(error_paths(company.id).values())
    assert f"/c/{company.id}/" in paths and "/_test/crash" in paths
    assert client.get("/_test/crash").status_code == 500
    problems = _sweep(client, paths, signed_in=True)
    assert not problems, "\n".join(problems)


def test_a_route_with_an_unsampled_argument_fails_the_sweep_with_a_hint(app, company,
                                                                      sandbox_url):
    app.add_url_rule("/c/<int:company_id>/widgets/<int:widget_id>", "test_widget",
                     lambda company_id, widget_id: "")
    sampler = RouteSampler(app, SampleContext(sandbox_url, company))
    with pytest.raises(pytest.fail.Exception, match=r"widgets/<int:widget_id>.*<widget_id>"):
        sampler.get_routes()


def test_anonymous_pages_carry_the_security_headers(app, company):
    client = app.test_client()
    paths = ["/login", f"/c/{company.id}/", "/no-such-page", "/lang/en"]
    assert not _sweep(client, paths, signed_in=False)


def test_server_timing_counts_the_upstream_calls_of_the_page(client, company):
    sign_in(client, company)
    assert upstream_calls(client.get(f"/c/{company.id}/")) >= 1
    assert upstream_calls(client.get("/login")) == 0


@pytest.mark.parametrize("kind", ["403 permission", "503 unavailable", "400 csrf"])
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_error_pages_and_fragments_carry_the_security_headers(client, company, faults, kind,
                                                                htmx):
    sign_in(client, company)
    headers = HTMX if htmx else {}
    if kind == "400 csrf":
        response = client.post("/logout", headers=headers)
    else:
        rule = {"kind": "status", "status": 403} if kind.startswith("403") else {"kind": "reset"}
        faults.add(path="/[12]/*", **rule)
        response = client.get(f"/c/{company.id}/", headers=headers)
    assert response.status_code == int(kind[:3])
    assert not header_problems(response, signed_in=True)
    if htmx:
        assert response.headers.get("HX-Retarget") == "#messages"
