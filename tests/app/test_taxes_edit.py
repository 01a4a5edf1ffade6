"""Bulk edit: only changes are sent, in one request; synced records take only tag changes."""
from __future__ import annotations

import re
from html import unescape

from tests.app.conftest import csrf_token, signed_in
from tests.app.taxes_support import (
    ACCOUNT,
    TAX_NUMBER,
    cell,
    create,
    months,
    records,
    sync,
    tag_ids,
    writes,
)

UPDATE = "/2/taxes/update/"
R = "r-{}-"


def _edit_page(client, base: str, *ids) -> str:
    query = "&".join(f"ids={i}" for i in ids)
    response = client.get(f"{base}edit?{query}")
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def _form(html: str, *ids, **fields) -> dict:
    """What the edit page sends: unchanged inputs as shown, `fields` (r-<id>-name) changed."""
    data = {"csrf_token": csrf_token(html), "ids": [str(i) for i in ids]}
    for record_id in ids:
        for name in ("month", "amount", "paid_status", "code", "name", "account_number",
                     "description", "tax_number", "due_at"):
            shown = _shown(html, R.format(record_id) + name)
            if shown is not None:
                data[R.format(record_id) + name] = shown
    data.update(fields)
    return data


def _shown(html: str, input_name: str) -> str | None:
    name = re.escape(input_name)
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S)
    if select:
        chosen = re.search(r'<option value="([^"]*)" selected', select.group(1))
        return chosen.group(1) if chosen else None
    field = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    value = re.search(r'value="([^"]*)"', field.group(0)) if field else None
    return unescape(value.group(1)) if value else None


def test_changed_fields_of_several_records_go_in_one_request(client, company, api,
                                                            sandbox_log):
    first, second = create(api, {"month": "2024-03", "amount": "100", "code": "103"},
                           {"month": "2024-03", "amount": "50", "code": "104"})
    base = signed_in(client, company, "taxes/")
    html = _edit_page(client, base, first, second)
    data = _form(html, first, second, **{R.format(first) + "amount": "250",
                                         R.format(second) + "description": "Bevallás"})
    response = client.post(base + "edit", data=data)
    assert response.status_code == 303
    (sent,) = writes(sandbox_log, company.id, UPDATE)
    assert sent["body"] == [{"id": first, "amount": "250.00"},
                            {"id": second, "description": "Bevallás"}]
    assert months(api)["2024-03"]["amount"] == "300.00"


def test_nothing_changed_sends_nothing(client, company, api, sandbox_log):
    (record,) = create(api, {"month": "2024-03", "amount": "100", "name": "IPA",
                             "account_number": ACCOUNT, "description": "Előleg"})
    base = signed_in(client, company, "taxes/")
    response = client.post(base + "edit", data=_form(_edit_page(client, base, record), record),
                           follow_redirects=True)
    assert "Nothing was changed." in response.get_data(as_text=True)
    assert writes(sandbox_log, company.id, UPDATE) == []


def test_a_synced_record_shows_only_tags_as_input_with_the_reason(client, company, api):
    (synced,) = sync(api, {"month": "2024-03", "amount": "900", "code": "104"})
    html = _edit_page(client, signed_in(client, company, "taxes/"), synced)
    assert f'name="r-{synced}-tags"' in html
    for name in ("amount", "month", "code", "description", "simple_tags"):
        assert f'name="r-{synced}-{name}"' not in html
    assert "Synced from NAV: only its tags can be changed here." in html
    assert "HUF\xa0900" in html


def test_only_tags_are_sent_for_a_synced_record(client, company, api, sandbox_log):
    (synced,) = sync(api, {"month": "2024-03", "amount": "900", "code": "104"})
    tag = tag_ids(api)[0]
    base = signed_in(client, company, "taxes/")
    data = _form(_edit_page(client, base, synced), synced,
                 **{R.format(synced) + "tags": [str(tag), ""],
                    R.format(synced) + "amount": "1"})  # a tampered extra field
    assert client.post(base + "edit", data=data).status_code == 303
    (sent,) = writes(sandbox_log, company.id, UPDATE)
    assert sent["body"] == [{"id": synced, "tags": [tag]}]
    assert records(api)[synced]["tags"] == [tag] and records(api)[synced]["amount"] == "900.00"


def test_upstream_ignores_everything_but_tags_on_a_synced_record(api):
    (synced,) = sync(api, {"month": "2024-03", "amount": "900", "code": "104"})
    tag = tag_ids(api)[0]
    response = api.post(UPDATE, json=[{"id": synced, "amount": "1", "tags": [tag]}])
    assert response.status_code == 200
    record = records(api)[synced]
    assert record["amount"] == "900.00" and record["tags"] == [tag]
    assert record["editable_fields"] == ["tags"]


