"""RecordForm: the form class every built form derives from, and its template views."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_wtf import FlaskForm

from app.forms.display import display_text
from app.forms.readonly import lock_summary, readonly_reason, record_reason
from app.forms.registry import FieldSpec, group_label
from app.forms.tables import Table, template_row


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


@dataclass
class RowView:
    """One table row: its form entry (None when read-only), cells and row-level errors."""

    entry: Any
    cells: list[tuple[FieldSpec, Any, str]]
    errors: list[str] = field(default_factory=list)


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
        from app.forms.views import table_rows

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
        return any(self._field_errors(field) for field in self._fields.values())

    @staticmethod
    def _field_errors(field) -> bool:
        # FieldList / FormField keep the errors of validate() time; cells get messages later.
        if hasattr(field, "entries"):
            return any(RecordForm._field_errors(sub) for entry in field.entries
                       for sub in entry.form)
        return bool(field.errors)

    def add_error(self, name: str, message: str) -> None:
        """Put a message on a field's input, or above the form when it has none."""
        if name in self.layout.editable and name in self._fields:
            self[name].errors = [*self[name].errors, message]
        elif name in self.layout.specs:
            self.form_errors.append(f"{self.layout.specs[name].label}: {message}")
        else:
            self.form_errors.append(message)

    def check(self) -> bool:
        """CSRF, then parse every input and apply the rules checked before sending."""
        from app.forms.check import check_form

        return check_form(self)

    def totals_inputs(self) -> dict[str, str]:
        """The hidden inputs of the live totals request (app.forms.totals_page.page_inputs)."""
        from app.forms.totals_page import page_inputs

        return page_inputs(self)

    def changes(self) -> dict:
        """The PATCH body: what the user changed, pair partners, whole lists (after check)."""
        from app.forms.diff import changes

        return changes(self)

    def create_payload(self) -> dict:
        """The create body: every filled field and every table row (after check)."""
        from app.forms.diff import create_payload

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
        from app.forms.errors import apply_upstream

        apply_upstream(self, error)

    def table_op(self) -> bool:
        """Handle an add-row / remove-row button sent without JavaScript; True if handled."""
        from app.forms.views import table_op

        return table_op(self)
