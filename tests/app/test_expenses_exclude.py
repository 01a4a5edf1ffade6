"""Excluding an expense from accounting: a separate action with confirmation; doing it twice
shows the API's refusal as a message on the page, not a failure page."""
from __future__ import annotations

from tests.app.conftest import csrf_token, signed_in
from tests.app.expenses_helpers import catalogue, expense, make_expense, patches


def _confirm_page(client, company, api, **spec):
    created = make_expense(api, catalogue(api), **spec)
    base = signed_in(client, company, "expenses/")
    path = f"{base}{created['id']}/exclude"
    return created, base, path, client.get(path)


def test_confirmation_page_changes_nothing_until_confirmed(client, company, api, sandbox_log):
    created, base, path, page = _confirm_page(client, company, api)
    assert page.status_code == 200 and 'id="confirm"' in page.get_data(as_text=True)
    assert patches(sandbox_log, company.id) == []
    response = client.post(path, data={"csrf_token": csrf_token(page.get_data(as_text=True))})
    assert response.status_code == 303
    assert patches(sandbox_log, company.id) == [{"excluded_from_accounting": True}]
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "now excluded from accounting" in html and 'id="excluded-note"' in html
    assert expense(api, created["id"])["excluded_from_accounting"] is True


def test_excluding_twice_shows_the_api_error_as_a_message(client, company, api, sandbox_log):
    created, base, path, page = _confirm_page(client, company, api)
    data = {"csrf_token": csrf_token(page.get_data(as_text=True))}
    client.post(path, data=data)
    second = client.post(path, data=data)
    assert second.status_code == 303
    html = client.get(second.headers["Location"]).get_data(as_text=True)
    assert "The expense was not excluded: This expense is already excluded from accounting." \
        in html
    assert 'class="alert alert--error"' in html
    assert len(patches(sandbox_log, company.id)) == 2


def test_an_excluded_expense_offers_no_second_exclusion(client, company, api):
    created, base, path, _page = _confirm_page(client, company, api,
                                              excluded_from_accounting=True)
    page = client.get(path).get_data(as_text=True)
    assert 'id="already-excluded"' in page and 'id="confirm"' not in page
    assert 'id="exclude-link"' not in client.get(base + str(created["id"])).get_data(
        as_text=True)


def test_a_booked_expense_has_no_exclude_action(client, company, api):
    created = make_expense(api, catalogue(api), booked=True)
    base = signed_in(client, company, "expenses/")
    html = client.get(base + str(created["id"])).get_data(as_text=True)
    assert 'id="exclude-link"' not in html


def test_detail_offers_the_action_on_an_open_expense(client, company, api):
    created = make_expense(api, catalogue(api))
    base = signed_in(client, company, "expenses/")
    html = client.get(base + str(created["id"])).get_data(as_text=True)
    assert f'href="{base}{created["id"]}/exclude"' in html


def test_a_viewer_is_not_offered_the_exclusion(client, company, api):
    created = make_expense(api, catalogue(api))
    base = signed_in(client, company, "expenses/", role="viewer")
    html = client.get(base + str(created["id"])).get_data(as_text=True)
    assert created["invoice_number"] in html and 'id="exclude-link"' not in html


def test_an_excluded_expense_can_be_taken_back_into_accounting(client, company, api,
                                                               sandbox_log):
    created = make_expense(api, catalogue(api), excluded_from_accounting=True)
    base = signed_in(client, company, "expenses/")
    detail = client.get(base + str(created["id"])).get_data(as_text=True)
    assert 'id="include-link"' in detail and 'id="exclude-link"' not in detail
    page = client.get(f"{base}{created['id']}/include").get_data(as_text=True)
    assert 'id="confirm"' in page and patches(sandbox_log, company.id) == []
    response = client.post(f"{base}{created['id']}/include",
                           data={"csrf_token": csrf_token(page)})
    assert response.status_code == 303
    assert patches(sandbox_log, company.id) == [{"excluded_from_accounting": False}]
    assert expense(api, created["id"])["excluded_from_accounting"] is False
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "in accounting again" in html and 'id="exclude-link"' in html


def test_an_exclusion_without_an_answer_says_it_may_be_done_and_shows_the_expense(
        client, company, api, faults):
    created, base, path, page = _confirm_page(client, company, api)
    faults.add(path="/2/expenses/*/update/", method="PATCH", kind="reset_after", count=1)
    response = client.post(path, data={"csrf_token": csrf_token(page.get_data(as_text=True))})
    assert response.status_code == 303
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "did not confirm the request. Your change may already be saved" in html
    assert 'id="excluded-note"' in html, "the expense as it now is: the change went through"
