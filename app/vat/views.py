"""The VAT pages, request to response.

    index      the period's VAT summary; ?cell=... opens the documents behind one cell
    export     the summary as CSV or XLSX (?format=xlsx)
    checklist  the month-end checklist; ?show=unprocessed|no_vat_period lists those expenses
"""
from __future__ import annotations

from types import SimpleNamespace

from flask import abort, g, render_template, request
from flask_babel import pgettext

from app import exports
from app.numbers import company_today
from app.vat import present, service
from app.vat.forms import BadPeriod, parse_cell, parse_month, parse_period

DRILL_DOWNS = ("unprocessed", "no_vat_period")


def _period():
    """The URL's period (None when refused) and the company's period kind."""
    kind = service.company_kind(g.api)
    try:
        return parse_period(request.args.get("period"), kind, company_today()), kind
    except BadPeriod:
        return None, kind


def index():
    """The period's summary, the cell opened (if any), links to the periods around it."""
    period, kind = _period()
    if period is None:
        return render_template("vat/index.html", refused=True, company_kind=kind), 400
    summary = service.summary(g.api, period)
    cell = parse_cell(request.args.get("cell"))
    documents = present.cell_documents(summary, *cell) if cell else []
    return render_template(
        "vat/index.html", refused=False, summary=summary, rows=present.rows(summary),
        period=period, label=present.period_label(period), company_kind=kind,
        kinds=present.KIND_LABELS, kind_words=present.KIND_WORDS, cell=cell, documents=documents,
        cell_label=present.category_label(summary, cell[1]) if cell else "",
        sides=present.SIDES, balance_label=present.balance_label(summary.balance),
        choices={name: service.period_of(name, period.start) for name in service.KINDS})


def export():
    """The summary of the period as a download (CSV, or XLSX with ?format=xlsx)."""
    period, _kind = _period()
    if period is None:
        abort(400)
    summary = service.summary(g.api, period)
    page = SimpleNamespace(items=present.export_rows(summary), lookups={})
    return exports.download(present.export_header(), [page], lambda line, _lookups: line, {},
                            pgettext("file name", "vat-%(period)s", period=period.key))


def checklist():
    """The month's checklist; a drill-down lists the expenses behind one of its counts."""
    try:
        month = parse_month(request.args.get("month"), company_today())
    except BadPeriod:
        return render_template("vat/checklist.html", refused=True), 400
    found = service.month_end(g.api, month)
    show = request.args.get("show")
    records = found.get(show) if show in DRILL_DOWNS else None
    listed = present.expense_rows(records, found["codes"]) if records is not None else None
    return render_template(
        "vat/checklist.html", refused=False, month=month, items=present.checklist(found, month),
        label=present.period_label(month), show=show, listed=listed,
        show_label=str(present.CHECK_LABELS.get(show, "")),
        previous=month.shifted(-1), following=month.shifted(1))
