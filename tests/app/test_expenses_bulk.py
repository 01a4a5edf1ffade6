"""Bulk approve / unapprove / check / uncheck on the expense list: one upstream call per action,
a translated summary naming each failure, viewers refused kindly, a double submit sent once."""
from __future__ import annotations

import re

import pytest

from tests.app.conftest import csrf_token, signed_in
from tests.app.expenses_helpers import catalogue, expense, make_expense

FORM_KEY = re.compile(r'name="form_key" value="([^"]+)"')
ENABLED_CONTROL = re.compile(r'<(?:button|input)[^>]*(?:id="bulk-|data-select)[^>]*>')


def bulk_key(html: str) -> str:
    """The one-time key of the list page's bulk form."""
    return FORM_KEY.search(html).group(1)


def _form(client, base: str) -> tuple[str, dict]:
    """The list page's HTML and the bulk form's hidden fields."""
    html = client.get(base).get_data(as_text=True)
    return html, {"csrf_token": csrf_token(html), "form_key": bulk_key(html)}


def _post(client, base: str, action: str, ids: list[int], fields: dict | None = None):
    fields = fields or _form(client, base)[1]
    return client.post(f"{base}bulk", data={**fields, "action": action, "ids": ids},
                       follow_redirects=True)


def _bulk_posts(sandbox_log, company, action: str) -> list[dict]:
    return sandbox_log.entries(company_id=company.id, method="POST",
                               path=f"/1/expenses/{action}/")


def test_the_list_offers_a_box_per_row_select_all_and_the_four_actions(client, company, api):
    ids = [make_expense(api, catalogue(api))["id"] for _ in range(2)]
    html, _fields = _form(client, signed_in(client, company, "expenses/"))
    for expense_id in ids:
        assert f'name="ids" value="{expense_id}"' in html
    assert 'data-select-page' in html and "Select all on this page" in html
    for action in ("approve", "unapprove", "check", "uncheck"):
        assert f'id="bulk-{action}"' in html
    assert "disabled" not in " ".join(ENABLED_CONTROL.findall(html))


def test_approving_three_sends_one_call_and_the_sandbox_has_them_approved(
        client, company, api, sandbox_log):
    cat = catalogue(api)
    ids = [make_expense(api, cat)["id"] for _ in range(3)]
    base = signed_in(client, company, "expenses/")
    html = _post(client, base, "approve", ids).get_data(as_text=True)
    calls = _bulk_posts(sandbox_log, company, "approve")
    assert len(calls) == 1
    assert all(expense(api, i)["approved"] is True for i in ids)
    assert "3 approved" in html and " failed: #" not in html


@pytest.mark.parametrize(("action", "flag", "before", "after", "word"), [
    ("check", "checked", False, True, "checked"),
    ("uncheck", "checked", True, False, "unchecked"),
    ("unapprove", "approved", True, False, "unapproved")])
def test_each_action_is_one_call_that_changes_every_selected_expense(
        client, company, api, sandbox_log, action, flag, before, after, word):
    cat = catalogue(api)
    ids = [make_expense(api, cat, **{flag: before})["id"] for _ in range(2)]
    base = signed_in(client, company, "expenses/")
    html = _post(client, base, action, ids).get_data(as_text=True)
    assert len(_bulk_posts(sandbox_log, company, action)) == 1
    assert all(expense(api, i)[flag] is after for i in ids)
    assert f"2 {word}" in html


def test_checked_rows_show_their_new_accounting_state(client, company, api):
    expense_id = make_expense(api, catalogue(api))["id"]
    html = _post(client, signed_in(client, company, "expenses/"), "check", [expense_id]).get_data(
        as_text=True)
    row = re.search(rf'data-expense-id="{expense_id}".*?</tr>', html, re.S).group(0)
    assert "Checked" in row


def test_a_failed_expense_is_named_by_its_filing_number_with_its_reason(client, company, api,
                                                                        sandbox_log):
    cat = catalogue(api)
    good = make_expense(api, cat)["id"]
    excluded = make_expense(api, cat, excluded_from_accounting=True)
    base = signed_in(client, company, "expenses/")
    sandbox_log.reset()
    html = _post(client, base, "approve", [good, excluded["id"]]).get_data(as_text=True)
    assert excluded["filing_number"]
    assert (f"1 approved; 1 failed: {excluded['filing_number']} — The expense is excluded from "
            "accounting.") in html
    reads = sandbox_log.entries(company_id=company.id, method="GET", path="/2/expenses")
    assert [e["args"]["ids"] for e in reads if "ids" in e["args"]] == [[str(excluded["id"])]]
    assert expense(api, good)["approved"] is True
    assert expense(api, excluded["id"])["approved"] is False


