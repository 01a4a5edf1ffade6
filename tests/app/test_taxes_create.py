"""The taxes create grid: several rows in one request, the identity rule, refusals on their rows."""
from __future__ import annotations

import pytest

from app.taxes import flow
from app.taxes.forms import Row
from app.taxes.present import TAXES
from app.upstream import ValidationError, make_client
from tests.app.conftest import sign_in, signed_in
from tests.app.taxes_support import (
    ACCOUNT,
    cell,
    grid,
    months,
    records,
    rows,
    tag_ids,
    writes,
)

CREATE = "/2/taxes/create/"
THREE = ({"month": "2024-03", "amount": "150 000", "code": "103", "description": "SZJA"},
         {"month": "2024-03", "amount": "12 345,50", "name": "Helyi iparűzési adó",
          "account_number": ACCOUNT, "paid_status": "2"},
         {"month": "2024-04", "amount": "7000", "code": "104"})


def _post(client, base: str, *items, **extra):
    data = {**grid(client, base + "new"), **rows(*items), **extra}
    return client.post(base + "new", data=data)


def test_three_rows_are_created_in_one_request(client, company, api, sandbox_log):
    base = signed_in(client, company, "taxes/")
    response = _post(client, base, *THREE, **rows({}, {}, {}, {}, {}, {}))
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/taxes/?open=2024-03,2024-04")
    sent = writes(sandbox_log, company.id, CREATE)
    assert len(sent) == 1 and len(sent[0]["body"]) == 3
    assert sent[0]["body"][0] == {"month": "2024-03-01", "amount": "150000.00",
                                  "code": "103", "description": "SZJA"}
    listed = months(api)
    assert listed["2024-03"]["amount"] == "162345.50" and listed["2024-04"]["amount"] == "7000.00"
    assert {r["paid_status"] for r in listed["2024-03"]["taxes"]} == {1, 2}
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "3 taxes were created." in page


def test_an_amount_typed_with_trailing_zeros_goes_out_with_two_decimals(client, company, api,
                                                                        sandbox_log):
    # The API counts the decimals as written: "1000.000" would be refused there.
    base = signed_in(client, company, "taxes/")
    response = _post(client, base, {"month": "2024-06", "amount": "1000.000", "code": "103"})
    assert response.status_code == 303
    assert writes(sandbox_log, company.id, CREATE)[0]["body"][0]["amount"] == "1000.00"
    assert months(api)["2024-06"]["amount"] == "1000.00"


def test_no_currency_is_ever_sent_and_the_upstream_refuses_one(client, company, api,
                                                             sandbox_log):
    base = signed_in(client, company, "taxes/")
    assert "currency" not in client.get(base + "new").get_data(as_text=True).split("<form")[2]
    _post(client, base, THREE[0], **{"rows-0-currency": "EUR"})
    assert "currency" not in writes(sandbox_log, company.id, CREATE)[0]["body"][0]
    refused = api.post(CREATE, json=[{"month": "2024-03", "amount": "1", "code": "103",
                                      "currency": 2}])
    assert refused.status_code == 400 and "currency" in refused.json()[0]


def test_code_together_with_a_name_is_refused_before_sending(client, company, sandbox_log):
    base = signed_in(client, company, "taxes/")
    both = {"month": "2024-03", "amount": "100", "code": "103", "name": "SZJA"}
    response = _post(client, base, THREE[0], both)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "not both" in cell(html, "1", "code")
    assert 'value="SZJA"' in cell(html, "1", "name") and 'value="150 000"' in cell(html, "0",
                                                                                   "amount")
    assert writes(sandbox_log, company.id, CREATE) == []