def test_code_and_name_together_are_refused_before_sending(client, company, api, sandbox_log):
    (record,) = create(api, {"month": "2024-03", "amount": "100", "code": "103"})
    base = signed_in(client, company, "taxes/")
    html = _edit_page(client, base, record)
    assert 'value=""' in cell(html, str(record), "name", R)  # a coded tax has no own name
    data = _form(html, record, **{R.format(record) + "name": "SZJA"})
    response = client.post(base + "edit", data=data)
    assert response.status_code == 400
    assert "not both" in cell(response.get_data(as_text=True), str(record), "code", R)
    assert writes(sandbox_log, company.id, UPDATE) == []


def test_switching_from_a_code_to_name_and_account_sends_no_code(client, company, api,
                                                                 sandbox_log):
    (record,) = create(api, {"month": "2024-03", "amount": "100", "code": "103"})
    base = signed_in(client, company, "taxes/")
    data = _form(_edit_page(client, base, record), record,
                 **{R.format(record) + "code": "", R.format(record) + "name": "IPA",
                    R.format(record) + "account_number": ACCOUNT})
    assert client.post(base + "edit", data=data).status_code == 303
    (sent,) = writes(sandbox_log, company.id, UPDATE)
    assert sent["body"] == [{"id": record, "name": "IPA", "account_number": ACCOUNT}]
    stored = records(api)[record]
    assert stored["code"] is None and stored["name"] == "IPA"


def test_the_upstreams_refusal_lands_on_the_record_row(client, company, api):
    first, second = create(api, {"month": "2024-03", "amount": "100", "code": "103"},
                           {"month": "2024-03", "amount": "50", "code": "104"})
    base = signed_in(client, company, "taxes/")
    data = _form(_edit_page(client, base, first, second), first, second,
                 **{R.format(first) + "amount": "111", R.format(second) + "code": "999"})
    response = client.post(base + "edit", data=data)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "is not a valid choice" in cell(html, str(second), "code", R)
    assert 'value="111"' in cell(html, str(first), "amount", R)
    assert records(api)[first]["amount"] == "100.00"


def test_moving_a_salary_into_a_month_its_tax_number_has_is_refused(client, company, api,
                                                                    sandbox_log):
    salary = {"amount": "1", "name": "Kovács Anna", "account_number": ACCOUNT,
              "tax_number": TAX_NUMBER}
    create(api, {**salary, "month": "2024-03"}, {**salary, "month": "2024-04"},
           kind="salaries")
    april = months(api, "salaries")["2024-04"]["salaries"][0]["id"]
    base = signed_in(client, company, "salaries/")
    html = _edit_page(client, base, april)
    response = client.post(base + "edit", data=_form(html, april,
                                                     **{R.format(april) + "month": "2024-03"}))
    assert response.status_code == 400
    assert "already has a salary" in cell(response.get_data(as_text=True), str(april),
                                          "tax_number", R)
    assert writes(sandbox_log, company.id, "/2/salaries/update/") == []


def test_edit_without_a_selection_goes_back_with_a_message(client, company):
    base = signed_in(client, company, "taxes/")
    response = client.get(base + "edit", follow_redirects=True)
    assert "Select at least one record first." in response.get_data(as_text=True)


def test_a_field_the_form_did_not_send_is_left_unchanged(client, company, api, sandbox_log):
    (record,) = create(api, {"month": "2024-03", "amount": "100", "code": "103",
                             "description": "Marad"})
    base = signed_in(client, company, "taxes/")
    data = {"csrf_token": csrf_token(_edit_page(client, base, record)), "ids": [str(record)],
            R.format(record) + "amount": "130"}
    assert client.post(base + "edit", data=data).status_code == 303
    (sent,) = writes(sandbox_log, company.id, UPDATE)
    assert sent["body"] == [{"id": record, "amount": "130.00"}]
    assert records(api)[record]["description"] == "Marad"


def test_an_amount_with_decimals_is_shown_in_the_pages_language_and_kept(client, company, api,
                                                                          sandbox_log):
    (record,) = create(api, {"month": "2024-03", "amount": "1234.50", "code": "103"})
    base = signed_in(client, company, "taxes/")
    hungarian = {"Accept-Language": "hu"}
    response = client.get(f"{base}edit?ids={record}", headers=hungarian)
    html = response.get_data(as_text=True)
    assert _shown(html, R.format(record) + "amount") == "1234,50"
    response = client.post(base + "edit", data=_form(html, record), headers=hungarian)
    assert response.status_code == 303 and writes(sandbox_log, company.id, UPDATE) == []
