"""The dashboard counts what matters, links to it, and reads it in one round of parallel calls."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
import requests

from app.dashboard import service
from app.dashboard.service import INCOME_CARDS
from app.forms import invalidate_settings
from app.numbers import company_today
from app.upstream import RateLimited, catalog
from app.upstream.incomes import COUNT_ROWS
from app.upstream.parallel import once
from tests.app.conftest import sign_in
from tests.conftest import in_flight_together


def _income(sandbox_url, company, **fields):
    body = {"company_id": company.id, "type": 1, **fields}
    response = requests.post(f"{sandbox_url}/_sandbox/incomes/", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def _stat(html: str, key: str) -> str:
    match = re.search(rf'id="stat-{key}".*?class="stat__value">([^<]*)<', html, re.S)
    assert match, key
    return match.group(1).strip()


def test_dashboard_counts_review_unpaid_and_overdue_incomes(client, company, sandbox_url):
    past = (company_today() - timedelta(days=10)).isoformat()
    future = (company_today() + timedelta(days=10)).isoformat()
    _income(sandbox_url, company, due_at=past, invoice_number="OVER-1")
    _income(sandbox_url, company, due_at=future, invoice_number="OPEN-1")
    _income(sandbox_url, company, due_at=past, invoice_number="PART-1", net_amount="100.00",
            gross_amount="127.00", payments=[{"amount": "27.00"}])  # partly paid, overdue
    _income(sandbox_url, company, due_at=past, invoice_number="VOID-1", is_cancelled=True,
            type=2)
    review = _income(sandbox_url, company, due_at=future, invoice_number="REV-1")
    requests.patch(f"{sandbox_url}/_sandbox/incomes/{review['id']}/",
                   json={"needs_review": True, "review_done": False}, timeout=10)
    sign_in(client, company)
    html = client.get(f"/c/{company.id}/").get_data(as_text=True)
    assert _stat(html, "needs_review") == "1"
    assert _stat(html, "unpaid") == "4", "unpaid and partly paid, cancelled left out"
    assert _stat(html, "overdue") == "2"
    assert "OVER-1" in html and "REV-1" in html


def test_dashboard_cards_link_to_the_fixed_list_urls(client, company):
    sign_in(client, company)
    html = client.get(f"/c/{company.id}/").get_data(as_text=True)
    assert f'href="/c/{company.id}/review/"' in html
    unpaid = "cancelled=no&amp;paid_status=open&amp;storno=no"
    assert f'href="/c/{company.id}/incomes/?{unpaid}"' in html
    assert f'href="/c/{company.id}/expenses/?is_paid=false"' in html


@pytest.mark.usefixtures("no_gc_pause")
def test_dashboard_reads_run_in_one_parallel_round(client, company, sandbox_log, faults,
                                                   monkeypatch):
    sign_in(client, company)
    rounds = []
    original = service.run_parallel

    def spy(tasks):
        rounds.append(set(tasks))
        return original(tasks)

    monkeypatch.setattr(service, "run_parallel", spy)
    for path in ("/1/*", "/2/*"):
        faults.add(path=path, kind="latency", latency_ms=200)
    sandbox_log.reset()
    response = client.get(f"/c/{company.id}/")
    assert response.status_code == 200
    entries = sandbox_log.entries(company_id=company.id)
    reads = [(e["method"], e["path"], e["query"]) for e in entries]
    assert len(reads) == len(set(reads)), "no read is made twice"
    # 5 count and catalogue reads (the unpaid expenses are counted from the open payables'
    # read), the company's settings (its VAT period type), one read per amount (8), the VAT
    # summary's incomes, expenses and VAT categories (3), the chart's two 12-month lists and
    # taxes and salaries: each a single page for a small company.
    assert len(entries) <= 5 + 1 + 8 + 3 + 2 + 2, reads
    assert len(rounds) == 1 and {*INCOME_CARDS, "payables", "recent"} <= rounds[0]
    counts = [e for e in entries if e["path"] == "/1/incomes" and e["args"].get("page_size")
              == [str(COUNT_ROWS)]]
    assert len(counts) == len(INCOME_CARDS)
    assert in_flight_together(counts), [(e["query"], e["at"], e["duration_ms"]) for e in counts]
    assert 'desc="' in response.headers["Server-Timing"]


def test_dashboard_money_uses_company_currency_format(client, company, sandbox_url):
    _income(sandbox_url, company, invoice_number="HUF-1", gross_amount="1234567.00",
            net_amount="972100.00")
    sign_in(client, company)
    client.get("/lang/hu")
    html = client.get(f"/c/{company.id}/").get_data(as_text=True)
    assert "1\u00a0234\u00a0567\u00a0Ft" in html


@pytest.mark.usefixtures("no_gc_pause")
def test_period_kind_and_currencies_are_read_once_in_the_one_round(client, company, sandbox_log,
                                                                   faults, monkeypatch):
    sign_in(client, company)
    catalog.clear()
    invalidate_settings(company.id)  # cold caches: the settings and currencies are read here
    rounds = []
    original = service.run_parallel
    monkeypatch.setattr(service, "run_parallel", lambda tasks: rounds.append(set(tasks))
                        or original(tasks))
    for path in ("/1/*", "/2/*"):
        faults.add(path=path, kind="latency", latency_ms=300)
    sandbox_log.reset()
    assert client.get(f"/c/{company.id}/").status_code == 200
    entries = sandbox_log.entries(company_id=company.id)
    paths = [e["path"].rstrip("/") for e in entries]
    assert paths.count("/2/company-info") == 1 and paths.count("/2/currencies") == 1, paths
    assert len(rounds) == 1
    assert {"period_kind", "currencies", "vat:incomes", "vat:expenses"} <= rounds[0]
    first = [e for e in entries if e["path"].rstrip("/") in ("/2/company-info", "/2/currencies")]
    counts = [e for e in entries if e["path"] == "/1/incomes" and e["args"].get("page_size")
              == [str(COUNT_ROWS)]]
    assert in_flight_together([*first, counts[0]]), [(e["path"], e["at"], e["duration_ms"])
                                                     for e in [*first, counts[0]]]


def test_a_shared_read_is_made_once_even_when_it_fails():
    calls = []

    def failing():
        calls.append(1)
        raise RateLimited("slow down")

    read = once(failing)
    for _ in range(3):
        with pytest.raises(RateLimited):
            read()
    assert len(calls) == 1
    counted = once(lambda: calls.append(2) or len(calls))
    assert [counted(), counted()] == [2, 2] and calls == [1, 2]
