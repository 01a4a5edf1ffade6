"""Editing an expense: inputs from editable_fields (expense and assignments), rows kept by id,
new rows added, no empty list, frozen ledger numbers, upstream 400s on their fields."""
from __future__ import annotations

import pytest

from app.forms import invalidate_settings
from tests.app.conftest import signed_in
from tests.app.expenses_helpers import (
    catalogue,
    expense,
    make_expense,
    patches,
    row,
    set_state,
)
from tests.app.incomes_helpers import page_form, upstream_calls


def _edit(client, company, api, ids=None, **spec):
    created = make_expense(api, ids or catalogue(api), **spec)
    base = signed_in(client, company, "expenses/")
    path = f"{base}{created['id']}/edit"
    return created, path, page_form(client, path)


def _refused(client, path: str, form, name: str) -> tuple[str, str]:
    """Post the form, expect a 400, and give the page and the named field's markup."""
    response = client.post(path, data=form.data())
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    return html, html.split(f'id="{name}"')[1].split("</div>")[0]


def test_an_unchanged_form_sends_nothing(client, company, api, sandbox_log):
    _created, path, form = _edit(client, company, api)
    response = client.post(path, data=form.data())
    assert response.status_code == 303
    assert patches(sandbox_log, company.id) == []


def test_only_the_changed_secondary_id_is_sent(client, company, api, sandbox_log):
    created, path, form = _edit(client, company, api, secondary_id="OLD")
    response = client.post(path, data=form.set("secondary_id", "ERP-42").data())
    assert response.status_code == 303
    assert patches(sandbox_log, company.id) == [{"secondary_id": "ERP-42"}]
    assert expense(api, created["id"])["secondary_id"] == "ERP-42"


def test_editing_a_row_keeps_its_id_and_a_new_row_is_added(client, company, api, sandbox_log):
    ids = catalogue(api)
    created, path, form = _edit(client, company, api, ids)
    first_id = created["assignments"][0]["id"]
    form.set("assignments-0-job_number", "JOB-1")
    form.pairs += [("assignments-1-id", ""), ("assignments-1-expense_type", str(
        ids.expense_types[1])), ("assignments-1-net_amount", "100"),
        ("assignments-1-vat_amount", "27"), ("assignments-1-gross_amount", "127"),
        ("assignments-1-vat", str(ids.vats[0]))]
    response = client.post(path, data=form.data())
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    sent = patches(sandbox_log, company.id)[-1]["assignments"]
    assert sent[0]["id"] == first_id and sent[0]["job_number"] == "JOB-1"
    assert "id" not in sent[1] and sent[1]["gross_amount"] == "127.00"
    rows = expense(api, created["id"])["assignments"]
    assert [r["id"] for r in rows][0] == first_id and len(rows) == 2
    assert rows[1]["expense_type"]["id"] == ids.expense_types[1]


def test_the_form_refuses_to_send_an_empty_assignment_list(client, company, api, sandbox_log):
    created, path, form = _edit(client, company, api)
    for name in [k for k, _v in form.pairs if k.startswith("assignments-0-")]:
        form.drop(name)
    response = client.post(path, data=form.set("note", "kept").data())
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Keep at least one cost categorisation row" in html
    assert patches(sandbox_log, company.id) == []
    assert "kept" in html and len(expense(api, created["id"])["assignments"]) == 1


def test_a_crafted_non_editable_field_never_reaches_the_api(client, company, api, sandbox_log):
    ids = catalogue(api)
    created, _path, _form = _edit(client, company, api, ids, invoice_number="KEEP-1")
    set_state(api, created["id"], processed=True)
    path = f"/c/{company.id}/expenses/{created['id']}/edit"
    form = page_form(client, path)
    assert form.get("invoice_number") is None
    form.pairs += [("invoice_number", "HACKED"), ("excluded_from_accounting", "y"),
                   ("filing_number", "X"), ("assignments-0-net_amount", "5"),
                   ("currency", "2")]
    client.post(path, data=form.set("secondary_id", "S-1").data())
    assert patches(sandbox_log, company.id) == [{"secondary_id": "S-1"}]
    assert expense(api, created["id"])["invoice_number"] == "KEEP-1"


def test_a_processed_expense_keeps_its_rows_fixed_with_the_reason(client, company, api):
    created = make_expense(api, catalogue(api))
    set_state(api, created["id"], processed=True)
    base = signed_in(client, company, "expenses/")
    html = client.get(f"{base}{created['id']}/edit").get_data(as_text=True)
    assert 'id="form-lock"' in html and "Processed in the accounting" in html
    assert 'name="invoice_number"' not in html and 'name="due_at"' in html
    assert 'name="assignments-0-expense_type"' in html
    assert 'name="assignments-0-net_amount"' not in html and "data-add-row" not in html


