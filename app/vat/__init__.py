"""VAT and month-end: the VAT summary of a period (net and VAT by VAT category for incomes and
expenses, VAT payable or reclaimable, the documents behind each cell, CSV and XLSX exports) and
the month-end checklist (URLs under /c/<company_id>/vat/).

The checklist lives here rather than on the dashboard: it is the work of closing a VAT period
(documents without a VAT period, unprocessed expenses, the month's taxes and salaries), and it
is read for a chosen month, like the summary, not for today.

Modules: views (request -> response), forms (the URL's period, cell and month), service (the
periods, the reads and the sums), present (rows, labels, export rows, checklist items).
"""
from __future__ import annotations

from app.auth import company_blueprint
from app.vat import views

ROUTES = (
    ("/", "index", views.index, ["GET"]),
    ("/export", "export", views.export, ["GET"]),
    ("/month-end", "checklist", views.checklist, ["GET"]),
)
bp = company_blueprint("vat", __name__, url_prefix="/vat", routes=ROUTES)
