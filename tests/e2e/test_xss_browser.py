"""In the browser: pages showing poisoned upstream data fire no dialog (no payload runs).

The records come from tests/app/test_xss.py (partners, incomes, tags, revenue types, expenses and
policies whose text carries script tags, attribute breakers, javascript: links and template
expressions). Every HTML page of the app is opened with them as its URL arguments; any alert()
reaching the browser fails the test.
"""
from __future__ import annotations

from tests.app.test_xss import records  # noqa: F401 - the poisoned-records fixture
from tests.support.routes import RouteSampler

NOT_PAGES = ("static", "logout", "export", "statement", "artifact", "file", "download",
             "partner_options", "switch_language", "demo_login")


def page_paths(app, ctx) -> list[str]:
    """Paths of every GET route that answers a page (no files, exports or option lists)."""
    return [r.path for r in RouteSampler(app, ctx).get_routes()
            if not any(word in r.endpoint for word in NOT_PAGES)]


def test_no_dialog_fires_on_pages_showing_poisoned_data(bookdesk_server, signed_in_page,
                                                       company, records):  # noqa: F811
    page = signed_in_page(company)
    dialogs: list[str] = []

    def on_dialog(dialog):
        dialogs.append(f"{page.url}: {dialog.type} {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    paths = page_paths(bookdesk_server.app, records)
    assert any(f"/incomes/{records.made['income']}" in p for p in paths), paths
    for path in paths:
        page.goto(f"{path}?partner_q=%3Cscript")
        page.wait_for_load_state("networkidle")
    assert not dialogs, "a payload ran:\n" + "\n".join(dialogs)
