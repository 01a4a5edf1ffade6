"""Editing: inputs from editable_fields, PATCH of only the changes, errors on their fields."""
from __future__ import annotations

import re

from app.forms import invalidate_settings
from tests.app.conftest import signed_in
from tests.app.incomes_helpers import (
    BrowserForm,
    catalogue,
    income,
    make_income,
    page_form,
    patches,
    set_company,
    set_state,
)


def _edit(client, company, api, **fields):
    created = make_income(api, **fields)
    base = signed_in(client, company, "incomes/")
    path = f"{base}{created['id']}/edit"
    return created, path, page_form(client, path)


def test_an_unchanged_form_sends_nothing(client, company, api, sandbox_log):
    _created, path, form = _edit(client, company, api, type=2)
    response = client.post(path, data=form.data())
    assert response.status_code == 303
    assert patches(sandbox_log, company.id) == []


def test_only_the_changed_field_is_sent(client, company, api, sandbox_log):
    created, path, form = _edit(client, company, api, type=2, note="régi")
    client.post(path, data=form.set("note", "új megjegyzés").data())
    assert patches(sandbox_log, company.id) == [{"note": "új megjegyzés"}]
    assert income(api, created["id"])["note"] == "új megjegyzés"


def test_tags_are_sent_whole(client, company, api, sandbox_log):
    ids = catalogue(api)
    created, path, form = _edit(client, company, api, type=2, tags=[ids.tags[0]])
    client.post(path, data=form.set("tags", str(ids.tags[0]), str(ids.tags[2])).data())
    assert patches(sandbox_log, company.id) == [{"tags": [ids.tags[0], ids.tags[2]]}]
    client.post(path, data=page_form(client, path).set("tags").data())
    assert patches(sandbox_log, company.id)[-1] == {"tags": []}
    assert income(api, created["id"])["tags"] == []


def test_a_processed_income_shows_read_only_fields_with_the_reason(client, company, api):
    created = make_income(api, type=2)
    set_state(api, created["id"], is_processed=True)
    base = signed_in(client, company, "incomes/")
    html = client.get(f"{base}{created['id']}/edit", headers={"Accept-Language": "en"}) \
        .get_data(as_text=True)
    assert 'name="invoice_number"' not in html and 'name="secondary_id"' in html
    assert "Processed in the accounting" in html
    assert 'name="assignments-0-revenue_type"' in html
    assert 'name="assignments-0-net_amount"' not in html


def test_a_crafted_field_outside_editable_fields_never_reaches_the_api(client, company, api,
                                                                      sandbox_log):
    created = make_income(api, type=2, invoice_number="KEEP-1")
    set_state(api, created["id"], is_processed=True)
    base = signed_in(client, company, "incomes/")
    path = f"{base}{created['id']}/edit"
    form = page_form(client, path)
    form.pairs += [("invoice_number", "HACKED"), ("net_amount", "1"), ("is_cancelled", "y"),
                   ("assignments-0-net_amount", "5")]
    client.post(path, data=form.set("secondary_id", "S-1").data())
    sent = patches(sandbox_log, company.id)
    assert sent == [{"secondary_id": "S-1"}]
    assert income(api, created["id"])["invoice_number"] == "KEEP-1"


def test_fixed_assignment_rows_send_only_the_editable_column(client, company, api,
                                                            sandbox_log):
    ids = catalogue(api)
    created = make_income(api, type=2)
    set_state(api, created["id"], is_processed=True)
    base = signed_in(client, company, "incomes/")
    path = f"{base}{created['id']}/edit"
    form = page_form(client, path).set("assignments-0-revenue_type", str(ids.revenue_types[1]))
    response = client.post(path, data=form.data())
    assert response.status_code == 303, response.get_data(as_text=True)
    row_id = created["assignments"][0]["id"]
    assert patches(sandbox_log, company.id) == [
        {"assignments": [{"id": row_id, "revenue_type": ids.revenue_types[1]}]}]


