"""Error pages know the session: a signed-in user is offered the overview, never a sign-in."""
from __future__ import annotations

import pytest
import requests

from tests.app.conftest import sign_in, signed_in


def test_unknown_page_under_a_signed_in_company_keeps_the_layout_and_offers_its_overview(
        client, company):
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/no-such-page")
    html = response.get_data(as_text=True)
    assert response.status_code == 404
    assert f'href="/c/{company.id}/">Back to the overview' in html
    assert "Go to sign-in" not in html
    assert 'class="mainnav"' in html and f'href="/c/{company.id}/incomes/"' in html
    assert company.name in html and "Sign out" in html


def test_unknown_page_under_a_company_of_another_session_offers_the_signed_in_overview(
        client, company, make_company):
    other = make_company()
    sign_in(client, company)
    response = client.get(f"/c/{other.id}/no-such-page")
    html = response.get_data(as_text=True)
    assert response.status_code == 404
    assert 'href="/">Back to the overview' in html and "Go to sign-in" not in html
    assert other.name not in html and 'class="mainnav"' not in html


def test_unknown_page_without_sign_in_offers_sign_in(client, company):
    for path in ("/no-such-page", f"/c/{company.id}/no-such-page"):
        html = client.get(path).get_data(as_text=True)
        assert "Go to sign-in" in html and "Back to the overview" not in html


def test_two_factor_refusal_after_sign_in_shows_the_two_factor_message(
        client, company, sandbox_url):
    sign_in(client, company)
    assert client.get(f"/c/{company.id}/").status_code == 200
    switched = requests.patch(f"{sandbox_url}/_sandbox/tokens/", timeout=10,
                              json={"token": company.tokens["admin"], "user_has_2fa": False})
    assert switched.status_code == 200
    response = client.get(f"/c/{company.id}/")
    html = response.get_data(as_text=True)
    assert response.status_code == 403
    assert "Two-factor authentication required" in html
    assert "has not enabled it" in html
    # The overview itself failed: it is offered again, not a way back to itself.
    assert f'href="/c/{company.id}/">Try again' in html and "Back to the overview" not in html


@pytest.mark.parametrize("area, stale", [("expenses", "cursor=bm90LWFuLWlk&is_paid=false"),
                                          ("incomes", "page=999&paid_status=1"),
                                          ("review", "page=999&currency=1")])
def test_a_list_page_that_is_gone_opens_the_first_page_of_the_same_filter(client, company, area,
                                                                          stale):
    base = signed_in(client, company, f"{area}/")
    response = client.get(f"{base}?{stale}")
    assert response.status_code == 303
    kept = stale.split("&")[1]
    assert response.headers["Location"] == f"/c/{company.id}/{area}/?{kept}"
    page = client.get(response.headers["Location"])
    assert page.status_code == 200
    assert "That page of the list no longer exists, so its first page is shown." in \
        page.get_data(as_text=True)


def test_a_record_that_is_gone_is_still_the_not_found_page(client, company):
    base = signed_in(client, company, "incomes/")
    response = client.get(f"{base}999999?page=2")
    assert response.status_code == 404
