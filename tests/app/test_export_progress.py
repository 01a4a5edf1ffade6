"""In-page export progress and cancel (app/exports.py), over real HTTP to the sandbox.

An export started with ?export=<id> keeps its rows written so far under that id: counted, and
at the end equal to the rows in the file. The page's Cancel sets a flag the export looks at
between pages: after it, the upstream list reads stop (sandbox request log), CSV and XLSX alike.
The stream runs in a thread of its own, as a browser's download runs beside its polls.
"""
from __future__ import annotations

import re
import secrets
import threading
import time

import pytest

from app.exports import BOM, TOTAL_HEADER, Progress
from app.upstream import Page, Unavailable
from tests.app.conftest import page_csrf, session_cookie, signed_in
from tests.app.incomes_helpers import make_income
from tests.app.list_pages import csv_rows, xlsx_sheet
from tests.app.test_partners_pages import make_partner
from tests.sandbox.bank_support import open_account

PAGE_SIZE = 3
LIST_PATH = "/1/incomes"


@pytest.fixture
def small_pages(monkeypatch):
    """Income exports read PAGE_SIZE records a page, so a few incomes make several pages."""
    monkeypatch.setattr("app.incomes.views.EXPORT_PAGE_SIZE", PAGE_SIZE)


def _incomes(api, count: int) -> None:
    for number in range(count):
        make_income(api, invoice_number=f"P-{number:03}")


def _file_rows(body: bytes, fmt: str) -> int:
    if fmt == "xlsx":
        return xlsx_sheet(body).max_row - 1
    return len(csv_rows(body.decode("utf-8"), ";")) - 1


def _urls(company, fmt: str, export_id: str) -> tuple[str, str, str]:
    base = f"/c/{company.id}"
    suffix = "&format=xlsx" if fmt == "xlsx" else ""
    return (f"{base}/incomes/export?export={export_id}{suffix}",
            f"{base}/exports/progress?export={export_id}", f"{base}/exports/cancel")


def _list_reads(sandbox_log, company) -> int:
    """The export's page reads (the dashboard reads incomes too, in pages of its own size)."""
    return sum(f"page_size={PAGE_SIZE}" in entry["query"] for entry in
               sandbox_log.entries(company_id=company.id, method="GET", path=LIST_PATH))


def _second_client(app, client):
    """Another client of the same session (the page's polls beside its download)."""
    other = app.test_client()
    other.set_cookie(app.config["SESSION_COOKIE_NAME"], session_cookie(client, app))
    return other


def _stream_in_thread(client, url: str, into: dict) -> threading.Thread:
    def run():
        response = client.get(url, buffered=False)
        into["response"] = response
        into["body"] = b"".join(response.response)
        response.close()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_progress_counts_the_rows_written_and_ends_with_the_rows_in_the_file(
        app, client, company, api, small_pages, fmt):
    _incomes(api, 7)
    signed_in(client, company, "incomes/")
    export, progress, _cancel = _urls(company, fmt, secrets.token_hex(16))
    response = client.get(export)
    assert response.status_code == 200
    assert response.headers[TOTAL_HEADER] == "7"
    assert _file_rows(response.get_data(), fmt) == 7
    assert client.get(progress).get_json() == {"rows": 7, "total": 7, "state": "done"}
    assert client.get(progress).status_code == 204  # the page read the last word: forgotten