def test_a_row_without_code_needs_both_name_and_account_number(client, company, sandbox_log):
    base = signed_in(client, company, "taxes/")
    response = _post(client, base, {"month": "2024-03", "amount": "100", "name": "IPA"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Required when no tax code is given." in cell(html, "0", "account_number")
    assert "field__errors" not in cell(html, "0", "name")
    assert writes(sandbox_log, company.id, CREATE) == []


def test_month_and_amount_are_required_and_read_leniently(client, company, sandbox_log):
    base = signed_in(client, company, "taxes/")
    response = _post(client, base, {"month": "", "amount": "abc", "code": "103"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "This field is required." in cell(html, "0", "month")
    assert "Enter an amount" in cell(html, "0", "amount")
    assert writes(sandbox_log, company.id, CREATE) == []


def test_a_grid_of_empty_rows_sends_nothing(client, company, sandbox_log):
    base = signed_in(client, company, "taxes/")
    response = _post(client, base, {"month": "2024-03", "paid_status": "1"})
    assert response.status_code == 400
    assert "Fill in at least one row." in response.get_data(as_text=True)
    assert writes(sandbox_log, company.id, CREATE) == []


def test_the_upstreams_refusal_lands_on_its_row_and_field_with_everything_kept(
        client, company, api):
    base = signed_in(client, company, "taxes/")
    response = _post(client, base, THREE[0], {"month": "2024-05", "amount": "10",
                                              "code": "999"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "is not a valid choice" in cell(html, "1", "code") and 'value="999"' in html
    assert "field__errors" not in cell(html, "0", "code") and 'value="SZJA"' in html
    assert "Nothing was created" in html and months(api) == {}


def test_a_corrected_grid_is_sent_again_with_the_same_key(client, company, api):
    base = signed_in(client, company, "taxes/")
    data = {**grid(client, base + "new"), **rows({"month": "2024-05", "amount": "10",
                                                 "code": "999"})}
    assert client.post(base + "new", data=data).status_code == 400
    data["rows-0-code"] = "103"
    assert client.post(base + "new", data=data).status_code == 303
    assert len(records(api)) == 1


def test_a_double_submit_creates_once(client, company, api, sandbox_log):
    base = signed_in(client, company, "taxes/")
    data = {**grid(client, base + "new"), **rows(*THREE)}
    first = client.post(base + "new", data=data)
    second = client.post(base + "new", data=data)
    assert first.status_code == second.status_code == 303
    assert second.headers["Location"] == first.headers["Location"]
    assert len(writes(sandbox_log, company.id, CREATE)) == 1 and len(records(api)) == 3
    page = client.get(second.headers["Location"]).get_data(as_text=True)
    assert "already sent; nothing was created twice" in page


def test_tags_and_simple_tags_are_picked_from_the_catalogue(client, company, api):
    first, second = tag_ids(api)[:2]
    base = signed_in(client, company, "taxes/")
    html = client.get(base + "new").get_data(as_text=True)
    assert f'name="rows-0-tags" value="{first}"' in html
    data = {**grid(client, base + "new"), **rows(THREE[0])}
    data["rows-0-tags"], data["rows-0-simple_tags"] = [str(first), ""], [str(second), ""]
    assert client.post(base + "new", data=data).status_code == 303
    (created,) = records(api).values()
    assert created["tags"] == [first] and created["simple_tags"] == [second]


def test_more_rows_without_javascript_keep_what_was_typed(client, company, sandbox_log):
    base = signed_in(client, company, "taxes/")
    response = _post(client, base, THREE[0], op="more")
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and 'value="SZJA"' in html
    assert 'name="rows-5-amount"' in html and 'name="rows-6-amount"' not in html
    assert writes(sandbox_log, company.id, CREATE) == []


def test_upstream_refuses_code_with_name_and_the_message_lands_on_the_row(app, company):
    sent = [Row("0", TAXES.fields), Row("1", TAXES.fields)]
    with app.test_request_context():
        api = make_client(company.id, company.tokens["admin"])
        with pytest.raises(ValidationError) as refused:
            api.post(CREATE, json=[{"month": "2024-03", "amount": "1", "code": "103"},
                                   {"month": "2024-03", "amount": "1", "code": "103",
                                    "name": "SZJA", "account_number": ACCOUNT}])
        assert flow.place(refused.value, sent) == []
    assert not sent[0].has_errors
    assert "code cannot be sent together" in sent[1].general[0]


def test_a_viewer_is_refused_by_the_upstream_and_nothing_is_created(client, company, api):
    sign_in(client, company, role="viewer")
    base = f"/c/{company.id}/taxes/"
    response = _post(client, base, THREE[0])
    assert response.status_code == 403
    assert "may not allow it" in response.get_data(as_text=True)
    assert "SZJA" in response.get_data(as_text=True), "the grid comes back with the input"
    assert records(api) == {}


def test_a_name_or_description_longer_than_the_api_takes_is_refused_before_sending(
        client, company, sandbox_log):
    base = signed_in(client, company, "taxes/")
    response = _post(client, base, {"month": "2024-03", "amount": "100", "name": "N" * 201,
                                    "account_number": ACCOUNT},
                     {"month": "2024-03", "amount": "100", "code": "103",
                      "description": "D" * 1001})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "At most 200 characters." in html and "At most 1000 characters." in html
    assert not writes(sandbox_log, company.id, CREATE)


def test_a_hungarian_iban_goes_out_as_its_account_number_and_a_foreign_one_is_refused(
        client, company, api, sandbox_log):
    base = signed_in(client, company, "taxes/")
    row = {"month": "2024-05", "amount": "100", "name": "Teszt adó"}
    foreign = _post(client, base, {**row, "account_number": "DE89 3704 0044 0532 0130 00"})
    assert foreign.status_code == 400
    assert "a Hungarian bank account here" in cell(foreign.get_data(as_text=True), "0",
                                                    "account_number")
    assert writes(sandbox_log, company.id, CREATE) == []
    domestic = _post(client, base, {**row, "account_number": "HU42 1177 3016 1111 1018 0000 0000"})
    assert domestic.status_code == 303
    assert writes(sandbox_log, company.id, CREATE)[0]["body"][0]["account_number"] == (
        "11773016-11111018-00000000")


@pytest.mark.parametrize(("typed", "shown"), [("0001-01", "0001-01"),
                                             ("9999-12", "December 9999")])
def test_a_month_the_api_cannot_take_is_refused_on_its_field_as_typed(client, company,
                                                                      sandbox_log, typed, shown):
    base = signed_in(client, company, "taxes/")
    response = _post(client, base, {"month": typed, "amount": "100", "code": "103"})
    month = cell(response.get_data(as_text=True), "0", "month")
    assert response.status_code == 400
    assert "Enter a month from 0001-02 to 9999-11." in month
    assert f'value="{shown}"' in month
    assert writes(sandbox_log, company.id, CREATE) == []
