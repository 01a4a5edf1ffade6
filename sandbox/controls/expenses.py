"""Sandbox-only expense controls: create an expense in any state, change its state, link TTL.

POST /_sandbox/expenses/            {"company_id", any create field, "items": [...],
                                     "partner_name" (finds or makes a vendor partner),
                                     "processed", "checked", "booked", "approved",
                                     "quarantined",
                                     "excluded_from_accounting", "source", "paid_status",
                                     "created_at", "updated_at",
                                     "artifact": {"filename", "content_base64"}} -> 201 detail
POST /_sandbox/expenses/<id>/state/ (or PATCH /_sandbox/expenses/<id>/) the same state keys
                                    -> 200 detail; updated_at is bumped unless given
PUT  /_sandbox/artifacts/url-ttl/   {"seconds": n or null} -> lifetime of new download links
"""
from __future__ import annotations

import base64
import binascii
from decimal import Decimal

from flask import jsonify
from sqlalchemy import select

from sandbox.bank.rules import settle
from sandbox.catalog.rules import NOT_JSON_OBJECT, json_object
from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.errors import not_found, validation_error
from sandbox.core.files import set_url_ttl, url_ttl
from sandbox.core.filesniff import sniff
from sandbox.core.model import utcnow
from sandbox.expenses.create import attach_file, build_expense
from sandbox.expenses.fields import MAX_ID, Ctx, FieldError, parse_decimal
from sandbox.expenses.filters import parse_timestamp
from sandbox.expenses.model import MANUAL, PAID_STATUSES, Expense, ExpenseAction, ExpenseItem
from sandbox.expenses.rules import HEADER_ORDER, editable_fields
from sandbox.expenses.serialize import detail_record
from sandbox.partners.model import Partner

FLAGS = ("processed", "checked", "booked", "excluded_from_accounting", "approved", "quarantined")


def create_expense():
    """Create an expense for any company in any state (tests and demos)."""
    spec = json_object(NOT_JSON_OBJECT)
    company_id = spec.get("company_id")
    company = db().get(Company, company_id) \
        if isinstance(company_id, int) and 0 < company_id <= MAX_ID else None
    if company is None:
        raise validation_error({"company_id": ["Unknown company."]})
    fields = tuple(name for name in HEADER_ORDER if name != "excluded_from_accounting")
    if spec.get("partner_name") and not spec.get("partner"):
        spec["partner"] = _vendor(company, str(spec.pop("partner_name"))).id
    expense = build_expense(Ctx(db(), company), spec, fields)
    expense.items = [_item(raw) for raw in spec.get("items") or []]
    _attach(expense, spec.get("artifact"))
    db().add(expense)
    _set_state(expense, spec)
    db().flush()
    return jsonify(detail_record(expense, editable_fields(expense, company))), 201


def change_expense_state(expense_id: int):
    """Mark processed / checked / booked / excluded, set source, paid_status or timestamps."""
    expense = db().get(Expense, expense_id) if expense_id <= MAX_ID else None
    if expense is None:
        raise not_found()
    spec = json_object(NOT_JSON_OBJECT)
    spec.setdefault("updated_at", None)
    _set_state(expense, spec)
    db().flush()
    company = db().get(Company, expense.company_id)
    return jsonify(detail_record(expense, editable_fields(expense, company)))


def change_url_ttl():
    """Set how long new artifact download links live (null restores the default)."""
    seconds = json_object(NOT_JSON_OBJECT).get("seconds")
    if seconds is not None and (not isinstance(seconds, int) or seconds < 1):
        raise validation_error({"seconds": ["A positive integer or null is required."]})
    set_url_ttl(seconds)
    return jsonify({"seconds": url_ttl()})


def _set_state(expense: Expense, spec: dict) -> None:
    for flag in FLAGS:
        if flag in spec:
            setattr(expense, flag, bool(spec[flag]))
    if spec.get("booked"):
        expense.processed = True  # nothing is booked before it is processed
    if spec.get("excluded_from_accounting"):
        expense.actions.append(ExpenseAction(type="exclude_from_accounting", created_at=utcnow(),
                                             user_name="sandbox"))
    if "source" in spec:
        expense.source = str(spec["source"] or MANUAL)
    if "paid_status" in spec:
        if spec["paid_status"] not in PAID_STATUSES:
            raise validation_error({"paid_status": ["Must be 1, 2 or 3."]})
        settle(db(), expense, spec["paid_status"])  # the bank's transactions follow
    _set_live_state(expense, spec)
    for name in ("created_at", "updated_at"):
        if name in spec:
            raw = spec[name]
            setattr(expense, name, parse_timestamp(name, raw) if raw else utcnow())


def _set_live_state(expense: Expense, spec: dict) -> None:
    """What only the live web app changes: when a user first saw it, the accountant's to-do."""
    if "user_saw" in spec:
        raw = spec["user_saw"]
        expense.user_saw = parse_timestamp("user_saw", raw) if raw else None
    if "accounting_todo" in spec:
        expense.accounting_todo = str(spec["accounting_todo"] or "")
    if "accounting_todo_done" in spec:
        expense.accounting_todo_done = bool(spec["accounting_todo_done"])


def _vendor(company: Company, name: str) -> Partner:
    partner = db().scalar(select(Partner).where(Partner.company_id == company.id,
                                                Partner.name == name))
    if partner is None:
        partner = Partner(company_id=company.id, name=name, is_vendor=True)
        db().add(partner)
        db().flush()
    return partner


def _item(raw: dict) -> ExpenseItem:
    try:
        amounts = {k: parse_decimal(raw[k]) for k in
                   ("unit_price", "net_amount", "vat_amount", "gross_amount") if k in raw}
        return ExpenseItem(name=str(raw.get("name", "")), unit=str(raw.get("unit", "db")),
                           quantity=Decimal(str(raw.get("quantity", 1))),
                           vat_percent=float(raw.get("vat_percent", 27)), **amounts)
    except (FieldError, TypeError, ValueError, ArithmeticError):
        raise validation_error({"items": ["Invalid item."]}) from None


def _attach(expense: Expense, artifact: dict | None) -> None:
    if not artifact:
        return
    try:
        data = base64.b64decode(artifact["content_base64"], validate=True)
    except (KeyError, TypeError, binascii.Error):
        raise validation_error({"artifact": ["Expected filename and content_base64."]}) from None
    kind = sniff(data)
    if kind is None:
        raise validation_error({"artifact": ["Not a PDF, JPEG, PNG or XML file."]})
    attach_file(expense, artifact.get("filename") or f"artifact.{kind}", data, kind)
