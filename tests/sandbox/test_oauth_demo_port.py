"""The demo OAuth2 client takes Bookdesk's callback on the demo's port as well as on 5000."""
from __future__ import annotations

import pytest
import requests
from oauth_support import Client, ConsentForm, authorize_url, new_verifier, sign_in

from sandbox.core.server import start
from sandbox.oauth.seed import (
    DEMO_CLIENT_ID,
    DEMO_CLIENT_SECRET,
    DEMO_PORT_VARIABLE,
    callback_uris,
)

DEMO_CLIENT = Client(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET)
BOOKDESK_PORT = 5123  # not 5000; nothing listens there, the sandbox only checks the URI


@pytest.fixture(scope="module")
def demo_url():
    """A demo sandbox seeded for Bookdesk on BOOKDESK_PORT, as `bookdesk demo --port` seeds it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(DEMO_PORT_VARIABLE, str(BOOKDESK_PORT))
        server, url = start(port=0, seed="demo")
    yield url
    server.shutdown()


def consent_page(base: str, redirect_uri: str) -> requests.Response:
    """The authorization endpoint's answer to the demo client for redirect_uri."""
    url = authorize_url(base, DEMO_CLIENT, new_verifier(), redirect_uri=redirect_uri)
    return requests.get(url, timeout=10)


@pytest.mark.parametrize("redirect_uri", [*callback_uris(BOOKDESK_PORT), *callback_uris(5000)])
def test_demo_client_takes_the_callback_on_the_demo_port_and_on_5000(demo_url, redirect_uri):
    page = consent_page(demo_url, redirect_uri)
    assert page.status_code == 200, page.text
    assert ConsentForm(page.text).users


def test_demo_client_signs_in_through_the_demo_ports_callback(demo_url):
    redirect_uri = callback_uris(BOOKDESK_PORT)[0]
    page = consent_page(demo_url, redirect_uri)
    assert page.status_code == 200, page.text
    user = ConsentForm(page.text).users[0]
    tokens = sign_in(demo_url, DEMO_CLIENT, int(user), redirect_uri=redirect_uri)
    assert tokens["access_token"] and tokens["refresh_token"]


def test_demo_client_still_refuses_a_callback_on_any_other_port(demo_url):
    other = callback_uris(BOOKDESK_PORT + 1)[0]
    page = consent_page(demo_url, other)
    assert page.status_code == 400
    assert page.json()["error"] == "invalid_request"
    assert f"{other} is not supported" in page.json()["error_description"]
