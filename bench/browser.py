"""What the browser sees: Chromium loads six pages cold and warm over an upstream adding 50 ms.

    python -m bench.browser [--latency-ms 50] [--runs 3]

Starts the sandbox (demo data, its own process, --latency-ms added to every API call) and
Bookdesk (bench/common.py: warmed, threaded, loopback), signs in as demo-admin and hands the
session cookie to headless Chromium (/usr/bin/chromium through Playwright). For each page:
*cold* clears the browser cache first (Chrome DevTools Protocol), *warm* loads the page again
right after. Figures are the median of --runs loads, read from the page's own Navigation and
Resource Timing and a largest-contentful-paint PerformanceObserver: TTFB (responseStart),
DOMContentLoaded, LCP, the requests that went to the network (transferSize > 0: a cache hit
is 0, a revalidation is not) and the bytes they transferred (headers and compressed bodies).
Chromium sends no `br` over plain http, so HTML and static files arrive gzip-encoded here.
Prints a Markdown table; asserts nothing.
"""
from __future__ import annotations

import argparse
import re
import statistics

from bench.common import machine, signed_in, start_bookdesk, start_sandbox, table
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

BASE = "/c/1"
LCP_OBSERVER = """
new PerformanceObserver(list => {
  const entries = list.getEntries();
  window.__lcp = entries[entries.length - 1].startTime;
}).observe({type: "largest-contentful-paint", buffered: true});
"""
METRICS = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const all = [nav, ...performance.getEntriesByType("resource")];
  const network = all.filter(e => e.transferSize > 0);
  return {ttfb: nav.responseStart, dcl: nav.domContentLoadedEventEnd, lcp: window.__lcp ?? null,
          requests: network.length, bytes: network.reduce((s, e) => s + e.transferSize, 0)};
}"""
_FIRST = {"income": re.compile(rf'href="{BASE}/incomes/(\d+)"'),
          "review": re.compile(rf'href="{BASE}/review/(\d+)"')}


def pages(http, base_url: str) -> dict[str, str]:
    """The six pages, with a real income and review item from the demo data."""
    listing = http.get(f"{base_url}{BASE}/incomes/?page_size=100", timeout=30).text
    queue = http.get(f"{base_url}{BASE}/review/", timeout=30).text
    income = _FIRST["income"].search(listing).group(1)
    step = _FIRST["review"].search(queue)
    return {"dashboard": f"{BASE}/", "income list (100 rows)": f"{BASE}/incomes/?page_size=100",
            "income detail": f"{BASE}/incomes/{income}",
            "review step": f"{BASE}/review/{step.group(1) if step else income}",
            "expense list": f"{BASE}/expenses/?page_size=100",
            "policy editor": f"{BASE}/policies/"}


def load(page, url: str) -> dict:
    """Navigate, wait for the network to settle, and read the timings."""
    page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(100)  # LCP entries are reported after the paint
    return page.evaluate(METRICS)


def measure(context, url: str, runs: int) -> dict[str, list[dict]]:
    """`runs` cold loads (cache cleared) and the warm load after each."""
    page = context.new_page()
    devtools = context.new_cdp_session(page)
    devtools.send("Network.enable")
    found: dict[str, list[dict]] = {"cold": [], "warm": []}
    for _ in range(runs):
        devtools.send("Network.clearBrowserCache")
        found["cold"].append(load(page, url))
        found["warm"].append(load(page, url))
    page.close()
    return found


def row(name: str, state: str, samples: list[dict]) -> list:
    """Medians of one page in one cache state."""
    def median(key: str) -> float:
        values = [s[key] for s in samples if s[key] is not None]
        return statistics.median(values) if values else float("nan")

    return [name, state, f"{median('ttfb'):.0f}", f"{median('dcl'):.0f}", f"{median('lcp'):.0f}",
            f"{median('requests'):.0f}", f"{median('bytes') / 1024:.1f}"]


def run(args) -> list[list]:
    """Start everything, drive Chromium over the pages, return the table rows."""
    from playwright.sync_api import sync_playwright

    sandbox = start_sandbox(args.latency_ms)
    bookdesk = start_bookdesk(sandbox.url)
    rows = []
    try:
        http = signed_in(bookdesk.url)
        cookies = [{"name": c.name, "value": c.value, "url": bookdesk.url} for c in http.cookies]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=CHROMIUM_ARGS)
            context = browser.new_context(base_url=bookdesk.url, locale="en-GB")
            context.add_cookies(cookies)
            context.add_init_script(LCP_OBSERVER)
            for name, url in pages(http, bookdesk.url).items():
                found = measure(context, url, args.runs)
                rows += [row(name, state, found[state]) for state in ("cold", "warm")]
            browser.close()
    finally:
        bookdesk.stop()
        sandbox.stop()
    return rows


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-ms", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows = run(args)
    print(f"\nBrowser: headless Chromium, {args.latency_ms} ms added per upstream call, median "
          f"of {args.runs} loads per page and state; {machine()}\n")
    print(table(["page", "cache", "TTFB ms", "DOMContentLoaded ms", "LCP ms",
                 "network requests", "KiB transferred"], rows))


if __name__ == "__main__":
    main()
