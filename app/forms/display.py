"""How a field shows: select options, read-only reasons, display text, widgets, company settings.

Select options from catalogues (cached lists) and from the record's own reference objects.

Why a field is read-only, as far as the record says (booked, processed, synced, settings).

Read-only text for a field value: names for references, locale formats for money and dates.

WTForms fields for registry specs, with two widgets of our own: tag picker, partner picker.

The company's settings (GET /2/company-info/), cached like a catalogue.

Forms need them on every page (default currency, advanced accounting, enable_accounting_id,
enable_vat_period); the cache keeps them to zero upstream calls on a warm page. Whoever
changes the settings calls invalidate_settings(company_id).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup
from wtforms import BooleanField, SelectField, SelectMultipleField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.widgets import CheckboxInput, html_params

from app.forms.registry import FieldSpec, currency_code, ref_id
from app.i18n import collate_key
from app.identifiers import show_bank_account, show_tax_number
from app.numbers import format_amount, format_date, format_number, format_percent
from app.templating import source_label
from app.upstream import NeedsApiToken, catalog, run_parallel
from app.upstream import company as company_api
from app.upstream.catalog import ScopedCache

EMPTY_CHOICE = ("", "—")
NEEDED = {"tags": "tags", "revenue_types": "revenue_types", "expense_types": "expense_types",
          "vat_categories": "vat_categories", "ledger_numbers": "ledger_numbers",
          "currencies": "currencies", "accounts": "accounts"}


def catalog_names(specs) -> list[str]:
    """The catalogues a set of specs chooses from (load them once, in parallel)."""
    names = {spec.catalog.split(":")[0] for spec in specs if spec.catalog}
    return sorted(name for name in names if name in NEEDED)


# Catalogues chosen by code (kept in the API's order); the others are names, sorted by collation.
CODED = ("currencies", "ledger_numbers")


def entry_label(catalog: str, item: dict) -> str:
    """How a catalogue entry is named in a select."""
    if catalog == "currencies":
        return str(item.get("code") or item.get("name") or item.get("id"))
    if catalog == "accounts" and item.get("account_number"):
        return f"{item.get('name') or ''} ({item['account_number']})".strip()
    if catalog == "ledger_numbers" and item.get("code"):
        return f"{item['code']} – {item.get('name') or ''}".strip(" –")
    if catalog == "vat_categories" and item.get("vat_area") not in (None, "HU"):
        return f"{item.get('name')} ({item['vat_area']})"
    return str(item.get("name") or item.get("code") or item.get("id"))


def catalog_choices(spec: FieldSpec, catalogs: dict[str, list]) -> list[tuple[str, str]]:
    """(value, label) pairs for a reference field; static choices as they are."""
    if spec.choices:
        return [(str(value), label) for value, label in spec.choices]
    if not spec.catalog:
        return []
    name, _sep, only_type = spec.catalog.partition(":")
    items = [item for item in catalogs.get(name) or []
             if not only_type or item.get("type") in (None, only_type)]
    if spec.kind == "choice":
        # A text field choosing from a catalogue stores the entry's name, not its id.
        pairs = [(str(item["name"]), entry_label(name, item)) for item in items if item.get("name")]
    else:
        pairs = [(str(item["id"]), entry_label(name, item)) for item in items if "id" in item]
    if name in CODED:
        return pairs
    return sorted(pairs, key=lambda pair: collate_key(pair[1]))


def select_choices(choices) -> list[SelectChoice]:
    """WTForms options from (value, label) pairs; SelectChoice items pass as they are."""
    return [choice if isinstance(choice, SelectChoice) else SelectChoice(str(choice[0]), choice[1])
            for choice in choices or ()]


def option_value(choice) -> str:
    """The submitted value of an option, a SelectChoice or a (value, label) pair."""
    return choice.value if isinstance(choice, SelectChoice) else choice[0]


def with_current(choices: list, value: Any, label: Any) -> list:
    """Keep a record's current value selectable even when the catalogue lacks it."""
    if value in (None, "", []):
        return choices
    known = {option_value(choice) for choice in choices}
    values = value if isinstance(value, list) else [value]
    labels = label if isinstance(label, list) else [label]
    extra = [(str(v), str(lab or _l("#%(id)s", id=v))) for v, lab in zip(values, labels,
                                                                           strict=False)
             if str(v) not in known]
    return choices + extra


def ref_label(value: Any) -> Any:
    """The name carried by a detail record's reference object ({id, name|code})."""
    if isinstance(value, list):
        return [ref_label(item) for item in value]
    if isinstance(value, dict):
        return value.get("name") or value.get("code")
    return None


MANUAL_SOURCES = ("manual", "api", None, "")
SETTING_SWITCHES = {"accounting_id": "enable_accounting_id",
                    "vat_period_type": "enable_vat_period",
                    "vat_period_started_at": "enable_vat_period"}
ADVANCED_ONLY = ("vat_ledger_number_id", "company_vat_category_id", "vat_ledger_number",
                 "company_vat_category")


