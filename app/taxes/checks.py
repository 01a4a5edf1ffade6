"""Rules checked before anything is sent (spec 4.5, 8); the upstream checks them again."""
from __future__ import annotations

from flask_babel import gettext as _

from app.identifiers import compact
from app.taxes.rows import Row

IDENTITY = ("name", "account_number")


def required(row: Row, names: tuple[str, ...]) -> None:
    """Each of `names` the row can edit must have a value."""
    for name in names:
        if name in row.fields and row.final(name) in (None, "") and name not in row.errors:
            row.error(name, _("This field is required."))


def identity(row: Row) -> None:
    """A tax code, or a name with an account number: never both kinds, never neither."""
    code = row.final("code")
    named = [name for name in IDENTITY if row.final(name)]
    if code and named:
        row.error("code" if "code" in row.fields else named[0],
                  _("Give either a tax code or a name with a bank account number, not both."))
        return
    if code:
        return
    message = (_("Required when no tax code is given.") if "code" in row.fields
               else _("This field is required."))
    for name in IDENTITY:
        if not row.final(name) and name not in row.errors:
            row.error(name, message)


def one_per_month(rows: list[Row], existing: list[dict]) -> None:
    """Salaries: one tax identification number per payment month, across grid and records."""
    edited = {str(row.record["id"]) for row in rows if row.record}
    taken = {_slot(record.get("month"), record.get("tax_number")): record.get("id")
             for record in existing if str(record.get("id")) not in edited}
    for row in rows:
        if "month" in row.errors or "tax_number" in row.errors:
            continue
        slot = _slot(row.final("month"), row.final("tax_number"))
        if slot[0] and slot[1] and slot in taken:
            row.error("tax_number", _("This tax identification number already has a salary in "
                                      "this payment month."))
        elif slot[0] and slot[1]:
            taken[slot] = row.key


def _slot(month, tax_number) -> tuple[str, str]:
    return str(month or "")[:7], compact(tax_number)
