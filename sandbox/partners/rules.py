"""Partner rules (spec 2.4, 4.4): flags, tax number normalisation, blanks, collisions, and the
restricted update.

Decisions where the spec is open:
- Collision: the same normalised tax number in the company; for a partner without a tax number,
  the same name (case-insensitive) as another partner without one. 400 with
  `existing_partner_id`; nothing is merged.
- Restricted update: partners synced from an integration (source other than manual/api) and
  partners referenced by a booked income accept only default_account_number,
  default_account_name, is_customer and is_vendor; anything else is 400 with
  `offending_fields`.
"""
from __future__ import annotations

import re

from sqlalchemy import select

from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.errors import validation_error
from sandbox.core.values import collect, parse_bool, parse_text
from sandbox.incomes.model import MANUAL_SOURCES, Income
from sandbox.partners.model import Partner

HU_TAX_NUMBER = re.compile(r"^(\d{8})-?(\d)-?(\d{2})$")
TEXT_FIELDS = {"name": 200, "tax_number": 40, "eu_tax_number": 40, "zip_code": 20, "city": 100,
               "address": 200, "country": 2, "email": 200, "phone": 50,
               "default_account_number": 60, "default_account_name": 200}
FLAGS = ("is_customer", "is_vendor")
RESTRICTED_ALLOWED = ("default_account_number", "default_account_name", "is_customer",
                      "is_vendor")
FLAGS_MSG = "At least one of is_customer and is_vendor must be true."


def normalise_tax_number(value: str | None) -> str | None:
    """Remove the dashes of a Hungarian tax number (12345678-2-41 -> 12345678241)."""
    if value is None:
        return None
    match = HU_TAX_NUMBER.match(value.replace(" ", ""))
    return "".join(match.groups()) if match else value


def parse_partner(data: dict, errors: dict) -> dict:
    """Parse the partner fields present in data: text is never blank, null clears."""
    parsers: dict = {key: (lambda v, n=limit, k=key: parse_text(v, n, nullable=k != "name"))
                     for key, limit in TEXT_FIELDS.items()}
    parsers.update({flag: parse_bool for flag in FLAGS})
    values = collect(data, parsers, errors)
    if values.get("tax_number"):
        values["tax_number"] = normalise_tax_number(values["tax_number"])
    if values.get("country"):
        values["country"] = values["country"].upper()
    return values


def check_flags(is_customer: bool, is_vendor: bool) -> None:
    """At least one of the two roles."""
    if not (is_customer or is_vendor):
        raise validation_error({flag: [FLAGS_MSG] for flag in FLAGS}, non_field=[FLAGS_MSG])


def check_collision(company: Company, name: str, tax_number: str | None,
                    exclude_id: int | None = None) -> None:
    """400 naming the existing partner when name / tax number collide."""
    stmt = select(Partner).where(Partner.company_id == company.id).order_by(Partner.id)
    if exclude_id is not None:
        stmt = stmt.where(Partner.id != exclude_id)
    if tax_number:
        hit = db().scalars(stmt.where(Partner.tax_number == tax_number)).first()
        key, msg = "tax_number", "A partner with this tax number already exists."
    else:
        hit = next((p for p in db().scalars(stmt.where(Partner.tax_number.is_(None)))
                    if p.name.casefold() == name.casefold()), None)
        key, msg = "name", "A partner with this name and no tax number already exists."
    if hit is not None:
        raise validation_error({key: [msg]}, existing_partner_id=hit.id)


def restriction(partner: Partner) -> str | None:
    """Why updates of this partner are limited, or None."""
    if partner.source not in MANUAL_SOURCES:
        return f"The partner is synced from {partner.source}"
    booked = db().scalar(select(Income.id).where(
        Income.company_id == partner.company_id, Income.partner_id == partner.id,
        Income.is_booked.is_(True)).limit(1))
    return "The partner is referenced by a booked income" if booked else None


def check_restricted(partner: Partner, data: dict) -> None:
    """Limited partners accept only the restricted set; name the offending fields."""
    reason = restriction(partner)
    offending = [key for key in data
                 if (key in TEXT_FIELDS or key in FLAGS) and key not in RESTRICTED_ALLOWED]
    if reason and offending:
        msg = f"{reason}; only {', '.join(RESTRICTED_ALLOWED)} can be changed."
        raise validation_error({key: [msg] for key in offending}, non_field=[msg],
                               offending_fields=offending)
