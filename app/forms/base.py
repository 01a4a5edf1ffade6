"""The two base forms: RecordForm with the builders that make one per request from a record's
fields, and PageForm for the plain forms of the catalogue, partner and settings pages.

RecordForm: the form class every built form derives from, and its template views.

build_edit_form / build_new_form: a form class made per request from the record's fields.

PageForm is a FlaskForm with messages above it (`form_errors`), a one-time key for creates
(`form_key`, see app.once) and `place(error)` that puts an upstream ValidationError's
field messages on the inputs of the same name; everything else goes above the form.
PageForm.place() passes every upstream message through app.upstream.errors.upstream_text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import InputRequired, Length

from app.forms.check import apply_upstream, changes, check_form, create_payload, default_currency_id
from app.forms.display import (
    ADVANCED_ONLY,
    EMPTY_CHOICE,
    catalog_choices,
    display_text,
    lock_summary,
    make_field,
    readonly_reason,
    record_reason,
    ref_label,
    select_choices,
    truthy,
    with_current,
)
from app.forms.registry import (
    INCOME_ASSIGNMENT_FIELDS,
    INCOME_FIELDS,
    TOO_LONG,
    FieldSpec,
    group_label,
    spec_for,
)
from app.forms.tables import (
    REQUIRED_MSG,
    RowView,
    Table,
    initial_rows,
    make_table,
    snapshot,
    table_field,
    table_op,
    table_rows,
    template_row,
)
from app.forms.totals import table_sums
from app.forms.totals_page import page_inputs
from app.store import idempotency
from app.upstream.errors import NOT_ACCEPTED, upstream_text
from app.upstream.responses import ref


@dataclass
class Layout:
    """What a built form shows: the record, the fields, which are editable, the tables."""

    record: dict
    specs: dict[str, FieldSpec]
    editable: set[str]
    catalogs: dict
    company: dict | None = None
    table: Table | None = None
    items: Table | None = None
    new: bool = False
    totals_url: str | None = None


@dataclass(frozen=True)
class FieldView:
    """One field as the template renders it through render_field."""

    field: Any
    spec: FieldSpec
    readonly: bool
    reason: str | None
    display: str | None


class RecordForm(FlaskForm):
    """A form built from a record's editable_fields (see app.forms for the API)."""

    def __init__(self, *args, layout: Layout, **kwargs) -> None:
        self.layout = layout
        self.form_errors: list[str] = []
        self.values: dict[str, Any] = {}
        self.rows: dict[str, list[dict]] = {}
        self.row_errors: dict[str, dict[int, list[str]]] = {}
        self.conflicts: list[str] = []
        self.unavailable = False
        super().__init__(*args, **kwargs)

    @property
    def record(self) -> dict:
        """The record (or the initial values of a create form)."""
        return self.layout.record

    def is_editable(self, name: str) -> bool:
        """True when the field is an input on this form."""
        return name in self.layout.editable

    def view(self, name: str) -> FieldView:
        """The template view of one field."""
        spec, readonly = self.layout.specs[name], name not in self.layout.editable
        reason = display = None
        if readonly:
            reason = readonly_reason(self.record, name, self.layout.company)
            # The record-wide reason is said once at the top, not under every field.
            if self.lock_summary() and reason == record_reason(self.record):
                reason = None
            display = display_text(spec, self.record.get(name), self.record, self.layout.catalogs)
        return FieldView(self[name], spec, readonly, reason, display)

    def sections(self, only: tuple[str, ...] | None = None) -> list[tuple[Any, list[FieldView]]]:
        """(heading, field views) per group, in registry group order."""
        groups: dict[str, list[FieldView]] = {}
        for spec in self.layout.specs.values():
            if only is None or spec.group in only:
                groups.setdefault(spec.group, []).append(self.view(spec.name))
        return [(group_label(group), views) for group, views in groups.items()]

    def lock_summary(self) -> str | None:
        """The record-wide reason shown once above the form (booked, processed, synced)."""
        return None if self.layout.new else lock_summary(self.record)

    def table(self, name: str = "assignments") -> Table | None:
        """The table layout by name."""
        return {"assignments": self.layout.table, "items": self.layout.items}.get(name)

    def table_rows(self, name: str = "assignments") -> list[RowView]:
        """Row views for a table: form entries where editable, record rows otherwise."""
        return table_rows(self, name)

    def template_row(self, name: str = "assignments"):
        """A blank row form for the add-row <template> (None when rows are fixed)."""
        table = self.table(name)
        if table is None or table.fixed or not table.editable:
            return None
        return template_row(table)

    def has_errors(self) -> bool:
        """True when any field, cell, row or the form itself carries a message."""
        if self.form_errors or any(self.row_errors.values()):
            return True
        return any(self._field_errors(field) for field in self)

    @staticmethod
    def _field_errors(field) -> bool:
        # FieldList / FormField keep the errors of validate() time; cells get messages later.
        if hasattr(field, "entries"):
            return any(RecordForm._field_errors(sub) for entry in field.entries
                       for sub in entry.form)
        return bool(field.errors)

    def add_error(self, name: str, message: str) -> None:
        """Put a message on a field's input, or above the form when it has none."""
        if name in self.layout.editable and name in self:
            self[name].errors = [*self[name].errors, message]
        elif name in self.layout.specs:
            self.form_errors.append(f"{self.layout.specs[name].label}: {message}")
        else:
            self.form_errors.append(message)

    def check(self) -> bool:
        """CSRF, then parse every input and apply the rules checked before sending."""
        return check_form(self)

    def totals_inputs(self) -> dict[str, str]:
        """The hidden inputs of the live totals request (app.forms.totals_page.page_inputs)."""
        return page_inputs(self)

    def table_sums(self) -> dict[str, dict[str, str]]:
        """The amount table's total row (app.forms.totals.table_sums)."""
        return table_sums(self)

    def changes(self) -> dict:
        """The PATCH body: what the user changed, pair partners, whole lists (after check)."""
        return changes(self)

    def create_payload(self) -> dict:
        """The create body: every filled field and every table row (after check)."""
        return create_payload(self)

    def upstream_failed(self, message: str) -> None:
        """The API did not answer (timeout, 5xx, rate limit): keep the input, say so on top."""
        self.unavailable = True
        self.form_errors.append(message)

    def status(self) -> int:
        """The status to answer a submitted form with: 503, 400 or 200."""
        if self.unavailable:
            return 503
        return 400 if self.has_errors() else 200

    def apply_upstream(self, error) -> None:
        """Place an upstream ValidationError's messages on fields, cells and the form."""
        apply_upstream(self, error)

    def table_op(self) -> bool:
        """Handle an add-row / remove-row button sent without JavaScript; True if handled."""
        return table_op(self)




