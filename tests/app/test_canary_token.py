"""Canary sweep: a signed-in API token (or OAuth2 token pair) reaches no response, cookie, URL or
log record, on any route.

The sweep signs in with a known sandbox token, visits every GET route of app.url_map (plain and
as htmx), replays every hx-get, the first state-changing htmx action and the first POST form
(as the browser would submit it, sign-out aside) of each page, and looks for the token
everywhere the browser or an operator could see it. The server-side session store
must hold it: that proves the sweep ran signed in and searched for the right string.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path
from urllib.parse import quote_plus

import pytest

from app import create_app
from app.auth import session as session_store
from tests.app.conftest import csrf_token, page_csrf, sign_in
from tests.support.htmx import csrf_headers, htmx_actions, post_forms
from tests.support.oauth import consent, oauth_client, oauth_user
from tests.support.routes import RouteSampler, SampleContext, error_paths


class Recorder:
    """A test client that keeps every response it got, labelled, for the leak search."""

    def __init__(self, client):
        self.client = client
        self.seen: list[tuple[str, object]] = []

    def open(self, method: str, path: str, label: str = "", **kwargs):
        """Send a request and remember the response."""
        response = self.client.open(path, method=method, **kwargs)
        # A streamed body (exports) is read now, inside its own request's context.
        response.get_data()
        self.seen.append((f"{label}{method} {path} -> {response.status_code}", response))
        return response


def _variants(token: str) -> set[str]:
    return {token, quote_plus(token)}


def _leaks(label: str, response, needles: set[str]) -> list[str]:
    body = response.get_data().decode("utf-8", "replace")
    found = [f"{label}: body" for n in needles if n in body]
    found += [f"{label}: header {name}" for name, value in response.headers.items(list)
              if any(n in value for n in needles)]
    return found


def _log_leaks(records, needles: set[str]) -> list[str]:
    found = []
    for record in records:
        texts = [record.getMessage(), repr(record.args), record.exc_text or "",
                 repr({k: v for k, v in vars(record).items() if k not in ("msg", "args")})]
        if any(n in text for n in needles for text in texts):
            found.append(f"log {record.name} {record.levelname}: {record.getMessage()[:200]}")
    return found


def _session_files_holding(app, token: str) -> list[Path]:
    folder = Path(app.instance_path) / "sessions"
    return [path for path in folder.glob("*") if token.encode() in path.read_bytes()]


def _sweep_pages(recorder: Recorder, sampler: RouteSampler, company_id: int) -> list:
    """Every GET route plain and as htmx, plus the error pages; returns the htmx actions found."""
    actions = []
    paths = [route.path for route in sampler.get_routes()] + list(error_paths(company_id).values())
    for path in paths:
        response = recorder.open("GET", path)
        assert response.status_code < 500, f"GET {path} answered {response.status_code}"
        if path.startswith(f"/c/{company_id}/"):
            assert "/login" not in response.headers.get("Location", ""), f"{path} not signed in"
        recorder.open("GET", path, "htmx ", headers={"HX-Request": "true",
                                                     "HX-Current-URL": f"http://localhost{path}"})
        if response.mimetype == "text/html":
            html = response.get_data(as_text=True)
            forms = [form for form in post_forms(html, path) if form.url != "/logout"]
            actions.append((path, htmx_actions(html, path) + forms[:1], csrf_headers(html)))
    return actions


def _replay_actions(recorder: Recorder, found: list) -> int:
    """Each hx-get, the first htmx write and the first POST form per page; returns the count."""
    sent = set()
    for page_path, actions, csrf in found:
        writes = [a for a in actions if a.method != "GET" and a.htmx][:1]
        forms = [a for a in actions if not a.htmx]
        for action in [a for a in actions if a.method == "GET"] + writes + forms:
            if (action.method, action.url, action.htmx) in sent:
                continue
            sent.add((action.method, action.url, action.htmx))
            kind = "hx" if action.htmx else "form"
            recorder.open(action.method, action.url, f"{kind} from {page_path}: ",
                          headers=action.headers(page_path, csrf), data=action.data())
    return len(sent)


@pytest.fixture
def canary_logs(caplog):
    """Every log record at DEBUG, the app's own logger included."""
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="app")
    return caplog