def test_when_the_filing_numbers_cannot_be_read_the_summary_names_the_ids(client, company,
                                                                          api, faults):
    excluded = make_expense(api, catalogue(api), excluded_from_accounting=True)["id"]
    base = signed_in(client, company, "expenses/")
    fields = _form(client, base)[1]
    faults.add(path="/2/expenses*", method="GET", status=503)
    sent = client.post(f"{base}bulk", data={**fields, "action": "approve", "ids": [excluded]})
    faults.clear()
    html = client.get(sent.headers["Location"]).get_data(as_text=True)
    assert f"0 approved; 1 failed: #{excluded} — The expense is excluded from accounting." \
        in html


def test_a_failed_id_s_reason_reads_in_the_page_s_language(client, company, api):
    excluded = make_expense(api, catalogue(api), excluded_from_accounting=True)
    base = signed_in(client, company, "expenses/")
    client.get("/lang/hu")
    html = _post(client, base, "approve", [excluded["id"]]).get_data(as_text=True)
    assert f"{excluded['filing_number']} — A költség ki van zárva a könyvelésből." in html
    assert "The expense is excluded" not in html


def test_the_summary_is_translated(client, company, api):
    ids = [make_expense(api, catalogue(api))["id"] for _ in range(2)]
    base = signed_in(client, company, "expenses/")
    fields = _form(client, base)[1]
    html = client.post(f"{base}bulk", data={**fields, "action": "check", "ids": ids},
                       headers={"Accept-Language": "hu"}, follow_redirects=True)
    assert "2 költség ellenőrizve" in html.get_data(as_text=True)


def test_a_double_submit_sends_once(client, company, api, sandbox_log):
    ids = [make_expense(api, catalogue(api))["id"] for _ in range(2)]
    base = signed_in(client, company, "expenses/")
    fields = _form(client, base)[1]
    _post(client, base, "approve", ids, fields)
    again = _post(client, base, "approve", ids, fields).get_data(as_text=True)
    assert len(_bulk_posts(sandbox_log, company, "approve")) == 1
    assert "already sent" in again


def test_nothing_ticked_sends_nothing(client, company, api, sandbox_log):
    make_expense(api, catalogue(api))
    base = signed_in(client, company, "expenses/")
    html = _post(client, base, "approve", []).get_data(as_text=True)
    assert _bulk_posts(sandbox_log, company, "approve") == []
    assert "Tick the expenses" in html


def test_a_viewer_gets_the_friendly_refusal_and_then_no_enabled_controls(
        client, company, api, sandbox_log):
    expense_id = make_expense(api, catalogue(api))["id"]
    base = signed_in(client, company, "expenses/", "viewer")
    html = _post(client, base, "approve", [expense_id]).get_data(as_text=True)
    assert "does not let your token approve or check expenses" in html
    assert len(_bulk_posts(sandbox_log, company, "approve")) == 1
    assert expense(api, expense_id)["approved"] is False
    controls = ENABLED_CONTROL.findall(client.get(base).get_data(as_text=True))
    assert controls and all("disabled" in control for control in controls)


@pytest.mark.parametrize(("fault", "words"), [
    ({"kind": "reset_after"}, "may or may not have been applied to the ticked expenses"),
    ({"kind": "status", "status": 429, "retry_after": 9},
     "so this was not saved. Send it again in 9 seconds")], ids=["lost", "rate-limited"])
def test_a_bulk_action_the_service_did_not_answer_says_what_may_have_happened(
        client, company, api, faults, fault, words):
    ids = [make_expense(api, catalogue(api))["id"] for _ in range(2)]
    base = signed_in(client, company, "expenses/")
    faults.add(path="/1/expenses/approve/", method="POST", count=1, **fault)
    response = _post(client, base, "approve", ids)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and words in html
    if fault["kind"] == "reset_after":
        assert all(expense(api, i)["approved"] is True for i in ids)