def record_state(record: dict) -> str | None:
    """excluded, booked, processed, checked or None: the strongest lock the record reports (an
    expense's accounting_status says which, where several flags are set)."""
    status = record.get("accounting_status")
    if status in ("excluded", "booked", "checked", "processed"):
        return status
    if record.get("booked"):
        return "booked"
    if record.get("processed"):
        return "processed"
    if record.get("checked"):
        return "checked"
    return None


def readonly_reason(record: dict, name: str, company: dict | None = None) -> str:
    """The reason shown under a read-only field."""
    switch = SETTING_SWITCHES.get(name)
    if switch and company is not None and not company.get(switch):
        return _("Switched off in the company settings.")
    if name in ADVANCED_ONLY and company is not None and not company.get("advanced_accounting"):
        return _("Applies under advanced accounting only.")
    return record_reason(record)


def record_reason(record: dict) -> str:
    """The record-wide reason: its accounting state, else its source, else that the service
    does not list the field as editable (editable_fields)."""
    state = record_state(record)
    if state == "excluded":
        return _("Excluded from accounting: no longer editable.")
    if state == "booked":
        return _("Booked: no longer editable.")
    if state == "processed":
        return _("Processed in the accounting: no longer editable.")
    if state == "checked":
        return _("Checked: no longer editable.")
    source = record.get("source")
    if source not in MANUAL_SOURCES:
        return _("Synced from %(source)s: kept as the integration sent it.",
                 source=source_label(source))
    return _("The accounting service does not let this field be changed on this record.")


def lock_summary(record: dict) -> str | None:
    """One sentence for the top of a form when the record is locked (wholly or partly), else None.

    A lock that leaves fields in the record's editable_fields only freezes some of them.
    """
    state, source = record_state(record), record.get("source")
    if not state and source in MANUAL_SOURCES:
        return None
    if not record.get("editable_fields"):
        return record_reason(record)
    if state == "excluded":
        return _("Excluded from accounting: some fields can no longer change.")
    if state == "booked":
        return _("Booked: some fields can no longer change.")
    if state == "processed":
        return _("Processed in the accounting: some fields can no longer change.")
    if state == "checked":
        return _("Checked: some fields can no longer change.")
    return _("Synced from %(source)s: some fields are kept as the integration sent them.",
             source=source_label(source))


def truthy(value: Any) -> bool:
    """A filled value: not None, not empty text, not an empty list."""
    return value not in (None, "", [], {})


EMPTY = "—"


def catalog_name(spec: FieldSpec, value: Any, catalogs: dict) -> str | None:
    """The catalogue's name for an id, if the catalogue has it."""
    name = (spec.catalog or "").split(":")[0]
    for item in catalogs.get(name) or []:
        if item.get("id") == value:
            return entry_label(name, item)
    return None


def _ref_text(spec: FieldSpec, raw: Any, catalogs: dict) -> str:
    label = ref_label(raw)
    try:
        value = ref_id(raw)
    except ValueError:
        return str(raw)
    if value is None:
        return EMPTY
    return catalog_name(spec, value, catalogs) or label or f"#{value}"


def display_text(spec: FieldSpec, raw: Any, record: dict, catalogs: dict) -> str:
    """The value of one field as the read-only form and the detail page show it."""
    if raw in (None, "", []):
        return EMPTY
    if spec.name == "source":
        return source_label(raw)
    if spec.name.endswith("percent"):
        return format_percent(raw)
    if spec.kind in ("ref", "refs", "amount"):
        return _looked_up_text(spec, raw, record, catalogs)
    return _plain_text(spec, raw)


def _looked_up_text(spec: FieldSpec, raw: Any, record: dict, catalogs: dict) -> str:
    """A reference or a list of them named from the catalogues; an amount with the record's
    currency when the field is money."""
    if spec.kind == "ref":
        return _ref_text(spec, raw, catalogs)
    if spec.kind == "refs":
        return ", ".join(_ref_text(spec, item, catalogs) for item in raw) or EMPTY
    code = currency_code(record.get("currency"), catalogs) if spec.money else None
    return format_amount(raw, code)


def _plain_text(spec: FieldSpec, raw: Any) -> str:
    """A value that needs no catalogue: a number, date, yes/no, identifier or choice."""
    kind = spec.kind
    if kind in ("rate", "percent"):
        return format_number(raw)
    if kind == "date":
        return format_date(raw)
    if kind == "bool":
        return _("Yes") if raw else _("No")
    if kind == "tax_number":
        return show_tax_number(raw)
    if kind == "bank_account":
        return show_bank_account(raw)
    if kind == "choice":
        return next((str(label) for value, label in spec.choices if value == raw), str(raw))
    return str(raw)


SEARCH_PLACEHOLDER = _l("Name or tax number…")  # short: it fits a form column


class RequiredFlag:
    """Marks a field required (asterisk, `required` attribute); the check itself is ours."""

    field_flags = {"required": True}

    def __call__(self, form, field) -> None:
        return None


def params(**attrs) -> Markup:
    """HTML attributes as safe markup (html_params escapes every name and value)."""
    return html_params(**attrs)


