"""Incomes page cost: upstream calls and time per page, cold and with a warm catalogue cache.

    python -m bench.incomes_pages [--incomes 200] [--requests 20]

Starts a sandbox with one company and N incomes, signs a Bookdesk test client in, and reads
every page's Server-Timing (`upstream;dur=..;desc="N calls"`). Prints, per page: calls on the
first (cold) request, calls with a warm cache (max over the runs), median and p95 app time.
The budget is at most 2 upstream calls for the list and the detail with a warm cache; the bench
asserts nothing.
"""
from __future__ import annotations

import argparse
import logging
import re
import statistics
import tempfile

import requests

from app import create_app
from sandbox.core.server import start

TIMING = re.compile(r'upstream;dur=([\d.]+);desc="(\d+) calls?".*app;dur=([\d.]+)')


def seed(url: str, count: int) -> tuple[dict, list[int]]:
    """A company with `count` incomes (one of them a storno) through the fixture maker."""
    company = requests.post(f"{url}/_sandbox/companies/", json={}, timeout=10).json()
    ids = []
    for i in range(count):
        body = {"company_id": company["id"], "type": 2, "invoice_number": f"B-{i:05d}",
                "partner_name": f"Partner {i % 17} Kft.", "net_amount": f"{1000 + i}.00",
                "gross_amount": f"{1270 + i}.00"}
        if i == count - 1:
            body.update(invoice_type=1, referred_invoice_number="B-00000")
        ids.append(requests.post(f"{url}/_sandbox/incomes/", json=body, timeout=10).json()["id"])
    return company, ids


def signed_in_client(url: str, token: str):
    """A Bookdesk test client signed in with the token."""
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "UPSTREAM_URL": url,
                      "INSTANCE_PATH": tempfile.mkdtemp(prefix="bench-incomes-"),
                      "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    client.post("/login", data={"token": token, "name": "Bench", "company_id": ""})
    return client


def measure(client, path: str, runs: int) -> tuple[int, int, float, float]:
    """(cold calls, warm max calls, median ms, p95 ms) of one page."""
    samples = []
    for _ in range(runs + 1):
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        _dur, calls, app_ms = TIMING.search(response.headers["Server-Timing"]).groups()
        samples.append((int(calls), float(app_ms)))
    warm = samples[1:]
    times = sorted(ms for _calls, ms in warm)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return samples[0][0], max(c for c, _ms in warm), statistics.median(times), p95


def pages(base: str, ids: list[int]) -> dict[str, str]:
    """The measured pages by name."""
    return {"list": base, "list, filtered + sorted": f"{base}?paid_status=1&ordering=-gross_amount",
            "detail": f"{base}{ids[0]}", "detail of a storno": f"{base}{ids[-1]}",
            "edit": f"{base}{ids[0]}/edit", "new": f"{base}new"}


def main() -> None:
    """Run the pages and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--incomes", type=int, default=200)
    parser.add_argument("--requests", type=int, default=20)
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server, url = start(port=0)
    try:
        company, ids = seed(url, args.incomes)
        client = signed_in_client(url, company["tokens"]["admin"])
        print(f"{'page':<26}{'cold calls':>11}{'warm calls':>11}{'median ms':>11}{'p95 ms':>9}")
        for name, path in pages(f"/c/{company['id']}/incomes/", ids).items():
            cold, warm, median, p95 = measure(client, path, args.requests)
            print(f"{name:<26}{cold:>11}{warm:>11}{median:>11.1f}{p95:>9.1f}")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
