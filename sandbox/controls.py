"""Sandbox-only controls under /_sandbox/: test companies, request log, fault injection."""
from __future__ import annotations

import secrets

from flask import Blueprint, jsonify, request

from .db import db
from .errors import validation_error
from .faults import board
from .models import ApiToken, Company, Currency, hash_token
from .requestlog import request_log

bp = Blueprint("sandbox_controls", __name__, url_prefix="/_sandbox")

TEST_ROLES = {"admin": ("admin", True), "bookkeeper": ("bookkeeper", True),
              "viewer": ("viewer", True), "no_2fa": ("admin", False)}


@bp.post("/companies/")
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
        from .seed_basics import seed_company_basics

        seed_company_basics(db(), company)
    return jsonify({"id": company.id, "name": company.name, "tokens": tokens}), 201


def _add_token(company: Company, key: str, token: str | None = None) -> str:
    role, has_2fa = TEST_ROLES[key]
    token = token or f"sbx-{key}-{secrets.token_urlsafe(18)}"
    db().add(ApiToken(token_hash=hash_token(token), company=company, role=role,
                      name=f"{key} token", user_name=f"{key.title()} User",
                      user_has_2fa=has_2fa))
    return token


@bp.get("/requests/")
def list_requests():
    """Recorded API requests, optionally after a sequence number (?since=N)."""
    since = int(request.args.get("since", 0))
    return jsonify({"requests": request_log().since(since)})


@bp.delete("/requests/")
def clear_requests():
    """Forget recorded requests."""
    request_log().clear()
    return "", 204


@bp.get("/faults/")
def list_faults():
    """The active fault rules."""
    return jsonify({"faults": [rule.public() for rule in board().rules]})


@bp.post("/faults/")
def add_fault():
    """Add a fault rule (path pattern, method, kind, status, rate, count, latency_ms...)."""
    try:
        rule = board().add(request.get_json(force=True))
    except (TypeError, ValueError) as exc:
        raise validation_error(non_field=[str(exc)]) from None
    return jsonify(rule.public()), 201


@bp.delete("/faults/")
def clear_faults():
    """Switch every fault off."""
    board().clear()
    return "", 204


@bp.get("/health/")
def health():
    """Liveness probe that bypasses auth and faults."""
    return jsonify({"ok": True})
