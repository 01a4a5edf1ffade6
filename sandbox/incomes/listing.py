"""The records of one GET /1/incomes page, read with one Core query per table (no ORM objects,
no per-row queries): incomes, assignments, items, tag links, then the lookup tables."""
from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select

from sandbox.catalog.model import VatCategory
from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.incomes.model import (
    Income,
    IncomeAssignment,
    IncomeItem,
    assignment_tag,
    income_simple_tag,
    income_tag,
)
from sandbox.incomes.serialize import (
    ID_VALUES,
    assignment_json,
    by_id,
    header_json,
    ids_param,
    item_json,
    lookup_tables,
)

INCOME = Income.__table__
ASSIGNMENT = IncomeAssignment.__table__
ITEM = IncomeItem.__table__


def list_results(ids: list[int], company: Company) -> dict:
    """The nested `results` object: incomes (in page order) plus lookup tables."""
    stmt = select(INCOME).where(INCOME.c.id.in_(ID_VALUES))
    rows = {r.id: r for r in db().execute(stmt, ids_param(ids)).all()}
    incomes = [rows[i] for i in ids]
    assignments = _grouped(ASSIGNMENT, ids, ASSIGNMENT.c.position)
    parts = [a for rows_ in assignments.values() for a in rows_]
    part_tags = _links(assignment_tag, "assignment_id", [a.id for a in parts])
    tags, simple = _links(income_tag, "income_id", ids), _links(income_simple_tag, "income_id",
                                                                   ids)
    refs = _referenced(incomes, parts, tags, simple, part_tags)
    vats = by_id(VatCategory, refs["vat"], company)
    items = _grouped(ITEM, ids, ITEM.c.position)
    records = [_record(r, assignments[r.id], items[r.id], tags[r.id], simple[r.id], part_tags,
                       vats) for r in incomes]
    return {"incomes": records, **lookup_tables(refs, vats, company)}


def _record(row, assignments, items, tags, simple, part_tags, vats) -> dict:
    data = header_json(row)
    data.update(tags=tags, simple_tags=simple,
                assignments=[assignment_json(a, vats, part_tags[a.id]) for a in assignments],
                items=[item_json(item) for item in items])
    return data


def _grouped(table, ids: list[int], position) -> dict[int, list]:
    grouped: dict[int, list] = defaultdict(list)
    stmt = select(table).where(table.c.income_id.in_(ID_VALUES)).order_by(
        table.c.income_id, position)
    for row in db().execute(stmt, ids_param(ids)).all():
        grouped[row.income_id].append(row)
    return grouped


def _links(table, key: str, ids: list[int]) -> dict[int, list[int]]:
    links: dict[int, list[int]] = defaultdict(list)
    if ids:
        owner = table.c[key]
        stmt = select(owner, table.c.tag_id).where(owner.in_(ID_VALUES)).order_by(
            table.c.tag_id)
        for owner_id, tag_id in db().execute(stmt, ids_param(ids)).all():
            links[owner_id].append(tag_id)
    return links


def _referenced(incomes, parts, tags, simple, part_tags) -> dict[str, set[int]]:
    refs = {"partner": {r.partner_id for r in incomes},
            "currency": {r.currency_id for r in incomes},
            "ledger": {r.ledger_number_id for r in incomes}
            | {a.ledger_number_id for a in parts} | {a.vat_ledger_number_id for a in parts},
            "revenue_type": {a.revenue_type_id for a in parts},
            "vat": {a.vat_id for a in parts} | {a.company_vat_category_id for a in parts},
            "tag": {t for links in (tags, simple, part_tags) for ids in links.values()
                    for t in ids}}
    return {key: {i for i in values if i is not None} for key, values in refs.items()}
