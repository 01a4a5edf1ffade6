"""A page of the expense list, loaded in bulk with plain column queries.

The list is the hot path (clients scan thousands of expenses, 100 per page), so the page's
assignments, items, tag links and lookup tables are read with one flat query each instead of
through ORM relationships.
"""
from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.orm import Session

from sandbox.catalog.model import Currency, ExpenseType, Tag, VatCategory
from sandbox.core.model import money_str
from sandbox.expenses.model import (
    Expense,
    ExpenseAssignment,
    ExpenseItem,
    expense_assignment_tag,
    expense_simple_tag,
    expense_tag,
)
from sandbox.expenses.serialize import common_fields, item_json
from sandbox.ledger.model import LedgerNumber
from sandbox.partners.model import Partner

ASSIGNMENT_COLUMNS = (ExpenseAssignment.id, ExpenseAssignment.expense_id,
                      ExpenseAssignment.expense_type_id, ExpenseAssignment.net_amount,
                      ExpenseAssignment.vat_amount, ExpenseAssignment.gross_amount,
                      ExpenseAssignment.vat_id, ExpenseAssignment.job_number,
                      ExpenseAssignment.ledger_number_id, ExpenseAssignment.vat_ledger_number_id,
                      ExpenseAssignment.company_vat_category_id)


def page_results(session: Session, expenses: list[Expense], lookups: bool = True) -> dict:
    """{"expenses": [...], <lookup tables>} for one page of expense rows."""
    if not expenses:
        return {"expenses": [], **(_lookups(session, [], [], {}) if lookups else {})}
    ids = [e.id for e in expenses]
    tags, simple_tags = _links(session, expense_tag, ids), _links(session, expense_simple_tag, ids)
    assignments = _assignments(session, ids)
    items = _items(session, ids)
    partners = _names(session, Partner, {e.partner_id for e in expenses})
    records = [{**common_fields(e, tags[e.id], simple_tags[e.id]), "partner": e.partner_id,
                "partner_name": partners.get(e.partner_id), "currency": e.currency_id,
                "items": items[e.id], "assignments": assignments[e.id]} for e in expenses]
    if not lookups:
        return {"expenses": records}
    return {"expenses": records, **_lookups(session, expenses, records, partners)}


def _links(session: Session, table, ids: list[int], key: str = "expense_id") -> dict:
    found: dict[int, list[int]] = defaultdict(list)
    column = table.c[key]
    for owner, tag_id in session.execute(select(column, table.c.tag_id)
                                         .where(column.in_(ids)).order_by(table.c.tag_id)):
        found[owner].append(tag_id)
    return found


def _assignments(session: Session, ids: list[int]) -> dict:
    rows = session.execute(select(*ASSIGNMENT_COLUMNS, VatCategory.name, VatCategory.percent)
                           .outerjoin(VatCategory, VatCategory.id == ExpenseAssignment.vat_id)
                           .where(ExpenseAssignment.expense_id.in_(ids))
                           .order_by(ExpenseAssignment.id)).all()
    tags = _links(session, expense_assignment_tag, [r.id for r in rows], "assignment_id")
    found: dict[int, list[dict]] = defaultdict(list)
    for r in rows:
        found[r.expense_id].append({
            "id": r.id, "net_amount": money_str(r.net_amount),
            "vat_amount": money_str(r.vat_amount), "gross_amount": money_str(r.gross_amount),
            "vat": None if r.vat_id is None else
            {"id": r.vat_id, "name": r.name, "percent": float(r.percent)},
            "tags": tags[r.id], "job_number": r.job_number, "expense_type": r.expense_type_id,
            "ledger_number": r.ledger_number_id, "vat_ledger_number": r.vat_ledger_number_id,
            "company_vat_category": r.company_vat_category_id})
    return found


def _items(session: Session, ids: list[int]) -> dict:
    found: dict[int, list[dict]] = defaultdict(list)
    for i in session.scalars(select(ExpenseItem).where(ExpenseItem.expense_id.in_(ids))
                             .order_by(ExpenseItem.id)):
        found[i.expense_id].append(item_json(i))
    return found


def _names(session: Session, model, ids: set, *extra) -> dict:
    ids.discard(None)
    if not ids:
        return {}
    rows = session.execute(select(model.id, model.name, *extra).where(model.id.in_(ids)))
    return {row[0]: row[1:] if extra else row[1] for row in rows}


def _lookups(session: Session, expenses: list[Expense], records: list[dict],
             partners: dict) -> dict:
    assignments = [a for r in records for a in r["assignments"]]
    tag_ids = {t for r in records for t in (*r["tags"], *r["simple_tags"])}
    tag_ids |= {t for a in assignments for t in a["tags"]}
    ledger_ids = {a[k] for a in assignments for k in ("ledger_number", "vat_ledger_number")}
    types = _names(session, ExpenseType, {a["expense_type"] for a in assignments})
    currencies = _names(session, Currency, {e.currency_id for e in expenses}, Currency.code)
    ledgers = _names(session, LedgerNumber, ledger_ids, LedgerNumber.code)
    return {"expense_types": _table(types), "tags": _table(_names(session, Tag, tag_ids)),
            "partners": _table(partners),
            "currencies": [{"id": k, "name": v[0], "code": v[1]}
                           for k, v in sorted(currencies.items())],
            "ledger_numbers": [{"id": k, "name": v[0], "code": v[1]}
                               for k, v in sorted(ledgers.items())]}


def _table(names: dict) -> list[dict]:
    return [{"id": k, "name": v} for k, v in sorted(names.items())]
