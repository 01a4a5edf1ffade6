"""The review screen keeps showing the income's document when a step is refused or meets a
change (400, 409): the reviewer looks at the document to fix what is missing."""
from __future__ import annotations

import sqlite3

import pytest

from sandbox.core.demo_files import minimal_pdf
from tests.app.incomes_helpers import income_with_file, set_state
from tests.app.test_review_support import (
    open_screen,
    reads,
    review_base,
    sandbox_change,
    step,
)
from tests.conftest import Api

FRAME = '<iframe class="review-doc__frame" src="{base}{id}/document"'


@pytest.fixture
def advanced(sandbox_url, make_company):
    """A company that uses advanced accounting, and its API client."""
    return Api(sandbox_url, make_company(advanced_accounting=True))


def _pdf_income(api) -> dict:
    """An income waiting for review whose document is a PDF."""
    created = income_with_file(api, "PDF-1", "szamla.pdf", minimal_pdf("Szamla 2025"))
    sandbox_change(api, created["id"], needs_review=True)
    return created


def _without_revenue_type(db_path, income_id: int) -> None:
    """Empty the income's revenue type, as the demo's imported incomes have it: no API write
    leaves an assignment without one."""
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE income_assignment SET revenue_type_id = NULL WHERE income_id = ?",
                     (income_id,))


def _artifact_reads(sandbox_log, company_id: int) -> list[str]:
    return [path for path in reads(sandbox_log, company_id) if path.startswith("/1/artifacts/")]


def _shows_its_pdf(response, base: str, created: dict) -> bool:
    html = response.get_data(as_text=True)
    return FRAME.format(base=base, id=created["id"]) in html and "No document attached" not in html


def test_done_refused_for_a_missing_revenue_type_still_shows_the_pdf_without_reading_it_again(
        client, advanced, sandbox_log, sandbox_db_path):
    created = _pdf_income(advanced)
    _without_revenue_type(sandbox_db_path, created["id"])
    base = review_base(client, advanced.company)
    screen = open_screen(client, f"{base}{created['id']}")
    sandbox_log.reset()
    response = step(client, screen, "done")
    assert response.status_code == 400
    assert "Choose a revenue type" in response.get_data(as_text=True)
    assert _shows_its_pdf(response, base, created)
    assert reads(sandbox_log, advanced.company.id) == []


def test_done_refused_on_a_processed_income_still_shows_the_pdf(client, company, api):
    created = _pdf_income(api)
    set_state(api, created["id"], is_processed=True)
    base = review_base(client, company)
    response = step(client, open_screen(client, f"{base}{created['id']}"), "done")
    assert response.status_code == 400
    assert "review flag cannot be changed here" in response.get_data(as_text=True)
    assert _shows_its_pdf(response, base, created)


def test_done_the_api_refuses_still_shows_the_pdf(client, company, api):
    created = _pdf_income(api)
    base = review_base(client, company)
    screen = open_screen(client, f"{base}{created['id']}")
    set_state(api, created["id"], is_processed=True)  # after the screen read it
    response = step(client, screen, "done")
    assert response.status_code == 400
    assert 'id="review-problem"' in response.get_data(as_text=True)
    assert _shows_its_pdf(response, base, created)


def test_save_and_done_refused_by_the_form_still_shows_the_pdf(client, advanced):
    created = _pdf_income(advanced)
    base = review_base(client, advanced.company)
    screen = open_screen(client, f"{base}{created['id']}")
    response = step(client, screen, "save_done", **{"assignments-0-revenue_type": ""})
    assert response.status_code == 400
    assert _shows_its_pdf(response, base, created)


def test_done_on_an_income_changed_meanwhile_shows_the_change_beside_the_pdf(
        client, company, api, sandbox_log):
    created = _pdf_income(api)
    base = review_base(client, company)
    screen = open_screen(client, f"{base}{created['id']}")
    sandbox_change(api, created["id"], note="valaki más írta")
    sandbox_log.reset()
    response = step(client, screen, "done")
    assert response.status_code == 409
    assert _shows_its_pdf(response, base, created)
    assert not _artifact_reads(sandbox_log, company.id), "the prefetched record serves"


def test_save_and_done_on_an_income_changed_meanwhile_shows_the_pdf(client, company, api,
                                                                    sandbox_log):
    created = _pdf_income(api)
    base = review_base(client, company)
    screen = open_screen(client, f"{base}{created['id']}")
    sandbox_change(api, created["id"], note="valaki más írta")
    sandbox_log.reset()
    response = step(client, screen, "save_done", note="az enyém")
    assert response.status_code == 409
    assert _shows_its_pdf(response, base, created)
    assert not _artifact_reads(sandbox_log, company.id), "the prefetched record serves"
