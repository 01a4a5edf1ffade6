"""Spec part 3, every transition driven through Bookdesk's pages against the sandbox, and undo
that never revives a document the upstream cancelled or reversed since (request log proves it).

States are changed behind Bookdesk's back with the public API (another user) or /_sandbox/.
"""
from __future__ import annotations

import pytest

from tests.app.conftest import csrf_token, signed_in
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import expense, make_expense
from tests.app.incomes_helpers import catalogue, income, make_income, page_form, set_state
from tests.app.list_pages import csv_rows
from tests.app.test_review_support import (
    income_now,
    open_screen,
    review_base,
    step,
    undo,
    waiting,
    writes,
)

LABELS = {"hu": {"reversed": "Sztornózva", "cancelled": "Érvénytelenítve"},
          "en": {"reversed": "Reversed", "cancelled": "Cancelled"}}


def _page(client, path: str, lang: str = "hu") -> str:
    response = client.get(path, headers={"Accept-Language": lang})
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def _badge(html: str) -> str | None:
    marker = 'id="cancelled-badge">'
    at = html.find(marker)
    return None if at < 0 else html[at + len(marker):html.index("<", at)]


def _bookdesk_patches(sandbox_log, company_id: int) -> list[dict]:
    return writes(sandbox_log, company_id)


def _storno_through_bookdesk(client, base: str, original: dict, number: str) -> None:
    path = f"{base}new?storno_of={original['id']}"
    form = page_form(client, path).set("invoice_number", number)
    response = client.post(path, data=form.data())
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]


def _storno_behind_the_back(api, referred: str, number: str = "STORNO-BACK") -> None:
    ids = catalogue(api)
    body = {"invoice_number": number, "invoice_type": 1, "referred_invoice_number": referred,
            "issued_at": "2025-03-05",
            "net_amount": "-1000.00", "gross_amount": "-1270.00", "partner_name": "Alfa Kft.",
            "assignments": [{"revenue_type": ids.revenue_types[0], "net_amount": "-1000.00",
                             "gross_amount": "-1270.00"}]}
    response = api.post("/2/incomes/create/", json=body)
    assert response.status_code == 201, response.text


# --- spec part 3, incomes -------------------------------------------------------------------

def storno_reverses_the_original(client, company, api, sandbox_log, lang):
    original = make_income(api, type=2, invoice_number="ORIG-1", payments=[{"amount": "500.00"}])
    base = signed_in(client, company, "incomes/")
    _storno_through_bookdesk(client, base, original, "STORNO-1")
    after = income(api, original["id"])
    assert after["is_cancelled"] is True and after["paid_amount"] == "0.00"
    html = _page(client, f"{base}{original['id']}", lang)
    assert _badge(html) == LABELS[lang]["reversed"]
    assert f"{original['id']}/cancel" not in html  # no "revoke" offered on a reversal
    listing = _page(client, f"{base}?q=ORIG-1", lang)
    assert f'<span class="badge badge--muted">{LABELS[lang]["reversed"]}</span>' in listing


def storno_before_its_original_cancels_nothing(client, company, api, sandbox_log, lang):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    form = page_form(client, base + "new").set("invoice_number", "STORNO-EARLY")
    form.set("referred_invoice_number", "LATER-1").set("partner_name", "Alfa Kft.")
    form.set("assignments-0-revenue_type", str(ids.revenue_types[0]))
    form.set("assignments-0-net_amount", "-1000").set("assignments-0-gross_amount", "-1270")
    assert client.post(base + "new", data=form.data()).status_code == 303
    form = page_form(client, base + "new").set("invoice_number", "LATER-1")
    form.set("partner_name", "Alfa Kft.").set("assignments-0-revenue_type",
                                               str(ids.revenue_types[0]))
    form.set("assignments-0-net_amount", "1000").set("assignments-0-gross_amount", "1270")
    created = client.post(base + "new", data=form.data())
    assert created.status_code == 303
    later_id = int(created.headers["Location"].split("?")[0].rstrip("/").rsplit("/", 1)[-1])
    assert income(api, later_id)["is_cancelled"] is False
    assert _badge(_page(client, f"{base}{later_id}", lang)) is None


