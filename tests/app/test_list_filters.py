"""app.forms.filters: the parsing every list filter shares (pages, choices, days, amounts)."""
from __future__ import annotations

from decimal import Decimal

from werkzeug.datastructures import MultiDict
from wtforms import SelectField, StringField

from app.forms.display import select_choices
from app.forms.filters import (
    ANY,
    ListFilterForm,
    amounts,
    choice,
    compact,
    date_field_of,
    date_field_select,
    days,
    page_number,
    page_size,
)


class SampleFilters(ListFilterForm):
    """A list filter with one of each kind of field."""

    modifiers = ("date_field",)
    q = StringField()
    paid = SelectField(choices=select_choices([ANY, ("true", "Paid")]))
    date_field = date_field_select()
    date_from = StringField()
    amount = StringField()


def _form(**args) -> SampleFilters:
    return SampleFilters(formdata=MultiDict(args))


def test_page_and_page_size_fall_back_to_the_defaults_for_odd_values():
    assert page_number(MultiDict({})) == 1
    assert page_number(MultiDict({"page": "3"})) == 3
    assert page_size(MultiDict({"page_size": "7"})) == 50
    assert page_size(MultiDict({"page_size": "100"})) == 100


def test_a_choice_outside_the_select_is_dropped(app):
    with app.test_request_context("/"):
        assert choice(_form(paid="true").paid) == "true"
        assert choice(_form(paid="maybe").paid) is None
        assert date_field_of(_form(date_field="created_at").date_field) == "issued_at"


def test_days_fill_params_and_a_bad_day_is_an_error_on_its_field(app):
    with app.test_request_context("/"):
        form, params = _form(date_from="2024-03-05"), {}
        assert days([(form.date_from, "from_date")], params, "due_at")
        assert params == {"from_date": "2024-03-05", "date_field": "due_at"}
        bad = _form(date_from="soon")
        assert not days([(bad.date_from, "from_date")], {}, "due_at")
        assert bad.date_from.errors


def test_amounts_read_local_numbers_and_put_the_refusal_on_the_field(app):
    with app.test_request_context("/", headers={"Accept-Language": "hu"}):
        form = _form(amount="1 234,50")
        assert amounts([form.amount]) == [Decimal("1234.50")]
        bad = _form(amount="lots")
        assert amounts([bad.amount]) == [None]
        assert "1 234,50" in str(bad.amount.errors[0]).replace("\u00a0", " ")
        ambiguous = _form(amount="100.000")
        assert amounts([ambiguous.amount]) == [None]
        assert "100000" in str(ambiguous.amount.errors[0])


def test_only_narrowing_fields_make_a_list_filtered(app):
    with app.test_request_context("/"):
        assert not _form(date_field="due_at").is_filtered()
        assert _form(q="acme").is_filtered()


def test_compact_leaves_out_empty_values_but_keeps_false_and_zero():
    assert compact({"a": "", "b": None, "c": 0, "d": "x"}) == {"c": 0, "d": "x"}
