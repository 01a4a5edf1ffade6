"""Partners (spec 2.4, 4.4): create, update, list (GET /1/partners/) and detail.

List filters: name (contains, case-insensitive), search (name or tax number contains),
tax_number (exact after normalisation), is_customer, is_vendor (true/false), source (repeated
keys or a comma list); unknown parameters are ignored.
ordering: name, id, created_at (with "-"), default name. Page-number envelope, flat results.
"""
from __future__ import annotations

from flask import jsonify, request
from sqlalchemy import or_, select

from sandbox.catalog.rules import company_row, json_object
from sandbox.core import query
from sandbox.core.auth import current_company, require_write
from sandbox.core.db import db
from sandbox.core.errors import validation_error
from sandbox.core.pagination import page_number_page
from sandbox.core.values import REQUIRED_MSG
from sandbox.incomes.serialize import iso_timestamp
from sandbox.partners.model import Partner
from sandbox.partners.rules import (
    FLAGS,
    TEXT_FIELDS,
    check_collision,
    check_flags,
    check_restricted,
    normalise_tax_number,
    parse_partner,
)

ORDERING = ("name", "id", "created_at")


def partner_json(partner: Partner) -> dict:
    """The partner record."""
    data = {"id": partner.id}
    data.update({key: getattr(partner, key) for key in TEXT_FIELDS})
    data.update({flag: getattr(partner, flag) for flag in FLAGS})
    # The live list calls the bank account account_number; the spec default_account_number.
    data.update(account_number=partner.default_account_number, source=partner.source,
                created_at=iso_timestamp(partner.created_at), version=partner.version)
    return data


def partner_create():
    """POST /2/partners/create/: 201 with the partner."""
    require_write()
    company, errors = current_company(), {}
    values = parse_partner(json_object(), errors)
    if "name" not in values and "name" not in errors:
        errors["name"] = [REQUIRED_MSG]
    if errors:
        raise validation_error(errors)
    check_flags(values.get("is_customer", False), values.get("is_vendor", False))
    check_collision(company, values["name"], values.get("tax_number"))
    partner = Partner(company_id=company.id, source="manual", version=1, **values)
    db().add(partner)
    db().flush()
    return jsonify(partner_json(partner)), 201


def partner_update(partner_id: int):
    """PATCH /2/partners/{id}/update/: partial; limited partners take the restricted set."""
    require_write()
    company, partner, data = current_company(), company_row(Partner, partner_id), json_object()
    check_restricted(partner, data)
    errors: dict = {}
    values = parse_partner(data, errors)
    if errors:
        raise validation_error(errors)
    check_flags(values.get("is_customer", partner.is_customer),
                values.get("is_vendor", partner.is_vendor))
    if "name" in values or "tax_number" in values:
        check_collision(company, values.get("name", partner.name),
                        values.get("tax_number", partner.tax_number), exclude_id=partner.id)
    for key, value in values.items():
        setattr(partner, key, value)
    partner.version = (partner.version or 0) + 1
    return jsonify(partner_json(partner))


def partner_detail(partner_id: int):
    """GET /1/partners/{id}/."""
    return jsonify(partner_json(company_row(Partner, partner_id)))




def partner_list():
    """GET /1/partners/: {count, next, previous, results: [partner...]}."""
    stmt = select(Partner).where(Partner.company_id == current_company().id)
    stmt = _filters(stmt)
    return jsonify(page_number_page(stmt.order_by(*_ordering(request.args.get("ordering"))),
                                    lambda rows: [partner_json(p) for p in rows]))


def _filters(stmt):
    if name := query.text("name"):
        stmt = stmt.where(query.contains(Partner.name, name))
    if search := query.text("search"):
        stmt = stmt.where(or_(query.contains(Partner.name, search), query.contains(
            Partner.tax_number, normalise_tax_number(search))))
    if tax_number := query.text("tax_number"):
        stmt = stmt.where(Partner.tax_number == normalise_tax_number(tax_number))
    if sources := query.values("source"):
        stmt = stmt.where(Partner.source.in_(sources))
    for flag in FLAGS:
        if (value := query.flag(flag)) is not None:
            stmt = stmt.where(getattr(Partner, flag).is_(value))
    return stmt


def _ordering(raw: str | None) -> list:
    keys = []
    for part in (raw or "").split(","):
        name = part.strip().lstrip("-")
        if name in ORDERING:
            column = getattr(Partner, name)
            keys.append(column.desc() if part.strip().startswith("-") else column.asc())
    return keys + [Partner.name.asc(), Partner.id.asc()]
