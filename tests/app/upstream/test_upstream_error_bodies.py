"""Error bodies in every shape become the right typed error with usable fields."""

from __future__ import annotations

import pytest

from app.upstream import (
    AuthenticationError,
    NotFound,
    PermissionDenied,
    RateLimited,
    Unavailable,
    UpstreamError,
    ValidationError,
)
from app.upstream.errors import error_for, read_body


def test_field_errors_non_field_errors_and_extra_keys_are_split():
    body = {
        "invoice_number": ["Already exists."],
        "non_field_errors": ["Check the totals."],
        "existing_income_id": 42,
    }
    error = error_for(400, body, method="POST", path="/2/incomes/create/")
    assert isinstance(error, ValidationError)
    assert error.field_errors == {"invoice_number": ["Already exists."]}
    assert error.non_field_errors == ["Check the totals."]
    assert error.extra == {"existing_income_id": 42}
    assert error.status == 400 and error.body == body


def test_partner_collision_id_and_offending_field_names_go_to_extra():
    body = {"non_field_errors": ["Partner exists."], "existing_partner_id": 9, "partner_id": 9}
    error = error_for(400, body)
    assert error.extra == {"existing_partner_id": 9, "partner_id": 9}
    error = error_for(400, {"detail": "Not allowed.", "fields": ["name", "city"]})
    assert error.extra == {"fields": ["name", "city"]}
    assert error.non_field_errors == ["Not allowed."]
    assert error.field_errors == {}


def test_field_named_like_an_id_with_messages_stays_a_field_error():
    error = error_for(400, {"partner_id": ['Invalid pk "5" - object does not exist.']})
    assert error.field_errors == {"partner_id": ['Invalid pk "5" - object does not exist.']}
    assert error.extra == {}


def test_nested_assignment_errors_are_kept_per_item():
    body = {"assignments": [{}, {"revenue_type": ["Unknown type."], "amount": ["Too big."]}]}
    error = error_for(400, body)
    assert error.field_errors == {
        "assignments.1.revenue_type": ["Unknown type."],
        "assignments.1.amount": ["Too big."],
    }
    assert error.item_errors("assignments") == {
        1: {"revenue_type": ["Unknown type."], "amount": ["Too big."]}
    }
    assert "assignments.1.revenue_type: Unknown type." in error.messages()


def test_nested_errors_keyed_by_index_and_list_level_messages():
    body = {"assignments": {"0": {"tags": ["Bad tag."]}}, "tags": "Not a list."}
    error = error_for(400, body)
    assert error.item_errors("assignments") == {0: {"tags": ["Bad tag."]}}
    assert error.field_errors["tags"] == ["Not a list."]
    error = error_for(400, {"assignments": ["This list may not be empty."]})
    assert error.field_errors == {"assignments": ["This list may not be empty."]}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"detail": "Invalid date format."}, ["Invalid date format."]),
        ({"_error": "Something broke."}, ["Something broke."]),
        (["Plain list message."], ["Plain list message."]),
        ("updated_since too old", ["updated_since too old"]),
        (None, []),
    ],
)
def test_validation_message_shapes_become_non_field_errors(body, expected):
    error = error_for(400, body)
    assert isinstance(error, ValidationError)
    assert error.non_field_errors == expected
    assert error.field_errors == {}


def test_text_html_and_empty_bodies_are_read():
    assert read_body("") is None
    assert read_body("  ") is None
    assert read_body('{"detail": "x"}') == {"detail": "x"}
    assert read_body("Bad Gateway") == "Bad Gateway"
    page = "<html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>"
    assert read_body(page) == "502 Bad Gateway"
    assert read_body("<html><body><p>Down &amp; out</p></body></html>") == "Down & out"


@pytest.mark.parametrize(
    ("status", "detail", "cls"),
    [
        (401, "Invalid token.", AuthenticationError),
        (403, "Authentication credentials were not provided.", AuthenticationError),
        (403, "Invalid token.", AuthenticationError),
        (403, "Company ID does not match", PermissionDenied),
        (403, "You do not have permission to perform this action.", PermissionDenied),
        (404, "Not found.", NotFound),
        (429, "Request was throttled.", RateLimited),
        (500, "Server Error", Unavailable),
        (503, "Injected fault: status 503.", Unavailable),
        (409, "Conflict", UpstreamError),
    ],
)
def test_status_map(status, detail, cls):
    error = error_for(status, {"detail": detail}, method="GET", path="/2/tags/", request_id="r1")
    assert type(error) is cls
    assert error.status == status and error.request_id == "r1" and error.path == "/2/tags/"
    assert detail in str(error)


@pytest.mark.parametrize(
    "detail",
    [
        "Two-factor authentication is required by this company; enable it for your user.",
        "2FA required",
        "A cég kétlépcsős azonosítást követel meg.",
    ],
)
def test_two_factor_403_is_told_apart(detail):
    error = error_for(403, {"detail": detail})
    assert isinstance(error, PermissionDenied)
    assert error.two_factor is True


def test_plain_permission_403_is_not_two_factor():
    error = error_for(403, {"detail": "You do not have permission to perform this action."})
    assert error.two_factor is False


@pytest.mark.parametrize(
    ("body", "content_type", "text"),
    [
        ("Invalid request", "text/plain", "Invalid request"),
        ("<html><title>Bad Request</title></html>", "text/html", "Bad Request"),
        (None, "application/json", ""),
        ({"_error": "Nope."}, "application/json", "Nope."),
    ],
)
def test_client_reads_every_error_body_shape(stub, stub_client, body, content_type, text):
    stub.then(stub.reply(400, body, content_type=content_type))
    with pytest.raises(ValidationError) as caught:
        stub_client.post("/2/tags/create/", json={"name": "x"})
    assert caught.value.non_field_errors == ([text] if text else [])
    assert caught.value.method == "POST" and caught.value.path == "/2/tags/create/"


def test_client_takes_request_id_and_retry_after_from_headers(stub, stub_client):
    headers = {"Retry-After": "30", "X-Request-Id": "up-1"}
    stub.then(stub.reply(429, {"detail": "Slow down."}, headers))
    with pytest.raises(RateLimited) as caught:
        stub_client.post("/2/tags/create/", json={})
    assert caught.value.retry_after == 30
    assert caught.value.request_id == "up-1"
