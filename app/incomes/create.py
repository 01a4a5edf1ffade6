"""Creating an accounting document: the form's fields, storno pre-fill, the one-time send.

A create is sent at most once per rendered form (app.once): the form carries a one-time key;
the first submit claims it, a second one waits for the first and lands on the same result.
"""
from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

from flask import g

from app.forms import ITEM_FIELDS
from app.forms.check import default_currency_id
from app.forms.registry import ref_id
from app.incomes import upstream
from app.numbers import to_decimal

PURPOSE = "incomes.create"
BASE_FIELDS = (
    "invoice_number", "issued_at", "fulfilled_at", "due_at", "payment_method", "vat_area",
    "secondary_id", "partner_id", "partner_name", "partner_tax_number", "partner_zip_code",
    "partner_city", "partner_address", "partner_country", "partner_account_number",
    "currency", "exchange_rate", "exchange_date", "net_amount", "vat_amount", "gross_amount",
    "ledger_number_id", "accounting_period_start", "accounting_period_end",
)
LABEL_FIELDS = ("tags", "simple_tags", "note", "referred_invoice_number")
COPIED = ("partner_id", "partner_name", "partner_tax_number", "partner_zip_code", "partner_city",
          "partner_address", "partner_country", "partner_account_number", "currency",
          "exchange_rate", "exchange_date", "payment_method", "vat_area", "ledger_number_id")
NEGATED = ("net_amount", "vat_amount", "gross_amount")


def new_fields(settings: dict) -> tuple[str, ...]:
    """The create form's fields: accounting ID and VAT period only when the company uses them."""
    extra = ("accounting_id",) if settings.get("enable_accounting_id") else ()
    if settings.get("enable_vat_period"):
        extra += ("vat_period_type", "vat_period_started_at")
    return BASE_FIELDS + extra + LABEL_FIELDS


def item_fields() -> tuple[str, ...]:
    """Line item columns."""
    return ITEM_FIELDS


def defaults(settings: dict, catalogs: dict) -> dict:
    """A blank document: today, the company's currency, Hungarian VAT area, transfer."""
    today = date.today().isoformat()
    return {"issued_at": today, "fulfilled_at": today, "vat_area": "HU",
            "payment_method": "transfer", "currency": default_currency_id(settings, catalogs),
            "assignments": [{}]}


def storno_initial(original: dict, settings: dict, catalogs: dict) -> dict:
    """A storno of `original`: same partner and categories, amounts negated, today's dates."""
    initial = defaults(settings, catalogs)
    initial.update({key: original.get(key) for key in COPIED if original.get(key) is not None})
    initial["currency"] = ref_id(original.get("currency")) or initial["currency"]
    initial.update({key: _negate(original.get(key)) for key in NEGATED})
    initial["referred_invoice_number"] = original.get("invoice_number")
    initial["assignments"] = [
        {**{k: row.get(k) for k in ("revenue_type", "vat", "tags", "job_number",
                                     "ledger_number_id")},
         **{k: _negate(row.get(k)) for k in NEGATED}}
        for row in original.get("assignments") or []] or [{}]
    return initial


def _negate(value) -> str | None:
    number = to_decimal(value)
    return None if number is None else str(-number)


def payload(form) -> dict:
    """The create body: form fields, header totals from the rows when left empty, storno type."""
    body = form.create_payload()
    rows = form.rows.get("assignments") or []
    for key in NEGATED:
        amounts = [row.get(key) for row in rows]
        if key not in body and amounts and all(a is not None for a in amounts):
            body[key] = str(sum(amounts, Decimal(0)).quantize(Decimal("0.01")))
    body["income_type"] = 2
    if body.get("referred_invoice_number"):
        body["invoice_type"] = 1
    return body


def send(body: dict, image: tuple[str, bytes, str] | None) -> dict:
    """POST the create, as JSON or (with an image) multipart with a `data` part."""
    if image is None:
        return g.api.post(upstream.CREATE, json=body)
    return g.api.post(upstream.CREATE, data={"data": json.dumps(body)},
                      files={"invoice_image": image})