def test_ledger_number_is_frozen_with_the_reason_on_a_checked_expense(client, company, api):
    ids = catalogue(api)
    created = make_expense(api, assignments=[row(ids, ledger_number=ids.ledger_numbers["511"])])
    set_state(api, created["id"], checked=True)
    base = signed_in(client, company, "expenses/")
    html = client.get(f"{base}{created['id']}/edit").get_data(as_text=True)
    assert 'id="frozen-ledger"' in html and "this expense is checked" in html
    assert 'name="assignments-0-ledger_number"' not in html
    assert "511 – Anyagköltség" in html and 'name="assignments-0-job_number"' in html
    assert 'id="form-lock"' not in html


def test_ledger_number_is_frozen_with_the_reason_on_a_synced_expense(client, company, api):
    ids = catalogue(api)
    created = make_expense(api, source="szamlazz.hu",
                           assignments=[row(ids, ledger_number=ids.ledger_numbers["511"])])
    base = signed_in(client, company, "expenses/")
    html = client.get(f"{base}{created['id']}/edit").get_data(as_text=True)
    assert "synced from Számlázz.hu" in html and 'id="frozen-ledger"' in html
    assert 'name="assignments-0-ledger_number"' not in html


def test_the_lock_note_names_the_state_the_expense_is_in(client, company, api):
    ids = catalogue(api)
    checked = make_expense(api, processed=True, checked=True, assignments=[row(ids)])
    excluded = make_expense(api, processed=True, excluded_from_accounting=True,
                            assignments=[row(ids)])
    base = signed_in(client, company, "expenses/")
    page = client.get(f"{base}{checked['id']}/edit").get_data(as_text=True)
    assert "this expense is checked" in page and "Processed in the accounting" not in page
    page = client.get(f"{base}{excluded['id']}/edit").get_data(as_text=True)
    assert "Excluded from accounting:" in page and "Processed in the accounting" not in page


def test_ledger_number_is_editable_on_a_plain_manual_expense(client, company, api):
    _created, _path, form = _edit(client, company, api)
    assert "assignments-0-ledger_number" in form.inputs


def test_upstream_400_on_a_new_row_lands_on_its_cell_with_the_input_kept(client, company, api,
                                                                         sandbox_log):
    ids = catalogue(api)
    _created, path, form = _edit(client, company, api, ids)
    form.pairs += [("assignments-1-id", ""), ("assignments-1-expense_type",
                                              str(ids.expense_types[2])),
                   ("assignments-1-net_amount", "100"), ("assignments-1-gross_amount", "127"),
                   ("assignments-1-job_number", "TYPED-JOB")]
    response = client.post(path, data=form.data())
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert len(patches(sandbox_log, company.id)) == 1
    cell = html.split('rowtable__cell--vat_amount')[2].split("</td>")[0]
    assert "This field is required." in cell
    assert 'value="TYPED-JOB"' in html


def test_upstream_400_on_an_expense_field_lands_on_it_with_the_input_kept(client, company, api,
                                                                         sandbox_log):
    _created, path, form = _edit(client, company, api)
    # A choice the API does not know: Bookdesk leaves choices to the API.
    html, field = _refused(client, path, form.set("vat_area", "XX").set("note", "typed note"),
                           "vat_area")
    assert len(patches(sandbox_log, company.id)) == 1
    assert "is not a valid choice" in field
    assert "typed note" in html


@pytest.mark.parametrize("typed", ["0", "-391,25", "0,000000"])
def test_a_rate_of_zero_or_below_is_refused_on_its_field_before_sending(
        client, company, api, sandbox_log, typed):
    _created, path, form = _edit(client, company, api, currency=2, exchange_rate="400")
    html, field = _refused(client, path, form.set("exchange_rate", typed).set(
        "note", "typed note"), "exchange_rate")
    assert patches(sandbox_log, company.id) == []
    assert "Enter a number greater than 0." in field and f'value="{typed}"' in field
    assert "typed note" in html
    above = html.split('id="exchange_rate"')[0]  # said at the top, not only at the field
    assert "Please correct the marked fields; nothing was saved yet." in above


def test_exclusion_is_not_part_of_the_edit_form(client, company, api):
    _created, _path, form = _edit(client, company, api)
    assert "excluded_from_accounting" not in form.inputs


def test_edit_page_costs_one_call_with_a_warm_cache(client, company, api):
    created, path, _form = _edit(client, company, api)
    assert upstream_calls(client.get(path)) == 1


def test_the_upstreams_own_empty_list_refusal_lands_on_the_table(client, company, api,
                                                                 sandbox_log, monkeypatch):
    from app.expenses import forms

    # Were Bookdesk's own check gone, the API's 400 would still be shown, not a failure page.
    monkeypatch.setattr(forms, "refuses_empty_list", lambda form, body: False)
    _created, path, form = _edit(client, company, api)
    for name in [k for k, _v in form.pairs if k.startswith("assignments-0-")]:
        form.drop(name)
    response = client.post(path, data=form.data())
    assert response.status_code == 400
    assert patches(sandbox_log, company.id) == [{"assignments": []}]
    assert "This list may not be empty." in response.get_data(as_text=True)


