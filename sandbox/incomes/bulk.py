"""Bulk writing of incomes through SQLAlchemy Core (demo seed and the scale benchmark).

Ids are assigned up front so one executemany per table stores everything; rows follow the same
rules as the API (totals from the items, payments decide paid_status, cancellation leaves one
zero-amount payment).
"""
from __future__ import annotations

from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from operator import itemgetter

from sqlalchemy import Table, func, select
from sqlalchemy.orm import Session

from sandbox.catalog.model import Currency
from sandbox.incomes.model import (
    Income,
    IncomeAssignment,
    IncomeItem,
    IncomePayment,
    assignment_tag,
    income_simple_tag,
    income_tag,
)

CENT, FORINT = Decimal("0.01"), Decimal(1)
TABLES: tuple[Table, ...] = (Income.__table__, IncomeItem.__table__, IncomeAssignment.__table__,
                             IncomePayment.__table__, income_tag, income_simple_tag,
                             assignment_tag)


def _defaults(table: Table) -> dict:
    return {col.name: None if col.default is None or col.default.is_callable
            else col.default.arg for col in table.columns}


class IncomeWriter:
    """Collects income rows with their children, then inserts them table by table."""

    def __init__(self, session: Session):
        self.session = session
        self.rows: dict[str, list[dict]] = {t.name: [] for t in TABLES}
        self.defaults = {t.name: _defaults(t) for t in TABLES}
        self.next_id = {t.name: (session.scalar(select(func.max(t.c.id))) or 0) + 1
                        for t in TABLES if "id" in t.c}
        self.forint_ids = set(session.scalars(select(Currency.id).where(Currency.code == "HUF")))

    def _add(self, table: str, **values) -> int | None:
        row = {**self.defaults[table], **values}
        if table in self.next_id:
            row["id"] = self.next_id[table]
            self.next_id[table] += 1
        self.rows[table].append(row)
        return row.get("id")

    def add(self, header: dict, items: list[tuple[str, Decimal, Decimal, float]],
            splits: list[dict], payments: list[tuple[date, Decimal]],
            tags: tuple = (), simple_tags: tuple = ()) -> int:
        """One income: items (name, quantity, unit price, vat %), assignment splits (share of
        the items plus revenue_type_id, vat_id, tags...), payments (date, amount)."""
        lines = [self._line(*item, unit=self.vat_unit(header)) for item in items]
        net, vat = sum(li[0] for li in lines), sum(li[1] for li in lines)
        paid = sum((amount for _, amount in payments), Decimal(0))
        gross = net + vat
        header = {"net_amount": net, "vat_amount": vat, "gross_amount": gross,
                  "paid_amount": paid, "paid_status": _paid_status(header, paid, gross),
                  **header}
        income_id = self._add("income", **header)
        for position, ((name, qty, price, pct), (n, v)) in enumerate(zip(items, lines,
                                                                         strict=True)):
            self._add("income_item", income_id=income_id, position=position, name=name,
                      quantity=qty, unit_price=price, net_amount=n, vat_amount=v,
                      gross_amount=n + v, vat_percent=pct, unit="db")
        self._splits(income_id, splits, lines)
        for paid_at, amount in payments:
            self._add("income_payment", income_id=income_id, paid_at=paid_at, amount=amount,
                      method="cancel" if header.get("is_cancelled") else "transfer")
        self.rows["income_tag"] += [{"income_id": income_id, "tag_id": t} for t in tags]
        self.rows["income_simple_tag"] += [{"income_id": income_id, "tag_id": t}
                                           for t in simple_tags]
        return income_id

    def vat_unit(self, header: dict) -> Decimal:
        """What a line's VAT is rounded to: whole forints, as Hungarian invoices state it; cents
        in other currencies."""
        return FORINT if header.get("currency_id") in self.forint_ids else CENT

    def gross_of(self, header: dict, items: list[tuple]) -> Decimal:
        """The gross total the given items of an income with this header add up to."""
        unit = self.vat_unit(header)
        return sum((sum(self._line(*item, unit=unit)) for item in items), Decimal(0))

    @staticmethod
    def _line(name: str, qty: Decimal, price: Decimal, pct: float, *,
              unit: Decimal) -> tuple[Decimal, Decimal]:
        net = (qty * price).quantize(CENT)
        return net, (net * Decimal(str(pct)) / 100).quantize(unit, rounding=ROUND_HALF_UP)

    def _splits(self, income_id: int, splits: list[dict], lines: list) -> None:
        share = max(1, len(lines) // len(splits))
        for position, split in enumerate(splits):
            chunk = lines[position * share:] if position == len(splits) - 1 \
                else lines[position * share:(position + 1) * share]
            net, vat = sum(c[0] for c in chunk), sum(c[1] for c in chunk)
            tags = split.pop("tags", ())
            row_id = self._add("income_assignment", income_id=income_id, position=position,
                               net_amount=net, vat_amount=vat, gross_amount=net + vat, **split)
            self.rows["income_assignment_tag"] += [{"assignment_id": row_id, "tag_id": t}
                                                   for t in tags]

    def flush(self) -> int:
        """Insert every collected row; returns the number of incomes written."""
        connection = self.session.connection()
        for table in TABLES:
            rows = self.rows[table.name]
            if rows:
                # Plain DBAPI executemany: SQLAlchemy's per-row parameter processing would cost
                # more than the insert itself at benchmark scale.
                names = [c.name for c in table.columns]
                sql = (f"INSERT INTO {table.name} ({', '.join(names)}) "  # noqa: S608
                       f"VALUES ({', '.join('?' * len(names))})")
                connection.exec_driver_sql(sql, _plain_rows(table, rows))
            rows.clear()
        return self.next_id["income"] - 1


def _plain_rows(table: Table, rows: list[dict]) -> list[tuple]:
    """Rows as SQLAlchemy would bind them for SQLite: amounts as floats, dates as ISO text."""
    names = [c.name for c in table.columns]
    convert = [(i, CONVERT[type(c.type).__name__]) for i, c in enumerate(table.columns)
               if type(c.type).__name__ in CONVERT]
    out = []
    for values in map(list, map(itemgetter(*names), rows)):
        for index, func_ in convert:
            if values[index] is not None:
                values[index] = func_(values[index])
        out.append(tuple(values))
    return out


CONVERT = {"Numeric": float, "Date": date.isoformat,
           "DateTime": lambda v: v.strftime("%Y-%m-%d %H:%M:%S.%f")}


def _paid_status(header: dict, paid: Decimal, gross: Decimal) -> int:
    if header.get("is_cancelled") or abs(paid) >= abs(gross):
        return 2
    return 3 if paid else 1


def stamp(day: date, rng) -> datetime:
    """A creation timestamp on a given day (office hours)."""
    return datetime(day.year, day.month, day.day, rng.randint(8, 17), rng.randint(0, 59),
                    rng.randint(0, 59))