def test_progress_grows_page_by_page_while_the_export_runs(app, client, company, api,
                                                           small_pages, faults):
    _incomes(api, 9)
    signed_in(client, company, "incomes/")
    faults.add(path=LIST_PATH + "*", method="GET", kind="latency", latency_ms=250)
    export, progress, _cancel = _urls(company, "xlsx", secrets.token_hex(16))
    poller, seen, result = _second_client(app, client), [], {}
    thread = _stream_in_thread(client, export, result)
    while thread.is_alive():
        record = poller.get(progress)
        if record.status_code == 200 and record.get_json()["state"] == "running":
            seen.append(record.get_json()["rows"])
        time.sleep(0.05)
    thread.join()
    assert _file_rows(result["body"], "xlsx") == 9
    assert set(seen) <= {0, 3, 6, 9} and {3, 6} <= set(seen), seen
    assert seen == sorted(seen)


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_cancel_stops_the_upstream_reads_before_the_next_page(app, client, company, api,
                                                              small_pages, faults,
                                                              sandbox_log, fmt):
    _incomes(api, 18)  # six pages
    signed_in(client, company, "incomes/")
    faults.add(path=LIST_PATH + "*", method="GET", kind="latency", latency_ms=300)
    export_id = secrets.token_hex(16)
    export, progress, cancel = _urls(company, fmt, export_id)
    page, result = _second_client(app, client), {}
    token = page_csrf(page, f"/c/{company.id}/")
    thread = _stream_in_thread(client, export, result)
    deadline = time.monotonic() + 10
    while (page.get(progress).get_json(silent=True) or {}).get("rows", 0) < PAGE_SIZE:
        assert time.monotonic() < deadline, "the export never wrote its first page"
        time.sleep(0.05)
    at_cancel = _list_reads(sandbox_log, company)
    assert page.post(cancel, data={"export": export_id, "csrf_token": token}).status_code == 204
    thread.join(timeout=5)
    assert not thread.is_alive(), "the export went on after the cancel"
    reads = _list_reads(sandbox_log, company)
    time.sleep(1.0)  # three more page reads' worth, had it gone on
    assert _list_reads(sandbox_log, company) == reads
    assert reads <= at_cancel + 1 < 6  # at most the page being read at the cancel
    assert page.get(progress).get_json()["state"] == "cancelled"


def test_a_plain_download_keeps_no_record_and_an_unknown_cancel_changes_nothing(
        client, company, api):
    _incomes(api, 2)
    signed_in(client, company, "incomes/")
    response = client.get(f"/c/{company.id}/incomes/export")
    assert response.headers["Content-Disposition"].startswith('attachment; filename="incomes-')
    assert TOTAL_HEADER in response.headers and _file_rows(response.get_data(), "csv") == 2
    export_id = secrets.token_hex(16)
    _export, progress, cancel = _urls(company, "csv", export_id)
    token = page_csrf(client, f"/c/{company.id}/")
    assert client.post(cancel, data={"export": export_id, "csrf_token": token}).status_code == 204
    assert client.get(progress).status_code == 204
    assert client.get(f"/c/{company.id}/exports/progress?export=../x").status_code == 204


def test_more_rows_than_the_first_page_announced_drop_the_total_not_the_count(app):
    """A statement's first page counts its incomes only; its expenses follow."""
    pages = [Page(items=[{}] * 2, count=2), Page(items=[{}] * 3)]
    with app.test_request_context("/"):
        progress = Progress.start(pages[0].count)
        seen = [(progress.rows, progress.total) for _page in progress.count(pages)]
    assert seen == [(0, 2), (2, 2)]
    assert (progress.rows, progress.total) == (5, None)


EXPORT_HREF = re.compile(r'<a\b[^>]*href="[^"]*/(?:export|statement)\b[^"]*"[^>]*>')


@pytest.mark.parametrize("page", [
    "incomes/", "expenses/", "partners/", "partners/{partner}/card", "bank/", "vat/", "taxes/",
    "salaries/", "review/"])
def test_every_export_link_runs_in_the_page_with_one_progress_panel(client, company, api,
                                                                     page):
    make_income(api, invoice_number="P-LINK")
    partner = make_partner(api, name="Link Kft")["id"]
    open_account(api)
    signed_in(client, company, "incomes/")
    html = client.get(f"/c/{company.id}/{page.format(partner=partner)}").get_data(as_text=True)
    links = EXPORT_HREF.findall(html)
    assert links, "the page offers an export"
    assert [link for link in links if "data-export" not in link] == []
    assert html.count('id="export-progress"') == 1


def test_an_export_the_service_stops_answering_midway_ends_as_a_failed_download(
        client, company, api, small_pages, faults):
    # Streamed uncompressed: the header row goes out (and with it the response's headers)
    # before the next upstream read, so a failure there cuts the download short, and the
    # server never answers with a bare error page of its own in place of the file.
    _incomes(api, 7)
    signed_in(client, company, "incomes/")
    export, progress, _cancel = _urls(company, "csv", secrets.token_hex(16))
    response = client.get(export, headers={"Accept-Encoding": "br, gzip"}, buffered=False)
    assert response.status_code == 200 and "Content-Encoding" not in response.headers
    assert response.headers["Server-Timing"] and response.headers["X-Request-Id"]
    chunks = iter(response.response)
    assert next(chunks).startswith(BOM.encode())
    faults.add(path=LIST_PATH, method="GET", kind="status", status=500)
    with pytest.raises(Unavailable):
        b"".join(chunks)
    assert client.get(progress).get_json()["state"] == "failed"
