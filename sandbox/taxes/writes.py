"""Bulk create, update and delete of taxes and salaries (spec 4.5), all or nothing."""
from __future__ import annotations

from datetime import date

from sqlalchemy import select

from sandbox.catalog.model import Tag
from sandbox.catalog.rules import company_rows, ids_of, items_of, raise_item_errors
from sandbox.core.auth import current_company
from sandbox.core.db import db
from sandbox.core.model import utcnow
from sandbox.core.values import REQUIRED_MSG
from sandbox.taxes.model import MANUAL
from sandbox.taxes.rules import (
    TAG_FIELDS,
    Kind,
    identity,
    months,
    parse_item,
    required_errors,
    synced_values,
)

ONE_PER_MONTH = "A salary with this tax_number already exists in this month."


def create_records(kind: Kind, body, company=None, source: str = MANUAL) -> list:
    """Create every item of body or none; answers the new records."""
    company = company or current_company()
    items, as_list = items_of(body, kind.records)
    tags, slots = _tags(company.id), _slots(kind, company.id)
    errors, created = [], []
    for item in items:
        values, problems = _new_values(item, kind, tags, slots)
        errors.append(problems)
        if not problems:
            record = kind.model(company_id=company.id, source=source, paid_status=1)
            _apply(record, values, tags)
            db().add(record)
            created.append(record)
            _take_slot(slots, record, kind)
    raise_item_errors(errors, as_list)
    db().flush()
    return created


def update_records(kind: Kind, body) -> list:
    """Update every item of body by id, or none; synced records take only tag changes."""
    company = current_company()
    items, as_list = items_of(body, kind.records)
    tags, slots = _tags(company.id), _slots(kind, company.id)
    own = {r.id: r for r in company_rows(kind.model, company.id)}
    errors, updated = [], []
    for item in items:
        record, problems = _target(item, own)
        if record is not None:
            values, problems = _changes(record, item, kind, tags, slots)
        errors.append(problems)
        if not problems:
            _apply(record, values, tags)
            record.updated_at = utcnow()
            updated.append(record)
    raise_item_errors(errors, as_list)
    return list(dict.fromkeys(updated))


def delete_records(kind: Kind, body) -> None:
    """Delete the company's records among the ids; other ids are ignored."""
    ids = ids_of(body)
    for record in db().scalars(select(kind.model).where(
            kind.model.company_id == current_company().id, kind.model.id.in_(ids))):
        db().delete(record)


def _new_values(item, kind: Kind, tags: dict, slots: dict) -> tuple[dict, dict]:
    values, problems = parse_item(item, kind, set(tags))
    problems = {**required_errors(values, kind), **problems}
    # As DRF's validate(), the rule across fields runs only once every field is valid.
    names, problems = identity(values) if not problems else ({}, problems)
    if not problems:
        values = months(values, kind)
    if not problems and kind.is_salary:
        problems = _slot_problem(slots, values["month"], values.get("tax_number"), None)
    return {**values, **names}, problems


def _target(item, own: dict) -> tuple[object | None, dict]:
    if not isinstance(item, dict):
        return None, {"non_field_errors": ["Expected an object."]}
    record_id = item.get("id")
    if record_id is None:
        return None, {"id": [REQUIRED_MSG]}
    if not isinstance(record_id, int) or isinstance(record_id, bool) or record_id not in own:
        return None, {"id": [f'Invalid pk "{record_id}" - object does not exist.']}
    return own[record_id], {}


def _changes(record, item: dict, kind: Kind, tags: dict, slots: dict) -> tuple[dict, dict]:
    values, problems = parse_item(item, kind, set(tags))
    if record.synced:
        # Everything but tags is ignored on synced records, invalid values included.
        kept = {key: problems[key] for key in ("tags", "currency") if key in problems}
        return synced_values(values), kept
    names, problems = identity(values, record) if not problems else ({}, problems)
    if not problems and kind.is_salary:
        month = values.get("month", record.month)
        number = values.get("tax_number", record.tax_number)
        problems = _slot_problem(slots, month, number, record.id)
        if not problems:
            slots.pop((record.month, record.tax_number), None)
            slots[(month, number)] = record
    return {**values, **names}, problems


def _apply(record, values: dict, tags: dict) -> None:
    for key, value in values.items():
        setattr(record, key, [tags[i] for i in value] if key in TAG_FIELDS else value)


def _tags(company_id: int) -> dict[int, Tag]:
    return {t.id: t for t in company_rows(Tag, company_id)}


def _slots(kind: Kind, company_id: int) -> dict:
    if not kind.is_salary:
        return {}
    return {(r.month, r.tax_number): r for r in company_rows(kind.model, company_id)}


def _slot_problem(slots: dict, month: date, tax_number: str | None,
                  own_id: int | None) -> dict:
    # A salary without a tax_number (made through /1/) never collides: spec 8 is about numbers.
    holder = slots.get((month, tax_number)) if tax_number is not None else None
    if holder is None or (own_id is not None and holder.id == own_id):
        return {}
    extra = {"existing_salary_id": holder.id} if holder.id else {}
    return {"tax_number": [ONE_PER_MONTH], **extra}


def _take_slot(slots: dict, record, kind: Kind) -> None:
    if kind.is_salary:
        slots[(record.month, record.tax_number)] = record
