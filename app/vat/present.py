"""What the VAT pages show: the period's words, the summary's rows (per side and VAT category,
with totals and the balance), the documents behind a cell, the export's rows and the month-end
checklist's items."""
from __future__ import annotations

from decimal import Decimal

from babel.dates import format_skeleton
from flask import url_for
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l

from app import exports
from app.numbers import format_percent, to_decimal
from app.totals import expense_amounts
from app.vat.service import (
    EXPENSES,
    INCOMES,
    MONTHLY,
    NO_CATEGORY,
    QUARTERLY,
    Period,
    Summary,
    review_args,
)

SIDES = {INCOMES: _l("Incomes"), EXPENSES: _l("Expenses")}
KIND_LABELS = {MONTHLY: _l("Monthly"), QUARTERLY: _l("Quarterly"), "yearly": _l("Yearly")}
# The kind inside a sentence: Hungarian writes it in lower case there.
KIND_WORDS = {MONTHLY: _l("monthly"), QUARTERLY: _l("quarterly"), "yearly": _l("yearly")}


def period_label(period: Period) -> str:
    """"March 2026" / "2026 Q1" / "2026", in the page's language."""
    if period.kind == MONTHLY:
        return format_skeleton("yMMMM", period.start, locale=get_locale())
    if period.kind == QUARTERLY:
        return format_skeleton("yQQQ", period.start, locale=get_locale())
    return str(period.start.year)


def category_label(summary: Summary, key: str) -> str:
    """A VAT category's name with its percent; "No VAT category" for none."""
    if key == NO_CATEGORY:
        return str(_l("No VAT category"))
    entry = summary.categories.get(key)
    if entry is None:
        return str(_l("VAT category %(id)s", id=key))
    percent = to_decimal(entry.get("percent"))
    name = str(entry.get("name") or "")
    if percent is None or f"{percent.normalize():f}" in name.replace(",", "."):
        return name  # the name already says its percent ("27%")
    return f"{name} ({format_percent(percent)})"


def rows(summary: Summary) -> list[dict]:
    """One row per side and category, each side closed by its total row."""
    found = []
    for side in (INCOMES, EXPENSES):
        for cell in summary.side(side):
            found.append({"side": side, "key": cell.vat_id, "label":
                          category_label(summary, cell.vat_id), "net": cell.net,
                          "vat": cell.vat, "gross": cell.gross,
                          "count": len(cell.documents), "total": False})
        total = summary.total(side)
        found.append({"side": side, "key": "", "label": str(_l("Total")), "net": total.net,
                      "vat": total.vat, "gross": total.gross, "count": None, "total": True})
    return found


def balance_label(balance: Decimal) -> str:
    """"VAT payable" or "VAT reclaimable" (nothing either way counts as payable)."""
    return str(_l("VAT reclaimable") if balance < 0 else _l("VAT payable"))


def cell_documents(summary: Summary, side: str, key: str) -> list[dict]:
    """The documents that make up a cell: number, partner, day, their net and VAT in it."""
    cell = summary.cells.get((side, key))
    if cell is None:
        return []
    endpoint = "incomes.detail" if side == INCOMES else "expenses.detail"
    arg = "income_id" if side == INCOMES else "expense_id"
    return [{"id": doc_id, "number": record.get("invoice_number") or "",
             "partner": record.get("partner_name") or "",
             "fulfilled_at": exports.day(record.get("fulfilled_at")), "net": net, "vat": vat,
             "url": url_for(endpoint, **{arg: doc_id})}
            for doc_id, (record, net, vat) in sorted(cell.documents.items(),
                                                     key=lambda item: str(item[0]))]


def export_header() -> list[str]:
    """The export's column headings, in the page's language."""
    return [str(_l("Period")), str(_l("Side")), str(_l("VAT category")),
            str(_l("Net amount")), str(_l("VAT amount")), str(_l("Gross amount")),
            str(_l("Records"))]


def export_rows(summary: Summary) -> list[list]:
    """The summary as export rows: numbers as number cells, the balance last."""
    key = summary.period.key
    lines = [[key, str(SIDES[row["side"]]), row["label"], _money(row["net"]),
              _money(row["vat"]), _money(row["gross"]),
              Decimal(row["count"]) if row["count"] is not None else None]
             for row in rows(summary)]
    lines.append([key, "", balance_label(summary.balance), None, _money(summary.balance),
                  None, None])
    return lines


def _money(value: Decimal | None) -> Decimal | None:
    # A sum may carry more trailing zeros than its places: the same number, two places at least.
    return exports.amount(value.normalize()) if value is not None else None


CHECK_LABELS = {
    "review": _l("Incomes in the review queue fulfilled by the month's end"),
    "unprocessed": _l("Unprocessed expenses fulfilled by the month's end or not dated yet"),
    "no_vat_period": _l("Expenses of the month without a VAT period"),
    "taxes": _l("Taxes recorded for the month"),
    "salaries": _l("Salaries recorded for the month"),
}


def checklist(found: dict, month: Period) -> list[dict]:
    """The checklist's items: label, count, whether it needs doing, and the list's link."""
    key = month.key
    months = {"from": key, "to": key}
    items = [("review", found["review"], url_for("review.index", **review_args(month))),
             ("unprocessed", len(found["unprocessed"]),
              url_for("vat.checklist", month=key, show="unprocessed")),
             ("no_vat_period", _count(found["no_vat_period"]),
              url_for("vat.checklist", month=key, show="no_vat_period")),
             ("taxes", len(found["taxes"]), url_for("taxes.index", **months)),
             ("salaries", len(found["salaries"]), url_for("salaries.index", **months))]
    return [{"name": name, "label": str(CHECK_LABELS[name]), "count": count, "url": url,
             "todo": (count == 0) if name in ("taxes", "salaries") else count > 0}
            for name, count, url in items if count is not None]


def _count(records: list | None) -> int | None:
    return None if records is None else len(records)


def expense_rows(records: list[dict], codes: dict) -> list[dict]:
    """The checklist's drill-down: one row per expense with its link, its gross as the expense
    list shows it (summed over its assignments) in its currency."""
    return [{"id": record.get("id"), "number": record.get("invoice_number") or "",
             "partner": record.get("partner_name") or "",
             "fulfilled_at": exports.day(record.get("fulfilled_at")),
             "gross": expense_amounts(record)["gross_amount"],
             "currency": codes.get(record.get("currency")),
             "url": url_for("expenses.detail", expense_id=record.get("id"))}
            for record in records]