def test_signed_in_token_appears_in_no_response_cookie_or_log_record(
        app, company, make_company, sandbox_url, canary_logs):
    token = company.tokens["admin"]
    recorder = Recorder(app.test_client())
    # A refused sign-in re-renders the form: it must not echo the token back.
    refused = sign_in(recorder.client, company, company_id=make_company().id)
    recorder.seen.append(("refused sign-in POST /login", refused))
    assert refused.status_code == 403
    recorder.seen.append(("sign-in POST /login", sign_in(recorder.client, company)))
    sampler = RouteSampler(app, SampleContext(sandbox_url, company))
    found = _sweep_pages(recorder, sampler, company.id)
    assert _replay_actions(recorder, found) >= 1, "no page action was replayed"
    holding = _session_files_holding(app, token)
    cookie = recorder.client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    recorder.open("POST", "/logout", data={"csrf_token": page_csrf(recorder.client)})

    needles = _variants(token)
    leaks = [leak for label, response in recorder.seen for leak in _leaks(label, response, needles)]
    leaks += _log_leaks(canary_logs.records, needles)
    assert cookie is not None and token not in cookie.value
    assert not leaks, "the API token leaked:\n" + "\n".join(leaks)
    assert len(holding) == 1, "the signed-in session record should hold the token (only there)"
    assert not _session_files_holding(app, token), "sign-out must delete the session record"
    assert any(r.name.startswith("app.upstream") for r in canary_logs.records), \
        "no upstream debug records were captured; the log check would prove nothing"


def test_oauth_tokens_appear_in_no_response_cookie_url_or_log_record(
        app_config, company, make_company, sandbox_url, canary_logs, monkeypatch):
    registered = oauth_client(sandbox_url, "http://localhost/oauth/callback")
    app = create_app({**app_config, "OAUTH_CLIENT_ID": registered["client_id"],
                      "OAUTH_CLIENT_SECRET": registered["client_secret"],
                      "SESSION_IDLE_MINUTES": 600})
    user = oauth_user(sandbox_url, [company.id, make_company().id])
    recorder = Recorder(app.test_client())
    login = recorder.open("GET", "/login")
    start = recorder.open("POST", "/login/oauth",
                          data={"csrf_token": csrf_token(login.get_data(as_text=True))})
    back = consent(start.headers["Location"], user["id"])
    recorder.open("GET", back[back.index("/oauth/callback"):])
    first = _oauth_pair(app, recorder.client)
    recorder.open("GET", "/practice")
    # 30 s left: the sweep's first request refreshes, so both pairs are searched for.
    offset = first["expires_at"] - 30 - time.time()
    monkeypatch.setattr(session_store, "now", lambda: time.time() + offset)
    found = _sweep_pages(recorder, RouteSampler(app, SampleContext(sandbox_url, company)),
                         company.id)
    assert _replay_actions(recorder, found) >= 1, "no page action was replayed"
    second = _oauth_pair(app, recorder.client)
    holding = _session_files_holding(app, second["access_token"])
    cookie = recorder.client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    recorder.open("POST", "/logout", data={"csrf_token": page_csrf(recorder.client)})

    secrets = [first[key] for key in ("access_token", "refresh_token")] + \
              [second[key] for key in ("access_token", "refresh_token")]
    needles = set().union(*(_variants(secret) for secret in secrets))
    leaks = [leak for label, response in recorder.seen for leak in _leaks(label, response, needles)]
    leaks += [f"URL {label}" for label, _ in recorder.seen if any(n in label for n in needles)]
    leaks += [f"URL {url}" for url in (start.headers["Location"], back)
              if any(n in url for n in needles)]
    # The sandbox runs in this process: its authorization server's grants log what they issue
    # (Authlib, DEBUG). That is the server's log, not Bookdesk's.
    ours = [r for r in canary_logs.records if not r.name.startswith(SERVER_LOGGERS)]
    leaks += _log_leaks(ours, needles)
    assert any(r.name.startswith("authlib.integrations") or r.name.startswith("app.")
               for r in ours), "no Bookdesk-side records were captured"
    assert second["access_token"] != first["access_token"], "the sweep should have refreshed"
    assert cookie is not None and not any(n in cookie.value for n in needles)
    assert not leaks, "an OAuth2 token leaked:\n" + "\n".join(leaks)
    assert len(holding) == 1, "the server-side store should hold the token (only there)"
    assert not any(_session_files_holding(app, secret) for secret in secrets), \
        "sign-out must delete the stored tokens"


SERVER_LOGGERS = ("authlib.oauth2.rfc6749.grants", "sandbox")


def _oauth_pair(app, client) -> dict:
    with client.session_transaction() as sess:
        grant = next(iter(sess["companies"].values()))["grant"]
    with app.app_context():
        return session_store.get_secret(grant)
