"""The edit grid: selected records, each editable as far as its editable_fields allow.

Inputs are named `r-<id>-<field>`. A record synced from an integration takes only tag changes
(spec 4.5): its other fields are shown as text with the reason. Only changed fields are sent;
tags whole, because the upstream replaces them whole.
"""
from __future__ import annotations

from decimal import Decimal

from flask_babel import gettext as _

from app.numbers import to_decimal
from app.taxes import checks
from app.taxes.kinds import TAG_FIELDS, Kind
from app.taxes.labels import MANUAL, source_label
from app.taxes.rows import Row, keep_unchanged, read_row

NAME_FIELDS = ("name", "account_number")


def prefix(record_id) -> str:
    """The input name prefix of a record's row."""
    return f"r-{record_id}-"


def is_synced(record: dict) -> bool:
    """True for a record an integration delivered."""
    return (record.get("source") or MANUAL) != MANUAL


def editable(record: dict, kind: Kind) -> tuple[str, ...]:
    """The grid columns this record accepts, as the upstream's editable_fields say."""
    allowed = record.get("editable_fields")
    if allowed is None:
        allowed = ("tags",) if is_synced(record) else kind.fields
    return tuple(name for name in kind.fields if name in allowed)


def reason(record: dict, kind: Kind) -> str | None:
    """Why some of the record's fields are read-only, or None."""
    if is_synced(record):
        return _("Synced from %(source)s: only its tags can be changed here.",
                 source=source_label(record.get("source")))
    if len(editable(record, kind)) < len(kind.fields):
        return _("The accounting service allows changing only some fields of this record.")
    return None


def stored(record: dict) -> dict:
    """The record's values as the grid parses them (a coded tax has no own name/account)."""
    values = {name: record.get(name) or None for name in
              ("code", "name", "account_number", "description", "tax_number", "due_at")}
    if values["code"]:
        values.update(name=None, account_number=None)
    values["month"] = str(record.get("month") or "")[:7] + "-01"
    values["amount"] = to_decimal(record.get("amount"))
    values["paid_status"] = record.get("paid_status") or 1
    values.update({name: list(record.get(name) or []) for name in TAG_FIELDS})
    return values


def initial(record: dict) -> dict:
    """What the grid's inputs show for a record."""
    values = stored(record)
    raw = {key: "" if value is None else str(value) for key, value in values.items()}
    raw["month"] = values["month"][:7]
    amount = values["amount"]
    if amount is not None:
        raw["amount"] = str(amount.quantize(Decimal(1)) if amount == amount.to_integral()
                            else amount)
    raw.update({name: [str(i) for i in values[name]] for name in TAG_FIELDS})
    return raw


def rows_for(records: list[dict], kind: Kind, form=None) -> list[Row]:
    """One row per record: its stored values, or (with `form`) what was submitted."""
    rows = []
    for record in records:
        fields = editable(record, kind)
        row = (read_row(form, prefix(record["id"]), str(record["id"]), fields) if form
               else Row(str(record["id"]), fields))
        row.raw = {**initial(record), **row.raw}
        row.record, row.stored, row.reason = record, stored(record), reason(record, kind)
        keep_unchanged(row)
        rows.append(row)
    return rows


def check(rows: list[Row], kind: Kind, every_record: list[dict]) -> None:
    """The local rules on the rows that may change more than tags."""
    for row in rows:
        if is_synced(row.record):
            continue
        checks.required(row, ("month", "amount", "tax_number"))
        if set(NAME_FIELDS) & set(row.fields):
            checks.identity(row)
    if kind.is_salary:
        checks.one_per_month(rows, every_record)


def changes(row: Row) -> dict | None:
    """The update item of a row: id plus the changed fields, or None when nothing changed."""
    before, item = row.stored, {}
    for name in (name for name in row.fields if name in row.values):
        new, old = row.values[name], before.get(name)
        if name in TAG_FIELDS:
            if set(new or []) != set(old or []):
                item[name] = new or []
        elif new != old:
            item[name] = str(new) if name == "amount" and new is not None else new
    _one_identity(item, row)
    return {"id": row.record["id"], **item} if item else None


def _one_identity(item: dict, row: Row) -> None:
    # The upstream refuses code together with name or account_number, even as null.
    if row.final("code"):
        for name in NAME_FIELDS:
            item.pop(name, None)
    elif any(item.get(name) for name in NAME_FIELDS):
        item.pop("code", None)

