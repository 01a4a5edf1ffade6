"""A page's time budget under the sandbox's latency injection (PAGE_DEADLINE_SECONDS).

- a slow secondary read (a storno's originals, the queue's recent partners) is dropped at the
  deadline: the page answers well before the read would, and names the missing part;
- a slow main record gives the friendly error page at the deadline, never a traceback; a
  rate limit that outlasts the deadline says the service is busy, not slow;
- with every read slow by X, the page's independent reads run side by side: about one X.
"""
from __future__ import annotations

import time

import pytest

from app import create_app
from app.upstream import catalog
from app.upstream.parallel import restart_pool
from tests.app.conftest import signed_client
from tests.app.incomes_helpers import catalogue, make_income
from tests.app.test_faults_ui import assert_friendly_unavailable

DEADLINE = 1.0
SLOW = 3.0  # seconds of injected latency on the read that should be dropped
EACH = 1.0  # seconds of latency on every read in the side-by-side test
EN = {"Accept-Language": "en"}
MISSING = "Some parts could not be loaded in time:"


@pytest.fixture
def budgeted(app_config, company):
    """A signed-in client of a Bookdesk whose pages wait at most DEADLINE for their reads."""
    return signed_client(app_config, company, PAGE_DEADLINE_SECONDS=DEADLINE)


def _timed_get(client, path: str):
    started = time.perf_counter()
    response = client.get(path, headers=EN)
    return response, time.perf_counter() - started


def _storno(api) -> dict:
    ids = catalogue(api)
    body = {"invoice_number": "STORNO-9", "issued_at": "2025-03-05", "net_amount": "-1000.00",
            "gross_amount": "-1270.00", "partner_name": "Alfa Kft.", "invoice_type": 1,
            "referred_invoice_number": "ORIG-9",
            "assignments": [{"revenue_type": ids.revenue_types[0], "net_amount": "-1000.00",
                             "gross_amount": "-1270.00", "vat": ids.vats[0]}]}
    response = api.post("/2/incomes/create/", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_a_slow_secondary_read_is_dropped_at_the_deadline_and_named(budgeted, company, api,
                                                                     faults):
    storno = _storno(api)
    path = f"/c/{company.id}/incomes/{storno['id']}"
    assert budgeted.get(path).status_code == 200  # settings and catalogues now cached
    faults.add(path="/1/incomes", method="GET", kind="latency", latency_ms=int(SLOW * 1000))
    response, elapsed = _timed_get(budgeted, path)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "STORNO-9" in html
    assert elapsed < SLOW - 1.0, elapsed
    assert f"{MISSING} original documents. Reload to try again." in html
    assert 'id="storno-original"' not in html and 'id="storno-missing"' not in html


def test_without_a_slow_read_nothing_is_said_missing(budgeted, company, api):
    storno = _storno(api)
    html = budgeted.get(f"/c/{company.id}/incomes/{storno['id']}", headers=EN).get_data(
        as_text=True)
    assert MISSING not in html and 'id="storno-missing"' in html


def test_a_slow_recent_partners_read_leaves_the_queue_without_it(budgeted, company, faults):
    faults.add(path="/1/partners*", method="GET", kind="latency", latency_ms=int(SLOW * 1000))
    response, elapsed = _timed_get(budgeted, f"/c/{company.id}/review/")
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and 'id="review-queue"' in html
    assert elapsed < SLOW - 1.0, elapsed
    assert f"{MISSING} partner list. Reload to try again." in html


def test_a_slow_main_record_is_the_friendly_error_page_at_the_deadline(
        budgeted, company, api, faults, sandbox_url):
    created = make_income(api)
    path = f"/c/{company.id}/incomes/{created['id']}"
    assert budgeted.get(path).status_code == 200
    faults.add(path="/1/incomes/*", method="GET", kind="latency", latency_ms=int(SLOW * 1000))
    response, elapsed = _timed_get(budgeted, path)
    assert_friendly_unavailable(response, company, sandbox_url)
    assert "The record could not be loaded in time" in response.get_data(as_text=True)
    assert elapsed < SLOW - 1.0, elapsed


def test_with_every_read_slow_the_edit_page_takes_about_one_read(app_config, company, api,
                                                                  faults):
    client = signed_client(app_config, company, PAGE_DEADLINE_SECONDS=5 * EACH)
    created = make_income(api)
    path = f"/c/{company.id}/incomes/{created['id']}/edit"
    assert client.get(path).status_code == 200  # settings cached; the catalogues dropped next
    catalog.invalidate(company.id)
    # Reads an earlier test left queued in the process-wide pool (a review read-ahead) finish
    # first: slowed too, they would hold workers this page's reads need.
    restart_pool()
    faults.add(path="*", kind="latency", latency_ms=int(EACH * 1000))
    response, elapsed = _timed_get(client, path)
    # The income and its five catalogues: one after another that would be 6 x EACH.
    assert response.status_code == 200 and MISSING not in response.get_data(as_text=True)
    assert EACH <= elapsed < 1.8 * EACH, elapsed


def test_the_deadline_is_a_setting_from_the_environment(app_config, monkeypatch):
    assert create_app(app_config).config["PAGE_DEADLINE_SECONDS"] == 5.0
    monkeypatch.setenv("BOOKDESK_PAGE_DEADLINE_SECONDS", "2.5")
    assert create_app(app_config).config["PAGE_DEADLINE_SECONDS"] == 2.5


def test_slow_catalogues_leave_the_income_page_showing_the_record(budgeted, company, api, faults):
    created = make_income(api)
    path = f"/c/{company.id}/incomes/{created['id']}"
    assert budgeted.get(path).status_code == 200  # settings cached; the catalogues dropped next
    catalog.invalidate(company.id)
    faults.add(path="/2/*", method="GET", kind="latency", latency_ms=int(SLOW * 1000))
    response, elapsed = _timed_get(budgeted, path)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and created["invoice_number"] in html
    assert elapsed < SLOW - 1.0, elapsed
    # The page's deadline has passed by then, so the stornos naming it go unread too.
    assert f"{MISSING} currencies, ledger numbers, VAT categories, cancellation state." in html


def test_a_rate_limit_outlasting_the_deadline_says_the_service_is_busy(budgeted, company, api,
                                                                        faults):
    created = make_income(api)
    faults.add(path="/1/incomes/*", method="GET", kind="status", status=429, retry_after=1)
    response = budgeted.get(f"/c/{company.id}/incomes/{created['id']}/edit",
                            headers={"Accept-Language": "en"})
    html = response.get_data(as_text=True)
    assert response.status_code == 429
    assert "asked us to wait" in html and "in time" not in html


def test_a_rate_limit_a_read_got_past_is_not_why_the_page_was_late(budgeted, company, api,
                                                                     faults):
    created = make_income(api)
    faults.add(path="/2/*", method="GET", kind="status", status=429, count=1)
    faults.add(path="/1/incomes/*", method="GET", kind="latency", latency_ms=int(SLOW * 1000))
    response = budgeted.get(f"/c/{company.id}/incomes/{created['id']}/edit", headers=EN)
    html = response.get_data(as_text=True)
    assert response.status_code == 503 and "in time" in html and "asked us to wait" not in html
