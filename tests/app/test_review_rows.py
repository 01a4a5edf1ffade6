"""The review queue's rows: why each income waits, its bulk fingerprint and its cells, worked
out once in Python."""
from __future__ import annotations

from flask_babel import force_locale

from app.review import forms
from app.review.present import Context, queue_rows

INCOME = {"id": 31, "invoice_number": None, "type": 7, "partner_name": None,
          "issued_at": "2024-03-05", "gross_amount": "-1270.40", "currency": 1, "tags": [],
          "needs_review": True, "review_done": False,
          "assignments": [{"revenue_type": None, "gross_amount": "-1270.40", "tags": []}]}


def test_a_row_names_its_reasons_and_carries_the_fingerprint(app):
    with app.test_request_context(), force_locale("hu"):
        [row] = queue_rows([INCOME], Context(None, {1: "HUF"}), {1: "HUF"}, {})
    assert row.number == "#31" and row.select_label == "#31 kijelölése"
    assert row.fingerprint == forms.fingerprint(INCOME)
    assert row.issued == "2024. 03. 05." and row.partner == "—"
    assert row.gross.text == "-1\xa0270,40\xa0Ft" and row.gross.negative
    assert [(tone, label) for tone, label, _detail in row.reasons] == [
        ("danger", "Nincs bevételtípus"), ("muted", "Nincs címke")]


def test_tags_and_english_labels(app):
    income = {**INCOME, "invoice_number": "GY-1", "tags": [4, 8], "currency": 2,
              "gross_amount": "12.5",
              "assignments": [{"revenue_type": 3, "gross_amount": "12.5", "tags": []}]}
    with app.test_request_context(), force_locale("en"):
        [row] = queue_rows([income], Context(None, {}), {2: "EUR"}, {4: "Office"})
    assert row.select_label == "Select GY-1" and row.kind == "Collective receipt"
    assert row.tags == ["Office", "#8"] and row.gross.text == "€12.50"
    assert [label for _tone, label, _detail in row.reasons] == ["Flagged for review"]


def test_the_policies_are_validated_once_per_page_not_per_row(app, monkeypatch):
    import app.review.present as reasons_module

    checked = []
    real = reasons_module.ensure_valid
    monkeypatch.setattr(reasons_module, "ensure_valid", lambda config: checked.append(1) or
                        real(config))
    policies = {"v": 2, "policies": [
        {"name": "Mind", "conditions": [{"field": "gross_amount", "op": "gt", "value": -10000}],
         "set": {"revenue_type": 3}},
        {"name": "Negatív", "conditions": [{"field": "gross_amount", "op": "lt", "value": 0}],
         "set": {"revenue_type": 3}}]}
    incomes = [{**INCOME, "id": n} for n in range(1, 6)]
    with app.test_request_context(), force_locale("en"):
        rows = queue_rows(incomes, Context(policies, {1: "HUF"}), {1: "HUF"}, {})
    assert len(checked) == 1
    assert all(("warn", "Several policies match", "Mind, Negatív") in row.reasons
               for row in rows)
