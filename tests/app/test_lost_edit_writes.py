"""Edits whose answer is lost (the write stored, the connection reset before the answer).

test_write_faults.py proves the general rule for every write route (message, input kept,
stored once); these prove what each edit route adds: the htmx review step keeps the screen and
offers a reload, a resubmitted cancel or policy save finds the write already done and does not
send it again, and a rate limit says nothing was saved.
"""
from __future__ import annotations

import re

from tests.app.conftest import signed_in
from tests.app.incomes_helpers import page_form
from tests.app.test_policy_editor_kit import Editor, config, policy, set_stored, stored
from tests.app.test_review_support import (
    income_now,
    open_screen,
    queue_ids,
    review_base,
    step,
    waiting,
    writes,
)
from tests.app.test_write_faults import Ctx, _revenue_income

UPDATE = "/2/incomes/*/update/"


def test_a_lost_review_done_over_htmx_keeps_the_screen_and_offers_a_reload(
        client, company, api, faults, sandbox_log):
    waiting(api, invoice_number="R-LOST")
    [income_id] = queue_ids(api)
    base = review_base(client, company)
    screen = open_screen(client, f"{base}{income_id}")
    faults.add(path=UPDATE, method="PATCH", kind="reset_after", count=1)
    response = step(client, screen, "done")
    html = response.get_data(as_text=True)
    assert response.status_code == 503
    assert response.headers["HX-Retarget"] == "#messages"
    assert "may already be marked done" in html
    assert f'href="{base}{income_id}"' in html, "a reload link to the same income"
    assert "review-item" not in html, "the screen is left as it was"
    assert income_now(api, income_id)["review_done"] is True
    sandbox_log.reset()
    again = step(client, screen, "done")
    assert again.status_code == 200
    assert writes(sandbox_log, company.id) == [], "read again and found done: not sent twice"
    assert "R-LOST is already marked done; nothing was sent again." in \
        again.get_data(as_text=True)


def test_a_resubmitted_cancel_finds_the_document_cancelled_and_says_so(
        client, company, api, faults, sandbox_log):
    base = signed_in(client, company, "incomes/")
    path = f"{base}{_revenue_income(Ctx(client, company, api, base))}/cancel"
    form = page_form(client, path)
    faults.add(path=UPDATE, method="PATCH", kind="reset_after", count=1)
    first = client.post(path, data=form.data())
    assert first.status_code == 503
    assert "may already be cancelled" in first.get_data(as_text=True)
    sandbox_log.reset()
    again = client.post(path, data=form.data(), follow_redirects=True)
    assert "The document was already cancelled." in again.get_data(as_text=True)
    assert sandbox_log.entries(company_id=company.id, method="PATCH") == []


def test_a_resubmitted_policy_save_is_recorded_once_without_writing_again(
        client, company, api, faults, sandbox_log):
    set_stored(api, config(policy("Régi")))
    editor = Editor(client, company)
    editor.act("toggle", "policies", 0)
    faults.add(path=f"/2/company-info/update/{company.id}/", method="PATCH",
               kind="reset_after", count=1)
    first = editor.save()
    assert first.status_code == 503
    assert "may already be saved" in first.get_data(as_text=True)
    assert stored(api)["policies"][0]["enabled"] is False
    sandbox_log.reset()
    again = editor.save()
    assert again.status_code == 303
    assert sandbox_log.entries(company_id=company.id, method="PATCH") == []
    assert "already saved" in editor.html()
    history = editor.html("/history")
    assert len(re.findall(r"/version\?id=(\d+)", history)) == 2, "the replaced one, ours"
    assert "Rule Régi switched off." in history


def test_a_rate_limited_edit_keeps_the_input_and_says_nothing_was_saved(
        client, company, faults):
    signed_in(client, company, "incomes/")
    path = f"/c/{company.id}/settings/"
    form = page_form(client, path)
    form.pairs.append(("enable_vat_period", "y"))
    faults.add(path="/2/company-info/update/*/", method="PATCH", kind="status", status=429,
               retry_after=7, count=1)
    response = client.post(path, data=form.data())
    html = response.get_data(as_text=True)
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "7"
    assert "so this was not saved. Send it again in 7 seconds." in html
    assert re.search(r'<input[^>]*\bchecked\b[^>]*name="enable_vat_period"|'
                     r'<input[^>]*name="enable_vat_period"[^>]*\bchecked\b', html)
