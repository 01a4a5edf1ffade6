"""app.forms without the network: registry kinds, building, diffing, rules, upstream errors."""
from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.forms import (
    EXPENSE_ASSIGNMENT_FIELDS,
    EXPENSE_FIELDS,
    build_edit_form,
    build_new_form,
    readonly_reason,
    spec_for,
)
from app.forms.display import lock_summary
from app.forms.registry import KINDS, currency_code
from app.numbers import format_number
from app.upstream import ValidationError

CATALOGS = {
    "currencies": [{"id": 1, "code": "HUF"}, {"id": 2, "code": "EUR"}],
    "tags": [{"id": 1, "name": "Budapest"}, {"id": 2, "name": "Debrecen"}],
    "revenue_types": [{"id": 1, "name": "Árbevétel"}, {"id": 2, "name": "Szolgáltatás"}],
    "expense_types": [{"id": 5, "name": "Anyag"}],
    "vat_categories": [{"id": 1, "name": "27%", "type": "revenue"},
                       {"id": 2, "name": "27%", "type": "cost"}],
    "ledger_numbers": [{"id": 1, "name": "Belföldi", "code": "911"}],
}
COMPANY = {"default_currency_name": "HUF", "enable_accounting_id": False,
           "enable_vat_period": True, "advanced_accounting": False}


def record(**extra) -> dict:
    """An income detail record shaped like the API's."""
    data = {"id": 7, "type": 2, "source": "manual", "accounting_status": "not_processed",
            "invoice_number": "B-1", "note": "old", "issued_at": "2025-03-05",
            "net_amount": "1000.00", "gross_amount": "1270.00", "vat_amount": "270.00",
            "currency": {"id": 1, "code": "HUF"}, "exchange_rate": "1.000000",
            "tags": [{"id": 1, "name": "Budapest"}], "accounting_period_start": "2025-01-01",
            "accounting_period_end": "2025-03-31", "vat_period_type": None,
            "vat_period_started_at": None,
            "assignments": [{"id": 3, "revenue_type": {"id": 1, "name": "Árbevétel"},
                             "net_amount": "1000.00", "vat_amount": "270.00",
                             "gross_amount": "1270.00", "vat": None, "tags": []}],
            "editable_fields": ["note", "tags", "issued_at", "currency", "exchange_rate",
                                "accounting_period_start", "accounting_period_end",
                                "vat_period_type", "vat_period_started_at", "assignments",
                                "assignments.revenue_type", "assignments.net_amount",
                                "assignments.vat_amount", "assignments.gross_amount",
                                "assignments.tags"]}
    data.update(extra)
    return data


@pytest.fixture
def nocsrf(app):
    """The app without CSRF (these tests post straight into request contexts)."""
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def submitted(app, rec: dict, changes: dict, drop=()) -> tuple:
    """Render the edit form, then post it back with some values changed."""
    with app.test_request_context("/", method="GET"):
        rendered = build_edit_form(rec, CATALOGS, company=COMPANY)
        data = {name: field._value() if hasattr(field, "_value") else field.data
                for name, field in rendered._fields.items()
                if name in rendered.layout.editable or name == "base_state"}
        data.update({"assignments-rows": "1", "assignments-0-id": "3",
                     "assignments-0-revenue_type": "1", "assignments-0-net_amount": "1000",
                     "assignments-0-vat_amount": "270", "assignments-0-gross_amount": "1270",
                     "assignments-0-tags": ""})
        data["tags"] = ["1", ""]
    data.update(changes)
    for name in drop:
        data.pop(name, None)
    context = app.test_request_context("/", method="POST", data=data)
    context.push()
    form = build_edit_form(rec, CATALOGS, company=COMPANY)
    ok = form.check()
    return form, ok, context


@pytest.mark.parametrize(("kind", "text", "value"), [
    ("amount", "1 234,50", Decimal("1234.50")), ("amount", "1234.50", Decimal("1234.50")),
    ("amount", "1.234,50", Decimal("1234.50")), ("rate", "392,15", Decimal("392.15")),
    ("date", "2024.03.05.", date(2024, 3, 5)), ("date", "2024-03-05", date(2024, 3, 5)),
    ("ref", "12", 12), ("refs", ["3", "", "4"], [3, 4]), ("bool", "y", True),
    ("text", "  a\r\nb ", "a\nb"),
])
def test_kinds_read_hungarian_and_english_input(kind, text, value):
    assert KINDS[kind].parse(text) == value


def test_kinds_read_ids_and_reference_objects_alike():
    assert KINDS["ref"].load({"id": 4, "name": "x"}) == KINDS["ref"].load(4) == 4
    assert KINDS["refs"].load([{"id": 1}, 2]) == [1, 2]
    assert KINDS["refs"].same([1, 2], [2, 1])


