"""Sandbox-only controls: test companies, their tokens, request log, faults, health."""
from __future__ import annotations

import secrets

from flask import jsonify, request

from sandbox.catalog.model import Currency
from sandbox.company.model import ApiToken, Company, hash_token
from sandbox.core.db import db
from sandbox.core.errors import not_found, validation_error
from sandbox.core.faults import board
from sandbox.core.requestlog import request_log

TEST_ROLES = {"admin": ("admin", True), "bookkeeper": ("bookkeeper", True),
              "viewer": ("viewer", True), "no_2fa": ("admin", False)}


def create_company():
    """Create a company with one token per role; answers the tokens in clear, once."""
    spec = request.get_json(silent=True) or {}
    currency = db().query(Currency).filter_by(code=spec.get("currency", "HUF")).one_or_none()
    if currency is None:
        raise validation_error({"currency": ["Unknown currency code."]})
    company = Company(
        name=spec.get("name") or f"Teszt Kft. {secrets.token_hex(3)}",
        tax_account_number=spec.get("tax_account_number", "12345678-2-41"),
        default_currency=currency,
        advanced_accounting=bool(spec.get("advanced_accounting", False)),
        enable_vat_period=bool(spec.get("enable_vat_period", False)),
        enable_accounting_id=bool(spec.get("enable_accounting_id", False)),
        requires_2fa=bool(spec.get("requires_2fa", True)),
        income_policies=spec.get("income_policies"),
        expense_email="szamla@example.hu", document_email="dokumentum@example.hu")
    db().add(company)
    db().flush()
    tokens = {role: _add_token(company, role) for role in TEST_ROLES}
    if spec.get("basics", True):
        from sandbox.catalog.seed import seed_company_basics

        seed_company_basics(db(), company)
    return jsonify({"id": company.id, "name": company.name, "tokens": tokens}), 201


def _add_token(company: Company, key: str, token: str | None = None) -> str:
    role, has_2fa = TEST_ROLES[key]
    token = token or f"sbx-{key}-{secrets.token_urlsafe(18)}"
    db().add(ApiToken(token_hash=hash_token(token), company=company, role=role,
                      name=f"{key} token", user_name=f"{key.title()} User",
                      user_has_2fa=has_2fa))
    return token


def list_requests():
    """Recorded API requests, optionally after a sequence number (?since=N)."""
    since = int(request.args.get("since", 0))
    return jsonify({"requests": request_log().since(since)})


def clear_requests():
    """Forget recorded requests."""
    request_log().clear()
    return "", 204


def list_faults():
    """The active fault rules."""
    return jsonify({"faults": [rule.public() for rule in board().rules]})


def add_fault():
    """Add a fault rule (path pattern, method, kind, status, rate, count, latency_ms, params...)."""
    try:
        rule = board().add(request.get_json(force=True))
    except (TypeError, ValueError) as exc:
        raise validation_error(non_field=[str(exc)]) from None
    return jsonify(rule.public()), 201


def clear_faults():
    """Switch every fault off."""
    board().clear()
    return "", 204


def health():
    """Liveness probe that bypasses auth and faults."""
    return jsonify({"ok": True})


def change_token():
    """Set `user_has_2fa` of the token given in clear (looked up by its hash)."""
    data = request.get_json(silent=True) or {}
    if not isinstance(data.get("token"), str) or not data["token"]:
        raise validation_error({"token": ["A non-empty string is required."]})
    if not isinstance(data.get("user_has_2fa"), bool):
        raise validation_error({"user_has_2fa": ["Must be true or false."]})
    row = db().query(ApiToken).filter_by(token_hash=hash_token(data["token"])).one_or_none()
    if row is None:
        raise not_found()
    row.user_has_2fa = data["user_has_2fa"]
    return jsonify({"id": row.id, "company_id": row.company_id, "role": row.role,
                    "user_name": row.user_name, "user_has_2fa": row.user_has_2fa})