@dataclass(frozen=True)
class Options:
    """Per-form rendering options: where the partner search lives."""

    search_url: str | None = None


# Inputs whose change the live totals request answers (app/forms/totals.py).
LIVE_INPUTS = ("net_amount", "vat_amount", "gross_amount", "currency", "referred_invoice_number")
LIVE_CELLS = ("net_amount", "vat_amount", "gross_amount", "vat")


def live_attrs(url: str, name: str) -> dict:
    """htmx attributes that send the form to the totals endpoint when this input changes."""
    trigger = "change" if name in ("vat", "currency") else "input changed delay:300ms"
    return {"hx-post": url, "hx-trigger": trigger, "hx-include": "closest form",
            "hx-swap": "none", "hx-sync": "closest form:queue last", "data-totals": name}


def build_edit_form(record: dict, catalogs: dict, *, company: dict | None = None,
                    fields=INCOME_FIELDS,
                    assignment_fields=INCOME_ASSIGNMENT_FIELDS,
                    search_url: str | None = None, totals_url: str | None = None,
                    **form_kwargs) -> RecordForm:
    """The edit form of a record: inputs for editable_fields, read-only text for the rest."""
    editable = set(record.get("editable_fields") or [])
    top = {name for name in editable if "." not in name}
    specs = [spec_for(n) for n in fields if _shown(spec_for(n), record, top)]
    cells = {n.split(".", 1)[1] for n in editable if n.startswith("assignments.")}
    table = None
    if "assignments" in record or "assignments" in top:
        table = make_table("assignments", tuple(assignment_fields),
                           record.get("assignments") or [],
                           cells if "assignments" in top else set(), catalogs, record,
                           required=_required(assignment_fields))
    layout = Layout(record, {s.name: s for s in specs}, top & {s.name for s in specs},
                    catalogs, company, table, totals_url=totals_url)
    return _instantiate(layout, Options(search_url=search_url), **form_kwargs)