def test_adding_an_assignment_sends_the_whole_list(client, company, api, sandbox_log):
    ids = catalogue(api)
    created, path, form = _edit(client, company, api, type=2, net_amount="1000.00",
                                gross_amount="1270.00")
    form.set("assignments-0-net_amount", "600").set("assignments-0-gross_amount", "762")
    form.set("assignments-0-vat_amount", "162")
    form.pairs += [("assignments-5-id", ""), ("assignments-5-revenue_type",
                                              str(ids.revenue_types[2])),
                   ("assignments-5-net_amount", "400"), ("assignments-5-gross_amount", "508"),
                   ("assignments-5-tags", str(ids.tags[3]))]
    response = client.post(path, data=form.data())
    assert response.status_code == 303, response.get_data(as_text=True)
    body = patches(sandbox_log, company.id)[-1]
    assert list(body) == ["assignments"] and len(body["assignments"]) == 2
    assert body["assignments"][1]["revenue_type"] == ids.revenue_types[2]
    rows = income(api, created["id"])["assignments"]
    assert [r["gross_amount"] for r in rows] == ["762.00", "508.00"]
    assert rows[1]["tags"] == [{"id": ids.tags[3], "name": "Projekt B"}]


def test_removing_a_row_without_javascript_rerenders_without_sending(client, company, api,
                                                                    sandbox_log):
    _created, path, form = _edit(client, company, api, type=2)
    form.pairs.append(("table_op", "remove:assignments:0"))
    response = client.post(path, data=form.data())
    assert response.status_code == 200
    assert 'name="assignments-0-revenue_type"' not in response.get_data(as_text=True)
    assert patches(sandbox_log, company.id) == []


