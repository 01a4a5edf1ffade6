"""`bookdesk demo --port N` (N not 5000): the OAuth2 sign-in completes on Bookdesk's own port."""
from __future__ import annotations

import requests
from oauth_support import ConsentForm

from tests.app.conftest import csrf_token
from tests.app.test_cli import demo_server  # noqa: F401 (fixture: a real demo on free ports)
from tests.support.oauth import consent, query_of


def test_oauth_sign_in_on_the_demo_port_reaches_consent_and_signs_in(
        demo_server):  # noqa: F811 (the fixture)
    base, _proc = demo_server
    browser = requests.Session()
    page = browser.get(f"{base}/login", timeout=10).text
    started = browser.post(f"{base}/login/oauth", data={"csrf_token": csrf_token(page)},
                           allow_redirects=False, timeout=10)
    authorize = started.headers["Location"]
    assert query_of(authorize)["redirect_uri"] == f"{base}/oauth/callback"
    page = requests.get(authorize, timeout=10)
    assert page.status_code == 200, page.text
    user = ConsentForm(page.text).users[0]
    back = consent(authorize, int(user))
    assert back.startswith(f"{base}/oauth/callback?code=")
    signed_in = browser.get(back, allow_redirects=False, timeout=10)
    assert signed_in.headers["Location"].endswith("/practice"), signed_in.text[:300]