def build_new_form(catalogs: dict, *, initial: dict | None = None, company: dict | None = None,
                   fields=INCOME_FIELDS,
                   assignment_fields=INCOME_ASSIGNMENT_FIELDS, item_fields=(),
                   search_url: str | None = None, totals_url: str | None = None,
                   **form_kwargs) -> RecordForm:
    """A create form: every field an input, prefilled from `initial` (record-shaped values)."""
    record = dict(initial or {})
    specs = [spec_for(name) for name in fields]
    if company is not None and not company.get("advanced_accounting"):
        assignment_fields = tuple(f for f in assignment_fields
                                  if spec_for(f).name not in ADVANCED_ONLY)
    table, items = _new_tables(record, catalogs, assignment_fields, item_fields)
    layout = Layout(record, {s.name: s for s in specs}, {s.name for s in specs}, catalogs,
                    company, table, items, new=True, totals_url=totals_url)
    return _instantiate(layout, Options(search_url=search_url), **form_kwargs)


def _new_tables(record: dict, catalogs: dict, assignment_fields, item_fields) -> tuple:
    """The create form's assignments (at least one row) and optional line items."""
    table = make_table("assignments", tuple(assignment_fields), record.get("assignments") or [],
                       _names(assignment_fields), catalogs, record, fixed=False, min_rows=1,
                       required=_required(assignment_fields))
    items = None
    if item_fields:
        items = make_table("items", tuple(item_fields), record.get("items") or [],
                           _names(item_fields), catalogs, record, fixed=False,
                           required=_required(item_fields))
    return table, items


def _names(fields) -> set[str]:
    return {spec_for(f).name for f in fields}


def _required(fields) -> tuple[str, ...]:
    names = _names(fields)
    return tuple(spec_for(f).name for f in fields if spec_for(f).required) + tuple(
        n for n in ("net_amount", "gross_amount") if n in names)


def _shown(spec: FieldSpec, record: dict, editable: set[str]) -> bool:
    if spec.name in editable:
        return True
    if spec.conditional:
        return truthy(record.get(spec.name))
    return spec.name in record


def _instantiate(layout: Layout, options: Options, **form_kwargs) -> RecordForm:
    attrs: dict[str, Any] = {"base_state": HiddenField()}
    for spec in layout.specs.values():
        attrs[spec.name] = make_field(spec, _choices(spec, layout), render_kw=_render_kw(
            spec, layout, options))
    if layout.table is not None and layout.totals_url:
        layout.table.live = {name: live_attrs(layout.totals_url, name) for name in LIVE_CELLS}
    for table in (layout.table, layout.items):
        if table is not None and table.editable:
            attrs[table.name] = table_field(table)
    form_class = type("RecordEditForm", (RecordForm,), attrs)
    form = form_class(data=_initial_data(layout), layout=layout, **form_kwargs)
    _keep_submitted_choices(form)
    return form


def _keep_submitted_choices(form: RecordForm) -> None:
    """A partner picked by search (or a text choice no option has) is not among the rendered
    choices: keep it selectable, so a form sent back with an error still holds it."""
    for spec in form.layout.specs.values():
        if spec.widget_name == "partner" or spec.kind == "choice":
            if spec.name not in form:
                continue
            field = form[spec.name]
            label = field.data if spec.kind == "choice" else None
            field.choices = select_choices(with_current(list(field.choices), field.data, label))


