"""The WTForms form of one rule: name, switch, conditions, what it sets, split parts."""
from __future__ import annotations

import json

from flask_babel import lazy_gettext as _l
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)

from app.policies import FIELDS, OPS
from app.policy_editor.labels import FIELD_LABELS, OP_LABELS, PART_KINDS

NEW_TAG = "n:"


def _ref_field(label, help_text):
    return StringField(label, description=help_text, render_kw={"autocomplete": "off"})


class ConditionForm(Form):
    """One condition row; orig carries the row as stored, so unknown keys survive."""

    orig = HiddenField()
    field = SelectField(_l("Field"), choices=[(f, FIELD_LABELS[f]) for f in FIELDS])
    op = SelectField(_l("Comparison"), choices=[(op, OP_LABELS[op]) for op in OPS])
    value = StringField(_l("Value"))
    value2 = StringField(_l("and"))


class PartForm(Form):
    """One part of a split."""

    orig = HiddenField()
    kind = SelectField(_l("Share as"), choices=list(PART_KINDS.items()))
    share = StringField(_l("Share"), render_kw={"inputmode": "decimal"})
    revenue_type = _ref_field(_l("Revenue type"), None)
    ledger_number = _ref_field(_l("Ledger number"), None)
    job_number = StringField(_l("Job number"))
    tags = SelectMultipleField(_l("Tags"), choices=[], validate_choice=False)
    new_tags = StringField(_l("New tags"))


class RuleForm(Form):
    """A policy or an ignore rule."""

    name = StringField(_l("Name"), description=_l("Shown in the list, the preview and the "
                                                  "history. Give each rule its own name."))
    enabled = BooleanField(_l("Active"))
    match = RadioField(_l("Which conditions must hold"),
                       choices=[("all", _l("All of them")), ("any", _l("Any one of them"))])
    conditions = FieldList(FormField(ConditionForm))
    revenue_type = _ref_field(_l("Revenue type"), _l(
        "Pick one from the list or type a new name: the new one is created when a policy "
        "first applies."))
    ledger_number = _ref_field(_l("Ledger number"), _l("Code or name; a new one is created "
                                                       "when the policy first applies."))
    job_number = StringField(_l("Job number"))
    tags = SelectMultipleField(_l("Tags"), choices=[], validate_choice=False)
    new_tags = StringField(_l("New tags"), description=_l("Separate several with commas."))
    use_split = BooleanField(_l("Split the income into several assignments"))
    split = FieldList(FormField(PartForm))


def orig_of(field) -> dict:
    """The stored row a form row came from ({} for a new row or unreadable data)."""
    try:
        value = json.loads(field.data or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def orig_text(row: dict) -> str:
    """A row as the hidden orig field carries it."""
    return json.dumps(row, ensure_ascii=False, separators=(",", ":"))


def keep_unknown_choice(select, value) -> None:
    """Offer a value Bookdesk does not know (from an imported file) so it is not lost."""
    if value and value not in {choice[0] for choice in select.choices}:
        select.choices = [*select.choices, (value, value)]
        select.data = value
