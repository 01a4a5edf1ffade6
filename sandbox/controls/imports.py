"""Sandbox-only: an invoice arriving from invoicing software, with the income policies applied.

POST /_sandbox/import-income/                      body: see import_invoice; the caller's token
     (Authorization: Token ...) picks the company. 201 {ignored: false, income: <detail>,
     policy: {...}, trace: [{field, policy_name}]}, or 200 {ignored: true, ignored_by, income:
     null, ...} when an ignore rule matched (then nothing is stored).
GET  /_sandbox/incomes/<id>/policy-trace/         {income_id, trace: [...]}
"""
from __future__ import annotations

from flask import g, jsonify

from sandbox.catalog.rules import json_object
from sandbox.company.model import ApiToken, Company, hash_token

# The controls act on the token's company, so they check tokens exactly as /1/ and /2/ do.
from sandbox.core.auth import TWO_FACTOR_TEXT, _check_company_header, _read_token, require_write
from sandbox.core.db import db
from sandbox.core.errors import ApiError
from sandbox.incomes.detail import detail_json, load_income
from sandbox.policies.importing import attach_partner, build_invoice
from sandbox.policies.rules import evaluate_income, store, trace_of


def _authenticate() -> None:
    """These controls act as a token of a company, authenticated like /2/ (2FA rule included)."""
    row = db().query(ApiToken).filter_by(token_hash=hash_token(_read_token())).one_or_none()
    if row is None:
        raise ApiError(401, "Invalid token.")
    _check_company_header(row)
    if row.company.requires_2fa and not row.user_has_2fa:
        raise ApiError(403, TWO_FACTOR_TEXT)
    g.api_token, g.company = row, row.company


def import_income():
    """Create the imported income and run the policies on it (ignore rules store nothing)."""
    _authenticate()
    require_write()
    company: Company = g.company
    income = build_invoice(json_object(), company)
    run = evaluate_income(db(), company, income)
    if run.outcome.ignored:
        return jsonify({"ignored": True, "ignored_by": run.outcome.ignored_by, "income": None,
                        "policy": run.public(), "trace": []})
    attach_partner(db(), income, company)
    store(db(), company, income, run)
    detail = detail_json(load_income(income.id, company), company)
    return jsonify({"ignored": False, "ignored_by": None, "income": detail,
                    "policy": run.public(), "trace": run.trace}), 201


def policy_trace(income_id: int):
    """Which policy set which field of one of the company's incomes."""
    _authenticate()
    income = load_income(income_id, g.company)
    return jsonify({"income_id": income.id, "trace": trace_of(db(), income.id)})