def _choices(spec: FieldSpec, layout: Layout) -> list:
    raw = layout.record.get(spec.name)
    if spec.widget_name == "partner":
        label = ref_label(layout.record.get("partner")) or layout.record.get("partner_name")
        return with_current([EMPTY_CHOICE], ref(raw), label)
    choices = catalog_choices(spec, layout.catalogs)
    if spec.kind == "refs":
        return with_current(choices, [ref(v) for v in raw or []], ref_label(raw or []))
    # A text choice (payment method, paid through) is its own label when no option names it.
    label = display_text(spec, raw, layout.record, layout.catalogs) if spec.kind == "choice" \
        else ref_label(raw)
    choices = with_current(choices, ref(raw), label)
    return choices if spec.required or spec.kind == "bool" else [EMPTY_CHOICE, *choices]


def _render_kw(spec: FieldSpec, layout: Layout, options: Options) -> dict:
    render_kw: dict[str, Any] = {}
    if spec.widget_name == "partner" and options.search_url:
        render_kw["data-search-url"] = options.search_url
    if spec.name == "currency" and layout.company:
        render_kw["data-default-currency"] = default_currency_id(layout.company,
                                                                 layout.catalogs) or ""
    if spec.name == "exchange_rate" and layout.company:
        render_kw["data-rate-message"] = _(
            "Enter the actual exchange rate: the currency is not %(code)s, the company's own.",
            code=layout.company.get("default_currency_name"))
    if layout.totals_url and spec.name in LIVE_INPUTS:
        render_kw.update(live_attrs(layout.totals_url, spec.name))
    if spec.name == "accounting_period_start":
        render_kw["data-not-after"] = "accounting_period_end"
        render_kw["data-not-after-message"] = _("The start may not be after the end of the "
                                                "period.")
    return render_kw


def _initial_data(layout: Layout) -> dict:
    data = {spec.name: spec.value_kind.to_form(spec.value_kind.load(layout.record.get(spec.name)))
            for spec in layout.specs.values()}
    for table in (layout.table, layout.items):
        if table is not None and table.editable:
            data[table.name] = initial_rows(table)
    data["base_state"] = json.dumps(snapshot(layout), separators=(",", ":"))
    return data


class PageForm(FlaskForm):
    """A FlaskForm whose upstream refusals land on its own fields."""

    form_key = HiddenField()

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.form_errors: list[str] = []
        if not self.form_key.data:
            self.form_key.data = idempotency.new_key()

    def add_error(self, name: str, message: str) -> None:
        """A message on a field's input, or above the form when there is no such input."""
        if name in self and name not in ("csrf_token", "form_key"):
            self[name].errors = [*self[name].errors, message]
        else:
            self.form_errors.append(message)

    def place(self, error, aliases: dict[str, str] | None = None) -> None:
        """Distribute an upstream ValidationError: fields first, the rest above the form."""
        for message in error.non_field_errors:
            self.form_errors.append(upstream_text(message))
        for key, messages in error.field_errors.items():
            name = (aliases or {}).get(key, key)
            for message in messages:
                self.add_error(name, upstream_text(message))
        if not error.non_field_errors and not error.field_errors:
            self.form_errors.append(str(NOT_ACCEPTED))

    def has_errors(self) -> bool:
        """True when a field or the form itself carries a message."""
        return bool(self.form_errors or any(field.errors for field in self))


def name_field(label, max_length: int = 100) -> StringField:
    """A required, trimmed name input."""
    return StringField(label, filters=[strip],
                       validators=[InputRequired(message=REQUIRED_MSG),
                                   Length(max=max_length, message=TOO_LONG)],
                       render_kw={"maxlength": max_length, "autocomplete": "off"})


def strip(value):
    """Trim surrounding spaces of submitted text (None stays None)."""
    return value.strip() if isinstance(value, str) else value


def empty_to_none(value):
    """Trimmed text, or None for nothing at all (the API refuses empty strings)."""
    value = strip(value)
    return value or None
