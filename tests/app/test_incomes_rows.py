"""The income list's rows: labels, dates and amounts formatted once in Python."""
from __future__ import annotations

from flask_babel import force_locale

from app.incomes.present import list_rows

STORNO = {"id": 7, "invoice_number": "STORNO-1", "invoice_type": 1,
          "referred_invoice_number": "BIZ-1", "type": 2, "partner_name": None,
          "issued_at": "2024-03-05", "fulfilled_at": "2024-03-05", "due_at": "2024-03-10",
          "net_amount": "-1000.00", "vat_amount": "-270.00", "gross_amount": "-1270.00",
          "currency": 1, "paid_status": 1, "needs_review": True, "review_done": False,
          "tags": [3, 99]}


def test_a_storno_row_is_negative_overdue_and_waiting_for_review(app):
    with app.test_request_context(), force_locale("hu"):
        [row] = list_rows([STORNO], {1: "HUF"}, {3: "Budapest"}, today="2024-04-01")
    assert row.storno_of == "BIZ-1" and row.partner == "—"
    assert row.dates == ("2024. 03. 05.", "2024. 03. 05.", "2024. 03. 10.") and row.overdue
    assert row.amounts[2].text == "-1\xa0270\xa0Ft" and row.amounts[2].negative
    assert row.paid == ("Kifizetetlen", "warn")
    assert row.review == ("Ellenőrizendő", "attention")
    assert row.tags == ["Budapest", "#99"]


def test_a_paid_euro_row_in_english_keeps_cents_and_is_not_overdue(app):
    income = {**STORNO, "invoice_type": 0, "paid_status": 2, "currency": 2,
              "gross_amount": "645.3", "review_done": True, "tags": []}
    with app.test_request_context(), force_locale("en"):
        [row] = list_rows([income], {2: "EUR"}, {}, today="2024-04-01")
    assert row.storno_of is None and not row.overdue
    assert row.amounts[2].text == "€645.30" and not row.amounts[2].negative
    assert row.paid == ("Paid", "ok") and row.review == ("Reviewed", "ok")


def test_the_row_cells_carry_the_overdue_mark_and_the_negative_amounts(app):
    with app.test_request_context(), force_locale("hu"):
        [row] = list_rows([STORNO], {1: "HUF"}, {}, today="2024-04-01")
    assert str(row.date_cells) + str(row.amount_cells) == (
        '<td class="date">2024. 03. 05.</td><td class="date">2024. 03. 05.</td>'
        '<td class="date is-overdue">2024. 03. 10.<span class="overdue-mark" title="Lejárt">'
        '<span class="visually-hidden">Lejárt</span></span></td>'
        '<td class="num is-negative">-1\xa0000\xa0Ft</td>'
        '<td class="num is-negative">-270\xa0Ft</td>'
        '<td class="num is-negative">-1\xa0270\xa0Ft</td>')