def test_bad_input_raises_a_user_message():
    with pytest.raises(ValueError, match="amount"):
        KINDS["amount"].parse("12a")
    with pytest.raises(ValueError, match="decimal places"):
        KINDS["rate"].parse("395.1234567")
    with pytest.raises(ValueError, match="date"):
        KINDS["date"].parse("2024-02-31")


@settings(max_examples=200)
@given(st.decimals(min_value=Decimal("-99999999.999999"), max_value=Decimal("99999999.999999"),
                   places=6))
def test_a_typed_rate_is_read_exactly_when_above_zero_and_refused_otherwise(rate):
    text = format_number(rate, "hu", grouping=False)  # outside a request the page is Hungarian
    if rate > 0:
        assert KINDS["rate"].parse(text) == rate
    else:
        with pytest.raises(ValueError, match="greater than 0"):
            KINDS["rate"].parse(text)


def test_editable_fields_are_inputs_and_the_rest_read_only(nocsrf):
    with nocsrf.test_request_context("/"):
        form = build_edit_form(record(), CATALOGS, company=COMPANY)
        views = {v.spec.name: v for _h, group in form.sections() for v in group}
    assert not views["note"].readonly and views["invoice_number"].readonly
    assert views["net_amount"].display == "1\xa0000\xa0Ft" or "1" in views["net_amount"].display
    assert "accounting_id" not in views
    assert form.table().fixed is False


def test_reasons_follow_the_record_and_the_settings(nocsrf):
    with nocsrf.test_request_context("/"):
        assert "Booked" in readonly_reason({"accounting_status": "booked"}, "note")
        assert "Processed" in readonly_reason({"accounting_status": "processed"}, "note")
        assert "Számlázz.hu" in readonly_reason({"source": "szamlazz.hu"}, "note")
        assert "company settings" in readonly_reason({}, "accounting_id", COMPANY)
        assert "advanced" in readonly_reason({}, "vat_ledger_number_id", COMPANY)


def test_only_changes_are_sent_and_a_pair_travels_together(nocsrf):
    form, ok, ctx = submitted(nocsrf, record(), {"accounting_period_end": "2025-06-30",
                                                 "note": "old"})
    try:
        assert ok
        assert form.changes() == {"accounting_period_end": "2025-06-30",
                                  "accounting_period_start": "2025-01-01"}
    finally:
        ctx.pop()


def test_a_posted_field_outside_editable_fields_is_ignored(nocsrf):
    form, ok, ctx = submitted(nocsrf, record(), {"invoice_number": "HACK", "net_amount": "1",
                                                 "is_cancelled": "y"})
    try:
        assert ok and form.changes() == {}
    finally:
        ctx.pop()


def test_a_field_left_out_of_the_post_is_unchanged(nocsrf):
    form, ok, ctx = submitted(nocsrf, record(), {}, drop=("note", "tags", "issued_at"))
    try:
        assert ok and form.changes() == {}
    finally:
        ctx.pop()


def test_tags_and_assignments_are_sent_whole(nocsrf):
    form, ok, ctx = submitted(nocsrf, record(), {"tags": ["1", "2", ""],
                                                 "assignments-0-revenue_type": "2"})
    try:
        body = form.changes()
        assert body["tags"] == [1, 2]
        assert body["assignments"] == [{"id": 3, "revenue_type": 2, "net_amount": "1000.00",
                                        "vat_amount": "270.00", "gross_amount": "1270.00",
                                        "tags": []}]
    finally:
        ctx.pop()


def test_rules_stop_a_half_pair_a_reversed_period_and_a_rateless_currency(nocsrf):
    form, ok, ctx = submitted(nocsrf, record(), {
        "vat_period_type": "monthly", "accounting_period_start": "2025-05-01",
        "accounting_period_end": "2025-04-01", "currency": "2", "exchange_rate": "1"})
    try:
        assert not ok
        assert form["vat_period_started_at"].errors == [
            "“VAT period” is filled in: fill this in as well, or leave both empty."]
        assert form["accounting_period_start"].errors
        assert form["exchange_rate"].errors
    finally:
        ctx.pop()


def test_upstream_errors_go_to_fields_cells_and_the_top(nocsrf):
    form, ok, ctx = submitted(nocsrf, record(), {"note": "new"})
    try:
        form.apply_upstream(ValidationError(
            field_errors={"note": ["Too long."], "assignments.0.revenue_type": ["Bad."],
                          "invoice_number": ["Taken."]}, non_field_errors=["General."]))
        # Texts Bookdesk does not know keep a translated lead-in (upstream_text).
        lead = "The accounting service did not accept this: "
        assert form["note"].errors == [lead + "Too long."]
        assert form["assignments"].entries[0]["revenue_type"].errors == [lead + "Bad."]
        assert lead + "General." in form.form_errors
        assert any("Taken." in message for message in form.form_errors)
        assert form.has_errors()
    finally:
        ctx.pop()


