"""Finding what a create grid with a lost answer stored (app.once.Recovery).

The upstream stores a grid's rows in one transaction, so either every row sent is in the
listing or none is: the rows are matched one to one (month, amount, code or name and account
number, description, and the tax number for salaries) and anything short of all of them counts
as not created. A record typed identically before the send cannot be told apart from one the
lost send made.
"""
from __future__ import annotations

import calendar
from datetime import date

from app.identifiers import compact
from app.numbers import to_decimal
from app.taxes import upstream
from app.taxes.kinds import Kind
from app.upstream import ValidationError

MATCHED = ("code", "name", "account_number", "description", "tax_number")


def all_stored(api, kind: Kind, items: list[dict]) -> bool:
    """Tell whether every item sent is in the listing of its months, each record used once."""
    months = sorted(str(item["month"])[:7] for item in items)
    first = date.fromisoformat(months[0] + "-01")
    last = date.fromisoformat(months[-1] + "-01")
    last = last.replace(day=calendar.monthrange(last.year, last.month)[1])
    body = upstream.listing(api, kind, {"from_date": first.isoformat(),
                                        "to_date": last.isoformat()})
    left = upstream.records(body, kind)
    for item in items:
        hit = next((record for record in left if _same(item, record)), None)
        if hit is None:
            return False
        left.remove(hit)
    return True


def every_row_exists(exc: ValidationError, count: int) -> bool:
    """Tell whether a refused resend names an existing salary for each of its rows."""
    body = exc.body if isinstance(exc.body, list) else [exc.extra]
    return len(body) == count and all(
        isinstance(item, dict) and item.get("existing_salary_id") for item in body)


def _same(item: dict, record: dict) -> bool:
    if str(record.get("month") or "")[:7] != str(item["month"])[:7]:
        return False
    if to_decimal(record.get("amount")) != to_decimal(item.get("amount")):
        return False
    # With a code the API fills in the name and account number itself.
    keys = [k for k in MATCHED if k in item and not (item.get("code") and k in ("name",
                                                                              "account_number"))]
    return all(_text(k, record.get(k)) == _text(k, item.get(k)) for k in keys)


def _text(key: str, value) -> str:
    text = str(value or "").strip()
    return compact(text) if key in ("tax_number", "account_number") else text
