"""DRF-style error bodies for the sandbox."""
from __future__ import annotations

from typing import Any

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException


class ApiError(Exception):
    """An error answered as JSON: a body dict, or a text that becomes {"detail": text}."""

    def __init__(self, status: int, body: Any, headers: dict | None = None):
        super().__init__(status)
        self.status = status
        self.body = {"detail": body} if isinstance(body, str) else body
        self.headers = headers or {}


def validation_error(fields: dict | None = None, non_field: list[str] | None = None,
                     **extra: Any) -> ApiError:
    """A 400 keyed by field, with non_field_errors and extra keys (e.g. existing_income_id)."""
    body: dict[str, Any] = {k: v if isinstance(v, list | dict) else [v]
                            for k, v in (fields or {}).items()}
    if non_field:
        body["non_field_errors"] = list(non_field)
    body.update(extra)
    return ApiError(400, body)


def not_found() -> ApiError:
    """The DRF 404 body."""
    return ApiError(404, "Not found.")


def register_handlers(app: Flask) -> None:
    """Answer ApiError and every HTTP error as JSON."""

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        return jsonify(exc.body), exc.status, exc.headers

    @app.errorhandler(OverflowError)
    def _overflow(_exc: OverflowError):
        # An id or number beyond SQLite's 64-bit integers: the client's value, not our fault.
        body = {"non_field_errors": ["A number in the request is outside the supported range."]}
        return jsonify(body), 400

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        texts = {404: "Not found.", 405: f"Method \"{_method()}\" not allowed."}
        return jsonify({"detail": texts.get(exc.code, exc.description)}), exc.code


def _method() -> str:
    from flask import request

    return request.method