def test_expense_records_build_with_cost_vat_choices(nocsrf):
    expense = {"id": 1, "invoice_number": "E-1", "partner": {"id": 4, "name": "Szállító Kft."},
               "currency": {"id": 1, "code": "HUF"}, "note": None, "tags": [],
               "assignments": [{"id": 9, "expense_type": {"id": 5, "name": "Anyag"},
                                "net_amount": "10.00", "gross_amount": "12.70", "vat": None}],
               "editable_fields": ["note", "partner", "assignments", "assignments.expense_type",
                                   "assignments.vat", "assignments.net_amount",
                                   "assignments.gross_amount"]}
    with nocsrf.test_request_context("/"):
        form = build_edit_form(expense, CATALOGS, company=COMPANY, fields=EXPENSE_FIELDS,
                               assignment_fields=EXPENSE_ASSIGNMENT_FIELDS)
        vat_choices = [c.value for c in form["assignments"].entries[0]["vat"].choices]
        partner_choices = [c.value for c in form["partner"].choices]
    assert vat_choices == ["", "2"]
    assert partner_choices == ["", "4"]


def test_a_reduced_record_has_fixed_assignment_rows(nocsrf):
    rec = record(editable_fields=["tags", "assignments", "assignments.revenue_type"])
    with nocsrf.test_request_context("/"):
        form = build_edit_form(rec, CATALOGS, company=COMPANY)
        assert form.table().fixed and form.template_row() is None


def test_a_create_form_sends_every_filled_field_and_its_rows(nocsrf):
    data = {"invoice_number": "N-1", "currency": "1", "assignments-rows": "1",
            "assignments-0-revenue_type": "1", "assignments-0-net_amount": "10",
            "assignments-0-gross_amount": "12,70", "assignments-0-tags": ""}
    with nocsrf.test_request_context("/", method="POST", data=data):
        form = build_new_form(CATALOGS, company=COMPANY,
                              fields=("invoice_number", "currency", "note"))
        assert form.check()
        assert form.create_payload() == {
            "invoice_number": "N-1", "currency": 1,
            "assignments": [{"revenue_type": 1, "net_amount": "10.00", "gross_amount": "12.70",
                             "vat": None, "tags": [], "job_number": None,
                             "ledger_number_id": None}]}


def test_the_snapshot_is_json_and_registry_specs_can_vary():
    assert json.loads(json.dumps({"a": 1}))
    vat = [f for f in EXPENSE_ASSIGNMENT_FIELDS if spec_for(f).name == "vat"][0]
    assert spec_for(vat).catalog == "vat_categories:cost"


def test_a_missing_row_names_the_table_being_checked(nocsrf):
    data = {"invoice_number": "N-1", "assignments-rows": "0"}
    with nocsrf.test_request_context("/", method="POST", data=data):
        expense = build_new_form(CATALOGS, company=COMPANY, fields=("invoice_number",),
                                 assignment_fields=EXPENSE_ASSIGNMENT_FIELDS)
        assert not expense.check()
        assert any("Cost categorisation" in str(e) for e in expense.form_errors)
        income = build_new_form(CATALOGS, company=COMPANY, fields=("invoice_number",))
        assert not income.check()
        assert any("Revenue categorisation" in str(e) for e in income.form_errors)


def test_the_lock_summary_says_a_partly_locked_record_still_has_editable_fields(nocsrf):
    checked = {"id": 1, "source": "manual", "checked": True,
               "editable_fields": ["note", "assignments", "assignments.expense_type"]}
    with nocsrf.test_request_context("/"):
        partly = lock_summary(checked)
        wholly = lock_summary({**checked, "editable_fields": []})
        assert lock_summary({"source": "manual", "editable_fields": ["note"]}) is None
    assert "Checked" in partly and "no longer editable" not in partly
    assert "some fields" in partly
    assert wholly == "Checked: no longer editable."


def test_a_field_the_service_does_not_list_as_editable_says_so(nocsrf):
    record = {"id": 1, "source": "manual", "editable_fields": ["note"]}
    with nocsrf.test_request_context("/"):
        reason = readonly_reason(record, "paid_through")
        checked = readonly_reason({**record, "checked": True}, "paid_through")
    assert reason == "The accounting service does not let this field be changed on this record."
    assert checked == "Checked: no longer editable."


def test_a_currency_is_named_by_its_code_from_an_object_an_id_or_the_catalogue():
    catalogs = {"currencies": [{"id": 1, "code": "HUF"}, {"id": 2, "code": "EUR"}]}
    assert currency_code({"id": 2, "code": "EUR", "name": "Euró"}, catalogs) == "EUR"
    assert currency_code({"id": 2, "name": "Euró"}, catalogs) == "EUR"
    assert currency_code("2", catalogs) == "EUR" and currency_code(1, catalogs) == "HUF"
    assert currency_code({"id": 9, "name": "USD"}, catalogs) == "USD"
    assert currency_code(None, catalogs) is None and currency_code(9, catalogs) is None
