"""Importing an audit export's invoices as incomes: shared by POST /2/audit-xml/ and the seed.

Each invoice goes through the invoicing-software import path (sandbox/policies/importing.py)
and the company's income policies; an invoice number already imported from an audit export is
skipped, so uploading an overlapping export again is harmless.
"""
from __future__ import annotations

import hashlib

from sqlalchemy import select

from sandbox.audit.model import AuditXml
from sandbox.audit.rules import SOURCE
from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.incomes.model import Income
from sandbox.policies.importing import attach_partner, build_invoice
from sandbox.policies.rules import evaluate_income, store


def record_export(company: Company, filename: str, data: bytes, created: list[int | None],
                  user_name: str) -> AuditXml:
    """Keep the uploaded file with the incomes it created."""
    row = AuditXml(company_id=company.id, filename=filename,
                   sha256=hashlib.sha256(data).hexdigest(), size=len(data),
                   invoice_count=len(created), income_ids=[i for i in created if i],
                   user_name=user_name, data=data)
    db().add(row)
    return row


def import_invoice(body: dict, company: Company) -> int | None:
    """The new income's id; None when the number was imported before or a policy ignores it.
    An invalid invoice raises build_invoice's 400."""
    number = body.get("invoice_number")
    if number and _already_imported(company, number):
        return None
    income = build_invoice(body, company)
    run = evaluate_income(db(), company, income)
    if run.outcome.ignored:
        return None
    attach_partner(db(), income, company)
    store(db(), company, income, run)
    return income.id


def _already_imported(company: Company, number: str) -> bool:
    return db().scalar(select(Income.id).where(
        Income.company_id == company.id, Income.source == SOURCE,
        Income.invoice_number == number).limit(1)) is not None