def test_a_viewer_gets_the_form_back_with_the_reason_not_a_failure(client, company, api):
    created = make_expense(api, catalogue(api))
    base = signed_in(client, company, "expenses/", "viewer")
    path = f"{base}{created['id']}/edit"
    form = page_form(client, path)
    response = client.post(path, data=form.set("secondary_id", "NOPE").data())
    assert response.status_code == 403
    assert "viewer cannot change records" in response.get_data(as_text=True)
    assert 'value="NOPE"' in response.get_data(as_text=True), "the input is kept"


def test_a_rate_is_sent_with_its_six_decimals_and_a_seventh_is_refused_before_sending(
        client, company, api, sandbox_log):
    created, path, form = _edit(client, company, api, currency=2, exchange_rate="400")
    response = client.post(path, data=form.set("exchange_rate", "391.123457").data())
    assert response.status_code == 303
    assert expense(api, created["id"])["exchange_rate"] == "391.123457"
    _html, field = _refused(client, path, page_form(client, path).set(
        "exchange_rate", "391.1234567"), "exchange_rate")
    assert patches(sandbox_log, company.id) == [{"exchange_rate": "391.123457"}]
    assert "at most 6 decimal places" in field and 'value="391.1234567"' in field


def test_a_field_locked_while_the_form_was_open_is_refused_never_dropped(client, company, api,
                                                                          sandbox_log):
    created, path, form = _edit(client, company, api, invoice_number="DRA-1")
    set_state(api, created["id"], booked=True)  # someone books it meanwhile
    response = client.post(path, data=form.set("invoice_number", "DRA-JAVITOTT").data(),
                           headers={"Accept-Language": "en"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Locked since you opened the form" in html and "“DRA-JAVITOTT” was not saved" in html
    assert patches(sandbox_log, company.id) == []
    assert expense(api, created["id"])["invoice_number"] == "DRA-1"


def test_a_cell_locked_while_the_form_was_open_is_refused_never_dropped(client, company, api,
                                                                         sandbox_log):
    ids = catalogue(api)
    created, path, form = _edit(client, company, api, ids, assignments=[row(ids)])
    set_state(api, created["id"], checked=True)  # the ledger number freezes meanwhile
    form.set("assignments-0-ledger_number", str(ids.ledger_numbers["511"]))
    response = client.post(path, data=form.set("secondary_id", "S-1").data(),
                           headers={"Accept-Language": "en"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Cost categorisation, row 1, Ledger number: Locked since you opened the form" in html
    assert patches(sandbox_log, company.id) == []
    assert expense(api, created["id"])["assignments"][0]["ledger_number"] is None


def test_an_unchanged_cell_locked_meanwhile_lets_the_rest_be_saved(client, company, api,
                                                                     sandbox_log):
    ids = catalogue(api)
    created, path, form = _edit(client, company, api, ids, assignments=[row(ids)])
    set_state(api, created["id"], checked=True)
    response = client.post(path, data=form.set("secondary_id", "S-1").data())
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    assert patches(sandbox_log, company.id) == [{"secondary_id": "S-1"}]


def test_the_vat_period_is_offered_and_sent_as_a_pair_once_the_company_keeps_it(
        client, company, api, sandbox_log):
    created, path, form = _edit(client, company, api)
    assert "vat_period_type" not in form.data(), "only once the company keeps VAT periods"
    assert api.patch(f"/2/company-info/update/{company.id}/",
                     json={"enable_vat_period": True}).status_code == 200
    invalidate_settings(company.id)
    form = page_form(client, path)
    form.set("vat_period_type", "monthly").set("vat_period_started_at", "2026-03-17")
    assert client.post(path, data=form.data()).status_code == 303
    assert patches(sandbox_log, company.id) == [
        {"vat_period_type": "monthly", "vat_period_started_at": "2026-03-17"}]
    assert expense(api, created["id"])["vat_period_type"] == "monthly"
    assert "saved as the period" not in client.get(path).get_data(as_text=True)


def test_the_accounting_id_is_offered_once_the_company_keeps_it(client, company, api,
                                                                 sandbox_log):
    created, path, form = _edit(client, company, api)
    assert "accounting_id" not in form.data()
    assert api.patch(f"/2/company-info/update/{company.id}/",
                     json={"enable_accounting_id": True}).status_code == 200
    invalidate_settings(company.id)
    response = client.post(path, data=page_form(client, path).set("accounting_id", "K-77").data())
    assert response.status_code == 303
    assert patches(sandbox_log, company.id) == [{"accounting_id": "K-77"}]
