"""Browser test harness: a live Bookdesk over the live sandbox, headless Debian Chromium.

Fixtures (every test under tests/e2e/ is marked `e2e` automatically):

    bookdesk_server   session (one per xdist worker): a `LiveServer(url, app)` -- Bookdesk built by
                      create_app (TESTING, a SECRET_KEY, UPSTREAM_URL = the live sandbox, instance
                      folder in a tmp dir, default retries with a short backoff), served by
                      werkzeug's threaded server in a daemon thread on a free 127.0.0.1 port.
    bookdesk_url      session: its base URL, e.g. "http://127.0.0.1:40123" (no trailing slash).
    browser           session: one Chromium per worker (/usr/bin/chromium, headless). Missing
                      binary: the test fails when the CI env var is set, is skipped otherwise.
    page              function: a Page in a fresh BrowserContext (own cookies, base_url set, so
                      `page.goto("/login")` works; 10 s default timeout). Console messages, uncaught
                      page errors and CSP violations are recorded in `page.bookdesk_log` (a
                      BrowserLog). Any CSP violation fails the test. On failure a screenshot and
                      the browser log go to test-artifacts/<test name>.png/.log.
    browser_log       function: the BrowserLog of `page` (console_errors, page_errors,
                      csp_violations, assert_clean()).
    new_page          function: factory for another Page in its own context (a second browser
                      "user"); watched and screenshotted like `page`.
    signed_in_page    function: signed_in_page(company, role="admin", name="Teszt Elek",
                      page=None) signs in through the real /login form (on `page` unless another is
                      given), waits for the company dashboard and returns the page.

Plain helper: `sign_in(page, company, role="admin", name=..., company_id=None)` does the same
form sign-in on any page (use it to add a second company to one session).

CSP violations are caught twice: by a `securitypolicyviolation` listener installed with
`add_init_script` (injected by the browser, not inline page script, so the CSP allows it) that
reports through an exposed binding, and by Chromium's own "Content Security Policy" console errors.
"""
from __future__ import annotations

import os
import re
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from app import create_app
from tests.conftest import in_ci

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
DEFAULT_TIMEOUT_MS = 10_000
ARTIFACTS = "test-artifacts"
E2E_DIR = Path(__file__).resolve().parent
_CSP_BINDING = "__bookdeskCspViolation"
_CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", function (e) {
  var report = window.__BINDING__;
  var text = e.violatedDirective + " blocked " + (e.blockedURI || "inline") +
    " at " + e.documentURI + (e.sourceFile ? " (" + e.sourceFile + ":" + e.lineNumber + ")" : "");
  if (report) { report(text); }
});
""".replace("__BINDING__", _CSP_BINDING)


def pytest_collection_modifyitems(config, items):
    """Mark every browser test `e2e` (so `-m "not e2e"` leaves them out)."""
    for item in items:
        if E2E_DIR in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.e2e)


@dataclass
class LiveServer:
    """A Bookdesk app served over real HTTP."""

    url: str
    app: object


@pytest.fixture(scope="session")
def bookdesk_server(sandbox_url, tmp_path_factory):
    """Bookdesk against the live sandbox, threaded werkzeug server on a free loopback port."""
    instance = tmp_path_factory.mktemp("bookdesk-e2e") / "instance"
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "e2e-secret-key",
        "UPSTREAM_URL": sandbox_url,
        "INSTANCE_PATH": str(instance),
        "UPSTREAM_READ_TIMEOUT": 10,
        "UPSTREAM_BACKOFF": 0.05,  # fault tests stay quick; retry counts stay the defaults
    })
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="bookdesk-e2e", daemon=True)
    thread.start()
    yield LiveServer(f"http://127.0.0.1:{server.server_port}", app)
    server.shutdown()


@pytest.fixture(scope="session")
def bookdesk_url(bookdesk_server) -> str:
    """Base URL of the live Bookdesk (no trailing slash)."""
    return bookdesk_server.url


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium per worker; a missing binary fails on CI and skips elsewhere."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is not installed (apt-get install chromium)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                          args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()
    playwright.stop()


@dataclass
class BrowserLog:
    """What one page's browser reported: console errors, page errors, CSP violations."""

    console: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    csp_violations: list[str] = field(default_factory=list)

    def on_console(self, message) -> None:
        """Record a console message; CSP refusals Chromium logs count as violations."""
        text = f"{message.type}: {message.text}"
        self.console.append(text)
        if message.type == "error":
            self.console_errors.append(message.text)
            if "Content Security Policy" in message.text:
                self.csp_violations.append(message.text)

    def assert_clean(self) -> None:
        """Fail on any console error, uncaught page error or CSP violation."""
        problems = self.console_errors + self.page_errors + self.csp_violations
        assert not problems, "browser reported:\n" + "\n".join(problems)

    def dump(self) -> str:
        """Everything recorded, for the failure artifact."""
        sections = {"CSP violations": self.csp_violations, "page errors": self.page_errors,
                    "console": self.console}
        return "\n".join(f"== {name}\n" + "\n".join(lines) for name, lines in sections.items())