def cancel_an_unprocessed_document(client, company, api, sandbox_log, lang):
    created = make_income(api, type=2, payments=[{"amount": "500.00"}])
    base = signed_in(client, company, "incomes/")
    page = _page(client, f"{base}{created['id']}/cancel", lang)
    client.post(f"{base}{created['id']}/cancel",
                data={"csrf_token": csrf_token(page), "is_cancelled": "1"})
    after = income(api, created["id"])
    assert after["is_cancelled"] is True and after["paid_amount"] == "0.00"
    assert _badge(_page(client, f"{base}{created['id']}", lang)) == LABELS[lang]["cancelled"]
    assert _bookdesk_patches(sandbox_log, company.id) == [{"is_cancelled": True}]


def revoke_a_direct_cancellation(client, company, api, sandbox_log, lang):
    created = make_income(api, type=2, payments=[{"amount": "500.00"}])
    cancelled = set_state(api, created["id"], is_cancelled=True)
    assert [p["method"] for p in cancelled["payment_history"]] == ["cancel"]
    base = signed_in(client, company, "incomes/")
    assert _badge(_page(client, f"{base}{created['id']}", lang)) == LABELS[lang]["cancelled"]
    page = _page(client, f"{base}{created['id']}/cancel", lang)
    client.post(f"{base}{created['id']}/cancel",
                data={"csrf_token": csrf_token(page), "is_cancelled": "0"})
    # The cancellation had replaced the payments; revoking removes its zero-amount payment.
    after = api.get(f"/1/incomes/{created['id']}/", params={"fields": "payment_history"}).json()
    assert after["is_cancelled"] is False
    assert all(p.get("method") != "cancel" for p in after.get("payment_history") or [])
    assert _badge(_page(client, f"{base}{created['id']}", lang)) is None


def processed_document_cannot_be_cancelled(client, company, api, sandbox_log, lang):
    created = make_income(api, type=2)
    set_state(api, created["id"], is_processed=True)
    base = signed_in(client, company, "incomes/")
    assert f"{created['id']}/cancel" not in _page(client, f"{base}{created['id']}", lang)
    page = _page(client, f"{base}{created['id']}", lang)
    response = client.post(f"{base}{created['id']}/cancel",
                           data={"csrf_token": csrf_token(page), "is_cancelled": "1"})
    assert response.status_code == 303
    assert income(api, created["id"])["is_cancelled"] is False
    assert _bookdesk_patches(sandbox_log, company.id) == []


def revoke_refused_once_a_storno_reversed_it_meanwhile(client, company, api, sandbox_log,
                                                       lang):
    created = make_income(api, type=2, invoice_number="ORIG-R", payments=[{"amount": "9.00"}])
    set_state(api, created["id"], is_cancelled=True)
    base = signed_in(client, company, "incomes/")
    page = _page(client, f"{base}{created['id']}/cancel", lang)  # the revoke confirmation
    _storno_behind_the_back(api, "ORIG-R")
    sandbox_log.reset()
    response = client.post(f"{base}{created['id']}/cancel",
                           data={"csrf_token": csrf_token(page), "is_cancelled": "0"},
                           headers={"Accept-Language": lang})
    assert response.status_code == 303
    assert _bookdesk_patches(sandbox_log, company.id) == []
    assert income(api, created["id"])["is_cancelled"] is True
    html = _page(client, response.headers["Location"], lang)
    assert ("cannot be revoked" in html) if lang == "en" else ("nem vonható vissza" in html)
    assert _badge(html) == LABELS[lang]["reversed"]


# --- spec part 3, expenses ------------------------------------------------------------------

def exclude_an_expense_from_accounting(client, company, api, sandbox_log, lang):
    created = make_expense(api, expense_catalogue(api))
    base = f"/c/{company.id}/expenses/"
    signed_in(client, company, "incomes/")
    page = _page(client, f"{base}{created['id']}/exclude", lang)
    response = client.post(f"{base}{created['id']}/exclude", data={"csrf_token": csrf_token(page)})
    assert response.status_code == 303
    assert expense(api, created["id"])["excluded_from_accounting"] is True


def excluding_an_already_excluded_expense_is_an_error(client, company, api, sandbox_log, lang):
    created = make_expense(api, expense_catalogue(api))
    base = f"/c/{company.id}/expenses/"
    signed_in(client, company, "incomes/")
    page = _page(client, f"{base}{created['id']}/exclude", lang)
    excluded = api.patch(f"/2/expenses/{created['id']}/update/",
                         json={"excluded_from_accounting": True})
    assert excluded.status_code == 200, excluded.text
    response = client.post(f"{base}{created['id']}/exclude", data={"csrf_token": csrf_token(page)},
                           headers={"Accept-Language": lang})
    html = _page(client, response.headers["Location"], lang)
    assert 'class="alert alert--error"' in html
    assert expense(api, created["id"])["excluded_from_accounting"] is True


