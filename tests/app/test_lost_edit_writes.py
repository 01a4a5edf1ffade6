"""Edits whose answer is lost (the write stored, the connection reset before the answer).

test_write_faults.py proves the general rule for every write route (message, input kept,
stored once); these prove what each edit route adds: the htmx review step keeps the screen and
offers a reload, a resubmitted cancel or policy save finds the write already done and does not
send it again, and a rate limit says nothing was saved. When the page's reads fail before any
write, the error page keeps the form to send again; a refused token signs in back to the page.
"""
from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from werkzeug.datastructures import MultiDict

from app.auth import session as sessions
from app.errors import error_response
from app.upstream import Call, current_stats
from tests.app.conftest import signed_in
from tests.app.incomes_helpers import make_income, page_form, patches
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


KEPT = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')


def test_an_edit_whose_page_reads_fail_keeps_what_was_typed_to_send_again(
        client, company, api, faults, sandbox_log):
    ctx = Ctx(client, company, api, signed_in(client, company, "incomes/"))
    path = f"{ctx.base}{_revenue_income(ctx)}/edit"
    form = page_form(client, path).set("note", "typed while it was down")
    faults.add(path="/1/incomes/*", method="GET", kind="status", status=503)
    sandbox_log.reset()
    down = client.post(path, data=form.data())
    html = down.get_data(as_text=True)
    assert down.status_code == 503 and "Nothing was saved." in html
    kept = [(name, value.replace("&#39;", "'")) for name, value in KEPT.findall(html)]
    assert ("note", "typed while it was down") in kept
    assert f'<form method="post" action="{path}"' in html
    assert writes(sandbox_log, company) == []
    faults.clear()
    sent = client.post(path, data=MultiDict(kept))
    assert sent.status_code == 303
    assert api.get(sent.headers["Location"].replace(f"/c/{company.id}", "/1")
                   ).json()["note"] == "typed while it was down"


@pytest.mark.parametrize(("write", "offered"), [
    (None, True), ("no answer", False), (503, False), (200, False), (401, True), (429, True)])
def test_the_error_page_offers_a_resend_only_when_no_write_may_have_been_stored(app, write,
                                                                                offered):
    with app.test_request_context("/c/1/incomes/5/edit", method="POST",
                                  data={"note": "typed"}):
        if write is not None:
            status = None if write == "no answer" else write
            current_stats().record(Call("PATCH", "/2/incomes/5/update/", status, 1.0))
        current_stats().record(Call("GET", "/1/incomes/5/", 503, 1.0))
        html = error_response(503, keep_form=True).get_data(as_text=True)
    assert ('name="note" value="typed"' in html) is offered
    assert ("Send again" in html) is offered


def test_a_token_refused_mid_work_signs_in_again_back_to_the_same_page(client, company, faults):
    base = signed_in(client, company, "incomes/")
    faults.add(path="/1/incomes*", method="GET", kind="status", status=401, count=1)
    response = client.get(base + "?tab=overdue")
    assert response.status_code == 303
    assert f"next={base}?tab=overdue" in unquote(response.headers["Location"])


REFUSED_READ = {"path": "/1/incomes*", "method": "GET"}
REFUSED_WRITE = {"path": "/2/incomes/*/update/", "method": "PATCH"}


def _refused_edit(client, company, api, faults, note: str, refused: dict = REFUSED_READ):
    """An income's edit form with a note typed, posted when the token is refused (on the
    page's read, or on the write itself)."""
    created = make_income(api, note="")
    path = signed_in(client, company, f"incomes/{created['id']}/edit")
    form = page_form(client, path).set("note", note)
    faults.add(**refused, kind="status", status=401, count=1)
    return path, form, client.post(path, data=form.data())


@pytest.mark.parametrize("refused", [REFUSED_READ, REFUSED_WRITE], ids=["read", "write"])
def test_a_form_sent_with_a_refused_token_is_kept_through_the_sign_in(client, company, api,
                                                                       faults, sandbox_log,
                                                                       refused):
    path, form, response = _refused_edit(client, company, api, faults,
                                         "typed before the token lapsed", refused)
    sandbox_log.reset()
    assert response.status_code == 303
    assert f"next=/c/{company.id}/send-again" in unquote(response.headers["Location"])
    signed_in(client, company, next_url=f"/c/{company.id}/send-again")
    again = page_form(client, f"/c/{company.id}/send-again")
    assert again.get("note") == "typed before the token lapsed" and again.get("csrf_token")
    response = client.post(path, data=again.data())
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    assert patches(sandbox_log, company.id) == [{"note": "typed before the token lapsed"}]
    assert client.get(f"/c/{company.id}/send-again").status_code == 303, "offered once"


def test_a_kept_form_is_offered_only_to_the_same_user_and_not_for_long(client, company, api,
                                                                       faults, monkeypatch):
    path, form, _response = _refused_edit(client, company, api, faults, "typed by Teszt Elek")
    signed_in(client, company, name="Másik Felhasználó")
    assert client.get(f"/c/{company.id}/send-again").status_code == 303, "another user"
    faults.add(path="/1/incomes*", method="GET", kind="status", status=401, count=1)
    client.post(path, data=form.data())
    signed_in(client, company, name="Másik Felhasználó")
    monkeypatch.setattr(sessions, "KEPT_FORM_SECONDS", -1)
    assert client.get(f"/c/{company.id}/send-again").status_code == 303, "kept too long"
