"""In Chromium, a warm page load fetches no CSS, JS or icon over the network (app/assets.py).

Two witnesses: the live server's access log (a request that reached the server is logged, a
revalidation too) and the page's own Resource Timing entries, whose transferSize is 0 only when
the file came from the cache without even a revalidation. (Playwright reports cached responses
as finished requests too, so its request events cannot tell the two apart.)
"""
from __future__ import annotations

import logging
import re

STATIC = re.compile(r"/static/.+\.(css|js|ico|png|svg|woff2?)$")
RESOURCES = """() => performance.getEntriesByType('resource')
    .filter(e => e.name.includes('/static/'))
    .map(e => ({name: e.name, transfer: e.transferSize, delivery: e.deliveryType}))"""


def served_static(caplog) -> list[str]:
    """The static files the live server answered (werkzeug's access log lines, this thread or
    the server's: caplog sees both)."""
    return [r.getMessage() for r in caplog.records
            if r.name == "werkzeug" and STATIC.search(r.getMessage().split(" HTTP/")[0])]


def _load(page, url: str, reload: bool = False) -> list[dict]:
    if reload:
        page.reload(wait_until="load")
    else:
        page.goto(url, wait_until="load")
    return page.evaluate(RESOURCES)


def test_a_warm_page_load_makes_no_request_for_css_js_or_icons(signed_in_page, company, caplog):
    caplog.set_level(logging.INFO, logger="werkzeug")
    page = signed_in_page(company)
    caplog.clear()
    incomes = f"/c/{company.id}/incomes/"
    cold = _load(page, incomes)
    assert any(e["transfer"] > 0 for e in cold), f"nothing came over the network cold: {cold}"
    assert served_static(caplog), "the cold load fetched no static file"
    for again in (lambda: _load(page, incomes, reload=True), lambda: _load(page, incomes)):
        caplog.clear()
        warm = again()
        assert warm and {e["name"] for e in warm} == {e["name"] for e in cold}
        fetched = [e for e in warm if e["transfer"] > 0]
        assert not fetched, f"warm load fetched static files: {fetched}"
        assert not served_static(caplog), served_static(caplog)
    page.bookdesk_log.assert_clean()