class TagPicker:
    """A drop-down of checkboxes (native <details>): dense in tables, no JavaScript needed."""

    def __call__(self, field, **kwargs) -> Markup:
        kwargs.pop("required", None)
        css = " ".join(c for c in ("picker", kwargs.pop("class_", ""), kwargs.pop("class", ""))
                       if c)
        choices = list(field.iter_choices())
        summary = ", ".join(str(label) for _v, label, selected, _r in choices if selected)
        options = Markup("").join(
            Markup('<label class="picker__option"><input {}> {}</label>').format(
                params(type="checkbox", name=field.name, value=value, checked=selected), label)
            for value, label, selected, _r in choices)
        if not choices:
            options = Markup('<p class="picker__empty">{}</p>').format(_l("No options"))
        return Markup(
            # The label as hidden text before the choices: a screen reader hears both.
            '<details {} data-picker><summary class="picker__summary">'
            '<span class="visually-hidden">{}: </span>{}'
            '</summary><div class="picker__options">{}</div>{}</details>').format(
            params(id=field.id, class_=css, **kwargs), field.label.text, summary or "—",
            options, marker(field))


def marker(field) -> Markup:
    """An empty hidden value after the inputs: "nothing chosen" is then told from "not sent"."""
    return Markup("<input {}>").format(params(type="hidden", name=field.name, value=""))


class MarkedCheckbox(CheckboxInput):
    """A checkbox followed by its marker (the marker comes second: BooleanField reads the
    first value)."""

    def __call__(self, field, **kwargs) -> Markup:
        return super().__call__(field, **kwargs) + marker(field)


class PartnerPicker:
    """A select of partners plus a search box that refills it through htmx."""

    def __call__(self, field, **kwargs) -> Markup:
        url = kwargs.pop("data-search-url", None)
        kwargs.pop("required", None)
        select = field.widget_select(field, **kwargs)
        if not url:
            return select
        search = params(
            type="search", form="no-form", name="partner_q", class_="field__input picker__search",
            placeholder=SEARCH_PLACEHOLDER, aria_label=_l("Search partners"), autocomplete="off",
            **{"hx-get": url, "hx-trigger": "input changed delay:300ms, search",
               "hx-target": f"#{field.id}", "hx-swap": "innerHTML"})
        return Markup('<div class="partner-picker"><input {}>{}</div>').format(search, select)


class PartnerField(SelectField):
    """A SelectField rendered with the partner picker."""

    widget = PartnerPicker()
    widget_select = SelectField.widget


def make_field(spec: FieldSpec, choices: list | None = None, label: Any = None,
               render_kw: dict | None = None):
    """An unbound WTForms field for a spec (values stay raw; kinds parse them)."""
    kw: dict[str, Any] = {"label": label if label is not None else spec.label,
                          "description": spec.help or "",
                          "validators": [RequiredFlag()] if spec.required else [],
                          "render_kw": dict(render_kw or {})}
    widget = spec.widget_name
    if widget in ("select", "partner"):
        cls = PartnerField if widget == "partner" else SelectField
        return cls(choices=select_choices(choices), validate_choice=False, **kw)
    if widget == "multi":
        return SelectMultipleField(choices=select_choices(choices), validate_choice=False,
                                   widget=TagPicker(), **kw)
    if widget == "checkbox":
        return BooleanField(widget=MarkedCheckbox(), **kw)
    if spec.max_length:
        kw["render_kw"].setdefault("maxlength", spec.max_length)
    kw["render_kw"].update(_input_attrs(widget))
    return (TextAreaField if widget == "textarea" else StringField)(**kw)


def _input_attrs(widget: str) -> dict:
    if widget == "date":
        return {"type": "date"}
    if widget == "decimal":
        return {"inputmode": "decimal", "autocomplete": "off"}
    return {}


_settings = ScopedCache()


def company_settings(api) -> dict:
    """The company object (GET /2/company-info/), from cache while fresh (the catalogue TTL)."""
    return dict(_settings.get(api, "company", partial(company_api.info, api), api.catalog_ttl))


def invalidate_settings(company_id) -> None:
    """Forget a company's cached settings (after Bookdesk changed them)."""
    _settings.invalidate(company_id)


def settings_and_catalogs(api, names) -> tuple[dict, dict]:
    """The company settings and the named catalogues (both cached), read side by side."""
    found = run_parallel(base_reads(api, names))
    return found["settings"], catalogs_of(found, names)


def base_reads(api, names) -> dict:
    """Reads of the settings and of each catalogue, side by side (a catalogue per task: tasks
    within a task would run one after another)."""
    return {"settings": partial(company_settings, api),
            **{name: partial(_catalog, api, name) for name in names}}


def _catalog(api, name: str):
    """A catalogue, or None where the sign-in cannot read it: the bank accounts are on /1/,
    which an OAuth2 sign-in cannot open, and a page of /2/ records stands without them."""
    try:
        return catalog.get(api, name)
    except NeedsApiToken:
        return None


def catalogs_of(found: dict, names) -> dict:
    """The catalogues among the results of a page's reads (late or unreadable ones left
    out)."""
    return {name: found[name] for name in names if found.get(name) is not None}
