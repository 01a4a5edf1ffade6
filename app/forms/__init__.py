"""Forms built from the API's own metadata: the field registry, edit/create forms, diffing.

Modules: registry (field specs and kinds), base (RecordForm and its builders; PageForm, the
plain page forms' base), display (how a field shows, company settings), check (a submitted form
and the body it sends), tables (row tables and the rendered snapshot), totals (totals that add
up), totals_page (the live totals request), filters (typed URL parameters and list filters).

Field registry (app.forms.registry, fields registered in app.forms.registry)
    REGISTRY[name] -> FieldSpec(name, label (lazy), kind, group, widget, catalog, choices,
    required, conditional, wide, money, max_length, help). Kinds (app.forms.registry): text, date,
    amount, rate, percent, bool, choice, ref (one id), refs (id list); each knows load (record
    value, ids or {id, name} objects alike), parse (form text, Hungarian or English formats),
    dump (JSON payload) and to_form. `register(FieldSpec(...))` adds a field.
    Field sets (tuples of names, or FieldSpecs for a per-set variant made with
    `variant(name, catalog="vat_categories:cost")`): INCOME_FIELDS, INCOME_ASSIGNMENT_FIELDS,
    EXPENSE_FIELDS, EXPENSE_ASSIGNMENT_FIELDS, ITEM_FIELDS; PAIRS (sent together); WHOLE_LISTS.

Building
    form = build_edit_form(record, catalogs, company=settings, fields=INCOME_FIELDS,
                           assignment_fields=INCOME_ASSIGNMENT_FIELDS, search_url=None)
        record: the detail response (with editable_fields); catalogs: {name: [entries]} as
        app.upstream.catalog.get_many returns (catalog_names(specs) says which); company: the
        company object (company_settings(api)). Every field the record shows is rendered;
        those in editable_fields as inputs, the rest read-only with readonly_reason().
        `assignments.<column>` names in editable_fields make the assignments table editable;
        without the amount columns its rows are fixed (no add/remove).
    form = build_new_form(catalogs, initial=None, company=..., fields=..., item_fields=...)
        every field an input; assignments (at least one row) and optional line items.

Using (a view)
    if request.method == "POST" and not form.table_op() and form.check():
        body = form.changes()            # or form.create_payload() on a create form
        if form.conflicts: re-render     # someone else changed the same field meanwhile
        try: api.patch(..., json=body)   # send only when body is not empty
        except ValidationError as exc: form.apply_upstream(exc); re-render
    form.check() parses every input (errors on fields), applies the local rules (pairs both or
    neither, accounting period start <= end, exchange rate for a foreign currency, totals that
    add up and amounts of the document's sign: app.forms.totals) and fills form.values /
    form.rows. With totals_url= (build_edit_form / build_new_form) the amount inputs and VAT
    cells post the form there as the user types; the endpoint answers with
    app.forms.totals_page.live (include templates/forms/_totals.html in the <form>).
    form.changes() sends only fields the user changed (compared with
    the snapshot the form was rendered from), adds the PAIRS partner of a changed field, sends
    tags / simple_tags / assignments whole, and never a key outside editable_fields.
    A field missing from the POST is "unchanged", not "cleared".
    form.has_errors() is True when any field, table cell or the form carries a message (answer
    400 then); form.table_op() handles the add/remove row buttons sent without JavaScript
    (re-render, send nothing).

Templates
    templates/forms/_record_form.html renders form.sections() (FieldView: field, spec, readonly,
    reason, display) with the one render_field macro; templates/forms/_table.html renders
    form.table_rows(name) and form.template_row(name) (add-row <template>, static/js/forms.js).
    form.lock_summary() is the record-wide reason (booked, processed, synced) for the top.

Company settings
    company_settings(api) -> company object, cached per token like a catalogue;
    invalidate_settings(company_id) after changing them.
"""
from app.forms.base import FieldView, Layout, RecordForm, RowView, build_edit_form, build_new_form
from app.forms.display import (
    base_reads,
    catalog_names,
    catalogs_of,
    company_settings,
    display_text,
    invalidate_settings,
    readonly_reason,
    record_reason,
    settings_and_catalogs,
)
from app.forms.registry import (
    EXPENSE_ASSIGNMENT_FIELDS,
    EXPENSE_FIELDS,
    INCOME_ASSIGNMENT_FIELDS,
    INCOME_FIELDS,
    ITEM_FIELDS,
    PAIRS,
    REGISTRY,
    WHOLE_LISTS,
    FieldSpec,
    register,
    spec_for,
    variant,
)

__all__ = [
    "EXPENSE_ASSIGNMENT_FIELDS", "EXPENSE_FIELDS", "INCOME_ASSIGNMENT_FIELDS", "INCOME_FIELDS",
    "ITEM_FIELDS", "PAIRS", "REGISTRY", "WHOLE_LISTS", "FieldSpec", "FieldView", "Layout",
    "RecordForm", "RowView", "base_reads", "build_edit_form", "build_new_form", "catalog_names",
    "catalogs_of", "company_settings", "display_text", "invalidate_settings", "readonly_reason",
    "record_reason", "register", "settings_and_catalogs", "spec_for", "variant",
]
