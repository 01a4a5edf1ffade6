"""Sandbox control PATCH /_sandbox/tokens/: change a token's user after it was handed out."""
from __future__ import annotations

import requests


def _patch(sandbox_url: str, payload: dict) -> requests.Response:
    return requests.patch(f"{sandbox_url}/_sandbox/tokens/", json=payload, timeout=10)


def test_switching_two_factor_off_makes_the_token_answer_the_two_factor_403(sandbox_url, api):
    token = api.company.tokens["admin"]
    assert api.get("/2/company-info/").status_code == 200
    response = _patch(sandbox_url, {"token": token, "user_has_2fa": False})
    assert response.status_code == 200
    assert response.json()["user_has_2fa"] is False and token not in response.text
    refused = api.get("/2/company-info/")
    assert refused.status_code == 403 and "Two-factor" in refused.json()["detail"]


def test_switching_two_factor_back_on_restores_access(sandbox_url, api):
    token = api.company.tokens["no_2fa"]
    assert api.get("/2/company-info/", token="no_2fa").status_code == 403
    assert _patch(sandbox_url, {"token": token, "user_has_2fa": True}).status_code == 200
    assert api.get("/2/company-info/", token="no_2fa").status_code == 200


def test_unknown_token_is_404_and_a_bad_payload_is_400(sandbox_url, api):
    assert _patch(sandbox_url, {"token": "sbx-no-such", "user_has_2fa": False}).status_code == 404
    assert _patch(sandbox_url, {"user_has_2fa": False}).status_code == 400
    bad = _patch(sandbox_url, {"token": api.company.tokens["admin"], "user_has_2fa": "no"})
    assert bad.status_code == 400 and "user_has_2fa" in bad.json()
