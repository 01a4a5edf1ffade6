"""Reading an invoicing program's audit export (the Hungarian "adatexport" XML) into invoices.

The export's root is <szamlak> holding one <szamla> per invoice. What the sandbox reads, by
local element name (namespaces ignored): fejlec/szlasz (invoice number), fejlec/szladatum
(issued), fejlec/teljdatum (fulfilled), nem_kotelezo/fiz_hatarido (due), nem_kotelezo/penznem
and arfolyam (currency code and rate), vevo/nev, vevo/adoszam, vevo/cim/iranyitoszam and
telepules (the customer), osszesites/vegosszeg/nettoarossz, afaertekossz, bruttoarossz (totals),
and each termek_szolgaltatas_tetelek/termek_szolgaltatas_tetel as a line: termeknev, menny,
mertekegys, nettoegysar, nettoar, adokulcs (percent), adoertek, bruttoar.

Importing the invoices as incomes (shared by POST /2/audit-xml/ and the seed): each invoice goes
through the invoicing-software import path (sandbox/policies/importing.py) and the company's
income policies; an invoice number already imported from an audit export is skipped, so
uploading an overlapping export again is harmless.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as SafeXml
from defusedxml import DefusedXmlException
from sqlalchemy import select

from sandbox.audit.model import AuditXml
from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.filesniff import XML, sniff
from sandbox.incomes.model import Income
from sandbox.policies.importing import attach_partner, build_invoice
from sandbox.policies.rules import evaluate_income, store

SOURCE = "audit-xml"
ROOT, INVOICE = "szamlak", "szamla"
HEADER_PATHS = {
    "invoice_number": ("fejlec", "szlasz"), "issued_at": ("fejlec", "szladatum"),
    "fulfilled_at": ("fejlec", "teljdatum"), "due_at": ("nem_kotelezo", "fiz_hatarido"),
    "currency": ("nem_kotelezo", "penznem"), "exchange_rate": ("nem_kotelezo", "arfolyam"),
    "net_amount": ("osszesites", "vegosszeg", "nettoarossz"),
    "vat_amount": ("osszesites", "vegosszeg", "afaertekossz"),
    "gross_amount": ("osszesites", "vegosszeg", "bruttoarossz"),
}
LINES, LINE = "termek_szolgaltatas_tetelek", "termek_szolgaltatas_tetel"
ITEM_PATHS = {"name": ("termeknev",), "quantity": ("menny",), "unit": ("mertekegys",),
              "unit_price": ("nettoegysar",), "net_amount": ("nettoar",),
              "vat_percent": ("adokulcs",), "vat_amount": ("adoertek",),
              "gross_amount": ("bruttoar",)}
PARTNER_PATHS = {"name": ("vevo", "nev"), "tax_number": ("vevo", "adoszam"),
                 "zip_code": ("vevo", "cim", "iranyitoszam"),
                 "city": ("vevo", "cim", "telepules")}


class AuditFileError(ValueError):
    """A file that is no readable audit export; the text names the problem."""


def decode(content) -> bytes:
    """The file's bytes from its base64 text; it must be XML by content."""
    if not isinstance(content, str) or not content:
        raise AuditFileError("Base64 content is required.")
    try:
        data = base64.b64decode(content, validate=True)
    except (binascii.Error, ValueError):
        raise AuditFileError("Content is not valid base64.") from None
    if sniff(data) != XML:
        raise AuditFileError("The file is not XML.")
    return data


def invoices(data: bytes) -> list[dict]:
    """Every invoice of the export as an import body (see sandbox/policies/importing.py)."""
    try:
        root = SafeXml.fromstring(data)
    except (SafeXml.ParseError, DefusedXmlException):
        raise AuditFileError("The XML cannot be read.") from None
    if _local(root.tag) != ROOT:
        raise AuditFileError(f"Not an audit export: the root element must be <{ROOT}>.")
    return [_invoice(node) for node in root if _local(node.tag) == INVOICE]


def _invoice(node: Element) -> dict:
    body = {key: _text(node, path) for key, path in HEADER_PATHS.items()}
    body = {key: value for key, value in body.items() if value is not None}
    partner = {key: _text(node, path) for key, path in PARTNER_PATHS.items()}
    body["partner"] = {key: value for key, value in partner.items() if value is not None}
    lines = next((child for child in node if _local(child.tag) == LINES), None)
    if lines is not None:
        body["items"] = [_present(line, ITEM_PATHS) for line in lines
                         if _local(line.tag) == LINE]
    body.update(source=SOURCE, type=1)
    return body


def _present(node: Element, paths: dict) -> dict:
    found = {key: _text(node, path) for key, path in paths.items()}
    return {key: value for key, value in found.items() if value is not None}


def _text(node: Element, path: tuple[str, ...]) -> str | None:
    for step in path:
        node = next((child for child in node if _local(child.tag) == step), None)
        if node is None:
            return None
    text = (node.text or "").strip()
    return text or None


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


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
