"""The expense list's rows: totals from the assignments, labels, dates and amounts formatted
once in Python."""
from __future__ import annotations

from flask_babel import force_locale

from app.expenses.present import list_rows

EXPENSE = {"id": 12, "filing_number": None, "invoice_number": None, "partner_name": "Kft",
           "issued_at": "2024-03-05", "due_at": "2024-03-10", "currency": 1, "paid_status": 1,
           "accounting_status": "checked", "has_artifact": True, "artifact_extension": "pdf",
           "net_amount": "0", "tags": [5, 77],
           "assignments": [{"expense_type": 4, "net_amount": "1000.40", "vat_amount": "270",
                            "gross_amount": "1270.40"},
                           {"expense_type": 4, "net_amount": "-50", "vat_amount": "0",
                            "gross_amount": "-50"},
                           {"expense_type": 9, "net_amount": "1", "vat_amount": "0",
                            "gross_amount": "1"}]}
LOOKUPS = {"expense_types": {4: "Anyag"}, "tags": {5: "Iroda"}}


def test_an_overdue_row_sums_its_assignments_and_names_its_references(app):
    with app.test_request_context(), force_locale("hu"):
        [row] = list_rows([EXPENSE], {1: "HUF"}, LOOKUPS, today="2024-04-01")
    assert (row.filing, row.invoice_number, row.partner) == ("#12", "—", "Kft")
    assert row.dates == ("2024. 03. 05.", "2024. 03. 10.") and row.overdue
    assert [amount.text for amount in row.amounts] == ["951,40\xa0Ft", "270\xa0Ft",
                                                     "1\xa0221,40\xa0Ft"]
    assert row.types == ["Anyag", "#9"]
    assert row.tags == ["Iroda", "#77"]
    assert row.paid == ("Kifizetetlen", "warn")
    assert row.status == ("Ellenőrzött", "ok")
    assert row.file == ("pdf", "PDF", "Csatolt fájl: PDF")


def test_a_paid_euro_row_without_file_or_state_in_english(app):
    expense = {**EXPENSE, "paid_status": 2, "currency": 2, "has_artifact": False,
               "accounting_status": None, "excluded_from_accounting": True, "tags": [],
               "assignments": [{"expense_type": 4, "net_amount": "-10.5", "vat_amount": "0",
                                "gross_amount": "-10.5"}]}
    with app.test_request_context(), force_locale("en"):
        [row] = list_rows([expense], {2: "EUR"}, LOOKUPS, today="2024-04-01")
    assert not row.overdue and row.excluded
    assert row.file is None and row.status is None
    assert row.amounts[2].text == "-€10.50" and row.amounts[2].negative
    assert row.paid == ("Paid", "ok")


def test_the_row_names_its_checkbox_and_builds_its_date_and_amount_cells(app):
    expense = {**EXPENSE, "filing_number": "K-1 <b>", "paid_status": 2}
    with app.test_request_context(), force_locale("en"):
        [row] = list_rows([expense], {1: "HUF"}, LOOKUPS, today="2024-04-01")
    assert row.select_label == "Select K-1 <b>"
    assert str(row.date_cells) == ('<td class="date">Mar 5, 2024</td>'
                                   '<td class="date">Mar 10, 2024</td>')
    assert str(row.amount_cells).count('<td class="num">') == 3
