"""Spec part 5: authentication, company selection, roles and two-factor."""
import pytest


def test_missing_authorization_header_returns_401(api):
    assert api.get("/2/company-info/", token=None).status_code == 401


def test_invalid_token_returns_401_with_detail(api):
    resp = api.get("/2/company-info/", token="not-a-real-token")
    assert resp.status_code == 401
    assert "detail" in resp.json()


def test_wrong_auth_scheme_returns_401(api):
    token = api.company.tokens["admin"]
    resp = api.get("/2/company-info/", token=None, headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 401


def test_token_infers_its_company(api):
    assert api.get("/2/company-info/").json()["id"] == api.company.id


@pytest.mark.parametrize("header", ["Service-Company-Id", "Quick-Company-Id"])
def test_company_header_naming_own_company_is_accepted(api, header):
    resp = api.get("/2/company-info/", headers={header: str(api.company.id)})
    assert resp.status_code == 200


@pytest.mark.parametrize("header", ["Service-Company-Id", "Quick-Company-Id"])
def test_company_header_for_other_company_returns_403(api, make_company, header):
    other = make_company()
    resp = api.get("/2/company-info/", headers={header: str(other.id)})
    assert resp.status_code == 403
    assert resp.json()["detail"] == "Company ID does not match"


def test_company_header_applies_to_v1_paths_too(api, make_company):
    other = make_company()
    resp = api.get("/1/does-not-matter/", headers={"Service-Company-Id": str(other.id)})
    assert resp.status_code in (403, 404)


def test_x_application_is_accepted_and_changes_nothing(api):
    plain = api.get("/2/company-info/").json()
    tagged = api.get("/2/company-info/", headers={"X-Application": "anything at all"}).json()
    assert plain == tagged


def test_user_without_two_factor_gets_403_saying_so(api):
    resp = api.get("/2/company-info/", token="no_2fa")
    assert resp.status_code == 403
    assert "two-factor" in resp.json()["detail"].lower()


def test_viewer_may_read_but_not_write(api):
    assert api.get("/2/company-info/", token="viewer").status_code == 200
    resp = api.patch(f"/2/company-info/update/{api.company.id}/", token="viewer",
                     json={"enable_vat_period": True})
    assert resp.status_code == 403


def test_only_admin_updates_company_settings(api):
    resp = api.patch(f"/2/company-info/update/{api.company.id}/", token="bookkeeper",
                     json={"enable_vat_period": True})
    assert resp.status_code == 403


def test_paths_served_with_and_without_trailing_slash(api):
    assert api.get("/2/company-info").status_code == 200
    assert api.get("/2/company-info/").status_code == 200


def test_unknown_path_returns_404(api):
    resp = api.get("/2/no-such-endpoint/")
    assert resp.status_code == 404
    assert resp.json() == {"detail": "Not found."}


def test_tokens_are_stored_hashed(sandbox_db_path, company):
    import hashlib
    import sqlite3

    with sqlite3.connect(sandbox_db_path) as conn:
        stored = {row[0] for row in conn.execute("SELECT token_hash FROM api_token")}
    for token in company.tokens.values():
        assert token not in stored
        assert hashlib.sha256(token.encode()).hexdigest() in stored