TRANSITIONS = [storno_reverses_the_original, storno_before_its_original_cancels_nothing,
               cancel_an_unprocessed_document, revoke_a_direct_cancellation,
               processed_document_cannot_be_cancelled,
               revoke_refused_once_a_storno_reversed_it_meanwhile,
               exclude_an_expense_from_accounting,
               excluding_an_already_excluded_expense_is_an_error]


@pytest.mark.parametrize("lang", ["hu", "en"])
@pytest.mark.parametrize("transition", TRANSITIONS, ids=lambda f: f.__name__)
def test_spec_part_3_transition_through_the_ui(transition, lang, client, company, api,
                                               sandbox_log):
    transition(client, company, api, sandbox_log, lang)


# --- undo never revives ---------------------------------------------------------------------

def _cancel_directly(api, created: dict) -> None:
    set_state(api, created["id"], is_cancelled=True)


def _reverse_by_storno(api, created: dict) -> None:
    _storno_behind_the_back(api, created["invoice_number"])


def _revoke_cancellation(api, created: dict) -> None:
    set_state(api, created["id"], is_cancelled=False)


@pytest.mark.parametrize(("cancelled_at_action", "change", "reason"), [
    (False, _cancel_directly, "cancelled or reversed by a storno since"),
    (False, _reverse_by_storno, "cancelled or reversed by a storno since"),
    (True, _revoke_cancellation, "its cancellation was revoked since"),
], ids=["cancelled-since", "reversed-since", "revoked-since"])
def test_undo_refuses_and_writes_nothing_when_the_document_state_changed_since(
        client, company, api, sandbox_log, cancelled_at_action, change, reason):
    created = waiting(api, invoice_number="UNDO-1")
    if cancelled_at_action:
        set_state(api, created["id"], is_cancelled=True)
    base = review_base(client, company)
    done = step(client, open_screen(client, f"{base}{created['id']}"), "done")
    assert income_now(api, created["id"])["review_done"] is True
    change(api, created)
    state_now = income_now(api, created["id"])["is_cancelled"]
    sandbox_log.reset()
    response = undo(client, done.get_data(as_text=True), company.id, back="/",
                    **{"Accept-Language": "en"})
    assert response.status_code == 303
    assert _bookdesk_patches(sandbox_log, company.id) == []
    after = income_now(api, created["id"])
    assert after["review_done"] is True and after["is_cancelled"] is state_now
    html = _page(client, f"/c/{company.id}/review/actions", "en")
    assert reason in html and "Nothing was undone." in html


def test_undo_still_reverts_a_document_whose_state_is_as_the_action_left_it(
        client, company, api, sandbox_log):
    created = waiting(api, invoice_number="UNDO-2")
    set_state(api, created["id"], is_cancelled=True)
    base = review_base(client, company)
    done = step(client, open_screen(client, f"{base}{created['id']}"), "done")
    sandbox_log.reset()
    undo(client, done.get_data(as_text=True), company.id, back="/")
    assert _bookdesk_patches(sandbox_log, company.id) == [{"review_done": False}]
    assert income_now(api, created["id"])["review_done"] is False


def test_the_export_says_reversed_or_cancelled_as_the_list_does(client, company, api):
    reversed_ = make_income(api, invoice_number="EXP-REV", type=2)
    _storno_behind_the_back(api, "EXP-REV")
    make_income(api, invoice_number="EXP-VOID", type=2, is_cancelled=True)
    make_income(api, invoice_number="EXP-LIVE", type=2)
    base = signed_in(client, company, "incomes/")
    text = client.get(base + "export", headers={"Accept-Language": "en"}).get_data().decode()
    rows = csv_rows(text)
    column = rows[0].index("Cancelled or reversed")
    states = {row[0]: row[column] for row in rows[1:]}
    assert income(api, reversed_["id"])["is_cancelled"] is True
    assert (states["EXP-REV"], states["EXP-VOID"], states["EXP-LIVE"]) == (
        "Reversed", "Cancelled", "No")
    listed = _page(client, base + "?q=EXP-", "en")
    assert "Reversed" in listed and "Cancelled" in listed