def _watched_page(browser, base_url: str):
    """A page in a fresh context that records console output and CSP violations."""
    context = browser.new_context(base_url=base_url, locale="hu-HU")
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    log = BrowserLog()
    context.expose_binding(_CSP_BINDING, lambda _source, text: log.csp_violations.append(text))
    context.add_init_script(_CSP_LISTENER)
    page = context.new_page()
    page.on("console", log.on_console)
    page.on("pageerror", lambda error: log.page_errors.append(str(error)))
    page.bookdesk_log = log
    return page


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the item; a passing test with CSP violations fails."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
    if report.when == "call" and report.passed:
        violations = [v for page in getattr(item, "_bookdesk_pages", [])
                      for v in page.bookdesk_log.csp_violations]
        if violations:
            report.outcome = "failed"
            report.longrepr = "CSP violations in the browser:\n" + "\n".join(violations)


def _artifact_name(item) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", item.nodeid.split("::", 1)[-1])[:150]


def _save_artifacts(item, pages) -> None:
    folder = Path(str(item.config.rootpath)) / ARTIFACTS
    folder.mkdir(exist_ok=True)
    for number, page in enumerate(pages):
        stem = _artifact_name(item) + (f"-{number}" if number else "")
        try:
            page.screenshot(path=str(folder / f"{stem}.png"), full_page=True)
        except Exception as exc:  # a crashed page must not hide the test's own failure
            (folder / f"{stem}.screenshot-error.txt").write_text(str(exc))
        (folder / f"{stem}.log").write_text(f"url: {page.url}\n{page.bookdesk_log.dump()}\n")


@pytest.fixture
def new_page(browser, bookdesk_url, request):
    """Factory: another watched page in its own context (another browser user)."""
    pages = []
    request.node._bookdesk_pages = pages

    def make():
        page = _watched_page(browser, bookdesk_url)
        pages.append(page)
        return page

    yield make
    failed = any(getattr(request.node, f"rep_{when}", None) is not None
                 and getattr(request.node, f"rep_{when}").failed for when in ("setup", "call"))
    if failed and os.environ.get("BOOKDESK_E2E_ARTIFACTS", "1") != "0":
        _save_artifacts(request.node, pages)
    for page in pages:
        page.context.close()


@pytest.fixture
def page(new_page):
    """A fresh watched page; CSP violations fail the test, failures leave a screenshot."""
    return new_page()


@pytest.fixture
def browser_log(page) -> BrowserLog:
    """The console/CSP record of `page`."""
    return page.bookdesk_log


def sign_in(page, company, role: str = "admin", name: str = "Teszt Elek", company_id=None):
    """Sign in through the real /login form and wait for the company's dashboard."""
    page.goto("/login")
    page.fill("input[name=token]", company.tokens[role])
    page.fill("input[name=name]", name)
    if company_id is not None:
        page.fill("input[name=company_id]", str(company_id))
    page.click("form.form button[type=submit]")
    page.wait_for_url(re.compile(rf"/c/{company.id}/$"))
    return page


@pytest.fixture
def signed_in_page(page):
    """signed_in_page(company, role="admin", name=..., page=None): a page signed in via /login."""
    def do_sign_in(company, role: str = "admin", name: str = "Teszt Elek", page=page):
        return sign_in(page, company, role, name)

    return do_sign_in