def test_period_start_after_end_is_refused_before_sending_with_input_kept(client, company, api,
                                                                         sandbox_log):
    _created, path, form = _edit(client, company, api, type=2)
    form.set("accounting_period_start", "2025-06-30").set("accounting_period_end", "2025-06-01")
    response = client.post(path, data=form.set("note", "kept text").data(),
                           headers={"Accept-Language": "en"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "may not be after the end" in html and "kept text" in html
    assert 'value="Jun 30, 2025"' in html  # the typed day, written in the page's language
    assert patches(sandbox_log, company.id) == []


def test_accounting_period_end_alone_is_sent_with_its_start(client, company, api, sandbox_log):
    _created, path, form = _edit(client, company, api, type=2,
                                 accounting_period_start="2025-01-01",
                                 accounting_period_end="2025-06-30")
    client.post(path, data=form.set("accounting_period_end", "2025-12-31").data())
    assert patches(sandbox_log, company.id) == [
        {"accounting_period_end": "2025-12-31", "accounting_period_start": "2025-01-01"}]


def test_vat_period_is_sent_as_a_pair_and_the_rounded_start_is_shown(client, company, api,
                                                                    sandbox_log):
    set_company(api, enable_vat_period=True)
    invalidate_settings(company.id)
    created, path, form = _edit(client, company, api, type=2)
    form.set("vat_period_type", "quarterly").set("vat_period_started_at", "2025-05-17")
    response = client.post(path, data=form.data(), follow_redirects=True,
                           headers={"Accept-Language": "en"})
    assert patches(sandbox_log, company.id) == [
        {"vat_period_type": "quarterly", "vat_period_started_at": "2025-05-17"}]
    html = response.get_data(as_text=True)
    assert "first day of the period" in html and "Apr 1, 2025" in html


def test_settings_driven_fields_appear_only_when_switched_on_and_not_booked(client, company,
                                                                           api):
    created = make_income(api, type=2)
    base = signed_in(client, company, "incomes/")
    html = client.get(f"{base}{created['id']}/edit").get_data(as_text=True)
    assert 'name="accounting_id"' not in html and 'name="vat_period_type"' not in html
    set_company(api, enable_accounting_id=True, enable_vat_period=True)
    invalidate_settings(company.id)
    html = client.get(f"{base}{created['id']}/edit").get_data(as_text=True)
    assert 'name="accounting_id"' in html and 'name="vat_period_type"' in html
    set_state(api, created["id"], is_booked=True)
    html = client.get(f"{base}{created['id']}/edit").get_data(as_text=True)
    assert 'name="accounting_id"' not in html


def test_an_upstream_400_lands_on_its_field_with_the_input_kept(client, company, api,
                                                               sandbox_log):
    _created, path, form = _edit(client, company, api, type=2)
    # A choice the API does not know (Bookdesk checks lengths itself, so not a long value).
    form.set("vat_area", "XX").set("partner_city", "Győr").set("note", "my note")
    response = client.post(path, data=form.data())
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    field = html.split('id="vat_area"')[1].split("</div>")[0]
    assert "is not a valid choice" in field
    assert 'value="Győr"' in html and "my note" in html
    assert len(patches(sandbox_log, company.id)) == 1


def test_a_value_longer_than_the_field_takes_is_refused_before_sending(client, company, api,
                                                                      sandbox_log):
    _created, path, form = _edit(client, company, api, type=2)
    response = client.post(path, data=form.set("partner_country", "HUN").data())
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "At most 2 characters." in html.split('id="partner_country"')[1].split("</div>")[0]
    assert 'value="HUN"' in html
    assert not patches(sandbox_log, company.id)


def test_an_assignment_error_lands_on_its_cell(client, company, api):
    _created, path, form = _edit(client, company, api, type=2)
    response = client.post(path, data=form.set("assignments-0-revenue_type", "999999").data())
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    cell = html.split('name="assignments-0-revenue_type"')[1].split("</td>")[0]
    assert "does not exist" in cell
    # the input names its message, so a screen reader reads it with the field
    select = html[:html.index('name="assignments-0-revenue_type"')].rsplit("<select", 1)[1]
    described = re.search(r'aria-describedby="([^"]+)"', select).group(1)
    assert f'id="{described}"' in cell and "does not exist" in cell.split(described)[1]


def test_a_foreign_currency_needs_a_rate_before_sending(client, company, api, sandbox_log):
    ids = catalogue(api)
    _created, path, form = _edit(client, company, api, type=2)
    response = client.post(path, data=form.set("currency", str(ids.currencies["EUR"])).data(),
                           headers={"Accept-Language": "en"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "actual exchange rate" in html.split('id="exchange_rate"')[1].split("</div>")[0]
    assert patches(sandbox_log, company.id) == []
    form.set("currency", str(ids.currencies["EUR"])).set("exchange_rate", "392,15")
    assert client.post(path, data=form.data()).status_code == 303
    assert patches(sandbox_log, company.id) == [
        {"currency": ids.currencies["EUR"], "exchange_rate": "392.15"}]


def test_a_change_made_meanwhile_by_someone_else_is_not_overwritten(client, company, api,
                                                                   sandbox_log):
    created, path, form = _edit(client, company, api, type=2, note="eredeti",
                                secondary_id="S-0")
    api.patch(f"/2/incomes/{created['id']}/update/", json={"secondary_id": "THEIRS"})
    sandbox_log.reset()
    client.post(path, data=form.set("note", "mine").data())
    assert patches(sandbox_log, company.id) == [{"note": "mine"}]
    assert income(api, created["id"])["secondary_id"] == "THEIRS"


def test_both_changing_one_field_is_held_back_as_a_conflict(client, company, api, sandbox_log):
    created, path, form = _edit(client, company, api, type=2, note="eredeti")
    api.patch(f"/2/incomes/{created['id']}/update/", json={"note": "theirs"})
    sandbox_log.reset()
    response = client.post(path, data=form.set("note", "mine").data())
    assert response.status_code == 400
    assert patches(sandbox_log, company.id) == []
    conflict_page = BrowserForm(response.get_data(as_text=True))
    assert conflict_page.get("note") == "mine"
    assert client.post(path, data=conflict_page.data()).status_code == 303
    assert patches(sandbox_log, company.id) == [{"note": "mine"}]


def test_a_field_missing_from_the_post_counts_as_unchanged(client, company, api, sandbox_log):
    ids = catalogue(api)
    _created, path, form = _edit(client, company, api, type=2, tags=[ids.tags[0]],
                                 note="stays")
    client.post(path, data=form.drop("tags").drop("note").set("secondary_id", "X").data())
    assert patches(sandbox_log, company.id) == [{"secondary_id": "X"}]


def test_an_unconfirmed_save_keeps_the_input_and_says_so(client, company, api, faults):
    _created, path, form = _edit(client, company, api, type=2)
    faults.add(path="/2/incomes/*/update/", method="PATCH", kind="status", status=503)
    response = client.post(path, data=form.set("note", "typed text").data(),
                           headers={"Accept-Language": "en"})
    html = response.get_data(as_text=True)
    assert response.status_code == 503
    assert "did not confirm the request" in html and "typed text" in html


def test_a_stored_row_without_a_revenue_type_does_not_stop_an_edit_of_the_rest(
        client, company, api, sandbox_log):
    # The API holds such rows (17 in the demo); the form refused every save of the income.
    created, path, form = _edit(client, company, api, type=2, note="régi", assignments=[
        {"net_amount": "1000.00", "vat_amount": "270.00", "gross_amount": "1270.00"}])
    assert client.post(path, data=form.data()).status_code == 303
    assert patches(sandbox_log, company.id) == []
    response = client.post(path, data=page_form(client, path).set("note", "új").data())
    assert response.status_code == 303
    assert patches(sandbox_log, company.id) == [{"note": "új"}]
    assert income(api, created["id"])["note"] == "új"


def test_the_tag_picker_says_its_name_and_what_is_chosen(client, company, api):
    ids = catalogue(api)
    _created, path, _form = _edit(client, company, api, type=2, tags=[ids.tags[0]])
    html = client.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)
    summary = html.split('class="picker__summary"', 1)[1].split("</summary>")[0]
    assert "aria-label" not in summary  # it would hide the chosen tags from a screen reader
    assert '<span class="visually-hidden">Tags: </span>' in summary
    chosen = summary.split("</span>", 1)[1]
    assert chosen.strip() not in ("", "—")


def test_cells_and_rows_locked_while_the_form_was_open_are_refused_never_dropped(
        client, company, api, sandbox_log):
    ids = catalogue(api)
    created, path, form = _edit(client, company, api, type=2)
    set_state(api, created["id"], is_processed=True)  # the rows become fixed meanwhile
    form.set("assignments-0-net_amount", "999")
    form.pairs += [("assignments-5-id", ""), ("assignments-5-revenue_type",
                                              str(ids.revenue_types[2]))]
    response = client.post(path, data=form.set("secondary_id", "S-1").data(),
                           headers={"Accept-Language": "en"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "row 1, Net amount: Locked since you opened the form" in html
    assert "Rows can no longer be added or removed" in html
    assert "Revenue type: Locked" not in html, "the added row is refused as a row, once"
    assert patches(sandbox_log, company.id) == []


def _row(ids, revenue: int, net: str, gross: str, tags=()) -> dict:
    return {"revenue_type": ids.revenue_types[revenue], "net_amount": net, "gross_amount": gross,
            "vat": ids.vats[0], "tags": list(tags)}


def test_a_multi_select_cell_locked_meanwhile_is_compared_whole(client, company, api,
                                                                 sandbox_log):
    ids = catalogue(api)
    both = _row(ids, 0, "1000.00", "1270.00", ids.tags[:2])
    created, path, form = _edit(client, company, api, type=2, assignments=[both])
    set_state(api, created["id"], is_processed=True)  # the tags lock meanwhile
    response = client.post(path, data=form.set("secondary_id", "S-1").data())
    assert response.status_code == 303, "both tags unchanged: no refusal"
    assert patches(sandbox_log, company.id) == [{"secondary_id": "S-1"}]
    one = _row(ids, 0, "1000.00", "1270.00", ids.tags[:1])
    created, path, form = _edit(client, company, api, type=2, assignments=[one])
    form.pairs.insert(0, ("assignments-0-tags", str(ids.tags[1])))  # a second tag ticked
    set_state(api, created["id"], is_processed=True)
    response = client.post(path, data=form.data(), headers={"Accept-Language": "en"})
    assert response.status_code == 400
    assert "Tags: Locked since you opened the form" in response.get_data(as_text=True)


def test_a_row_removed_while_the_rows_became_fixed_is_refused_not_shifted(
        client, company, api, sandbox_log):
    ids = catalogue(api)
    created, path, form = _edit(client, company, api, type=2, assignments=[
        _row(ids, 0, "600.00", "762.00"), _row(ids, 1, "400.00", "508.00")])
    set_state(api, created["id"], is_processed=True)
    for name in [k for k, _v in form.pairs if k.startswith("assignments-0-")]:
        form.drop(name)
    response = client.post(path, data=form.set("secondary_id", "S-1").data(),
                           headers={"Accept-Language": "en"})
    assert response.status_code == 400
    assert "Rows can no longer be added or removed" in response.get_data(as_text=True)
    assert patches(sandbox_log, company.id) == []


def _receipt_with_lines(client, company, api, net: str, vat: str, gross: str):
    """A cash receipt of two lines (2 × 300 and 1 × 400 at 27%: net 1 000, VAT 270)."""
    lines = [{"name": "Kávé", "quantity": "2", "unit_price": "300.00", "net_amount": "600.00",
              "vat_amount": "162.00", "vat_percent": 27},
             {"name": "Süti", "quantity": "1", "unit_price": "400.00", "net_amount": "400.00",
              "vat_amount": "108.00", "vat_percent": 27}]
    return _edit(client, company, api, type=6, net_amount=net, vat_amount=vat,
                 gross_amount=gross, items=lines)


def _totals(form: BrowserForm, net: str, vat: str, gross: str) -> BrowserForm:
    """The header and its one categorisation row both set to these totals."""
    for prefix in ("", "assignments-0-"):
        form.set(prefix + "net_amount", net).set(prefix + "vat_amount", vat)
        form.set(prefix + "gross_amount", gross)
    return form


def test_an_edit_that_takes_the_totals_off_the_stored_lines_is_refused_beside_them(
        client, company, api, sandbox_log):
    created, path, form = _receipt_with_lines(client, company, api, "1000.00", "270.00",
                                              "1270.00")
    response = client.post(path, data=_totals(form, "1100", "297", "1397").data(),
                           headers={"Accept-Language": "en"})
    html = response.get_data(as_text=True).replace("\u00a0", " ")
    assert response.status_code == 400
    assert "The line items add up to a net of HUF 1,000." in html
    assert "The line items add up to a VAT of HUF 270." in html
    assert "The line items cannot be changed here." in html and "Süti" in html
    assert BrowserForm(html).values("net_amount") == ["1100"]
    assert patches(sandbox_log, company.id) == []
    again = client.post(path, data=page_form(client, path).set("secondary_id", "P-7").data())
    assert again.status_code == 303, again.get_data(as_text=True)[-3000:]
    assert patches(sandbox_log, company.id) == [{"secondary_id": "P-7"}]
    assert income(api, created["id"])["net_amount"] == "1000.00"


def test_a_stored_contradiction_is_not_held_against_an_edit_of_the_totals(
        client, company, api, sandbox_log):
    created, path, form = _receipt_with_lines(client, company, api, "900.00", "243.00",
                                              "1143.00")
    response = client.post(path, data=_totals(form, "950", "256.50", "1206.50").data())
    assert response.status_code == 303
    assert income(api, created["id"])["net_amount"] == "950.00"


def test_a_pair_partner_changed_meanwhile_is_not_sent_back_with_its_old_value(
        client, company, api, sandbox_log):
    created, path, form = _edit(client, company, api, type=2,
                                accounting_period_start="2026-01-01",
                                accounting_period_end="2026-01-10")
    api.patch(f"/2/incomes/{created['id']}/update/",
              json={"accounting_period_start": "2026-01-01",
                    "accounting_period_end": "2026-01-31"})
    sandbox_log.reset()
    response = client.post(path, data=form.set("accounting_period_start", "2026-01-05").data(),
                           headers={"Accept-Language": "en"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and patches(sandbox_log, company.id) == []
    assert "Changed by someone else meanwhile; their value is shown now." in page
    again = BrowserForm(page)
    assert again.values("accounting_period_start") == ["Jan 5, 2026"], "the user's, kept"
    assert again.values("accounting_period_end") == ["Jan 31, 2026"], "theirs, shown"
    assert client.post(path, data=again.data()).status_code == 303
    assert patches(sandbox_log, company.id) == [
        {"accounting_period_start": "2026-01-05", "accounting_period_end": "2026-01-31"}]
