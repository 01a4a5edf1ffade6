"""Bulk delete with confirmation (204 upstream), and the /2/-only rule across every page."""
from __future__ import annotations

from tests.app.conftest import csrf_token, signed_in
from tests.app.taxes_support import (
    ACCOUNT,
    TAX_NUMBER,
    create,
    months,
    upstream_paths,
    writes,
)

DELETE = "/2/taxes/delete/"


def test_delete_asks_first_listing_the_records_and_their_total(client, company, api,
                                                               sandbox_log):
    first, second, _third = create(api, *[{"month": "2024-03", "amount": str(n), "code": "103"}
                                          for n in (100, 200, 300)])
    base = signed_in(client, company, "taxes/")
    response = client.get(f"{base}delete?ids={first}&ids={second}&back={base}?paid=no")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert f'data-record-id="{first}"' in html and f'data-record-id="{second}"' in html
    assert "Delete 2 taxes?" in html and "HUF\xa0300" in html
    assert writes(sandbox_log, company.id, DELETE) == []


def test_confirmed_delete_is_one_request_answered_204_and_totals_follow(client, company, api,
                                                                        sandbox_log):
    first, second, third = create(api, *[{"month": "2024-03", "amount": str(n), "code": "103"}
                                         for n in (100, 200, 300)])
    base = signed_in(client, company, "taxes/")
    html = client.get(f"{base}delete?ids={first}&ids={second}&back={base}?paid=no")
    data = {"csrf_token": csrf_token(html.get_data(as_text=True)),
            "ids": [str(first), str(second)], "back": f"{base}?paid=no"}
    response = client.post(base + "delete", data=data)
    assert response.status_code == 303 and response.headers["Location"] == f"{base}?paid=no"
    (sent,) = writes(sandbox_log, company.id, DELETE)
    assert sent["status"] == 204 and sorted(sent["body"]["ids"]) == sorted([first, second])
    march = months(api)["2024-03"]
    assert [r["id"] for r in march["taxes"]] == [third] and march["amount"] == "300.00"
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "2 records were deleted." in page and "HUF\xa0300" in page


def test_ids_of_records_that_are_gone_are_not_sent(client, company, api, sandbox_log):
    (record,) = create(api, {"month": "2024-03", "amount": "1", "code": "103"})
    base = signed_in(client, company, "taxes/")
    token = csrf_token(client.get(f"{base}delete?ids={record}").get_data(as_text=True))
    response = client.post(base + "delete", data={"csrf_token": token, "ids": ["999999"]},
                           follow_redirects=True)
    assert "no longer exist" in response.get_data(as_text=True)
    assert writes(sandbox_log, company.id, DELETE) == []


def test_delete_without_a_selection_goes_back_with_a_message(client, company):
    base = signed_in(client, company, "taxes/")
    response = client.get(base + "delete", follow_redirects=True)
    assert "Select at least one record first." in response.get_data(as_text=True)


def test_a_foreign_back_address_is_not_followed(client, company, api):
    (record,) = create(api, {"month": "2024-03", "amount": "1", "code": "103"})
    base = signed_in(client, company, "taxes/")
    html = client.get(f"{base}delete?ids={record}&back=//evil.example/").get_data(as_text=True)
    assert f'name="back" value="{base}"' in html and 'href="//evil' not in html


def test_every_page_and_write_uses_only_v2_endpoints(client, company, api, sandbox_log):
    salary = {"month": "2024-03", "amount": "1", "name": "Anna", "account_number": ACCOUNT,
              "tax_number": TAX_NUMBER}
    (tax,) = create(api, {"month": "2024-03", "amount": "1", "code": "103"})
    (pay,) = create(api, salary, kind="salaries")
    sandbox_log.reset()
    for kind, record in (("taxes", tax), ("salaries", pay)):
        base = signed_in(client, company, f"{kind}/")
        for path in ("", "new", f"edit?ids={record}", f"delete?ids={record}"):
            assert client.get(base + path).status_code == 200, path
        token = csrf_token(client.get(f"{base}delete?ids={record}").get_data(as_text=True))
        assert client.post(base + "delete", data={"csrf_token": token,
                                                  "ids": [str(record)]}).status_code == 303
    used = upstream_paths(sandbox_log, company.id)
    assert used and all(path.startswith("/2/") for path in used), used
    assert {"/2/monthly-taxes/", "/2/monthly-salaries/", DELETE, "/2/salaries/delete/"} <= used
