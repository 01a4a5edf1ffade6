"""WTForms fields for registry specs, with two widgets of our own: tag picker, partner picker."""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from markupsafe import Markup
from wtforms import BooleanField, SelectField, SelectMultipleField, StringField, TextAreaField
from wtforms.widgets import CheckboxInput, html_params

from app.forms.registry import FieldSpec

SEARCH_PLACEHOLDER = _l("Search by name or tax number…")


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
            '<details {} data-picker><summary class="picker__summary" aria-label="{}">{}'
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
        return cls(choices=choices or [], validate_choice=False, **kw)
    if widget == "multi":
        return SelectMultipleField(choices=choices or [], validate_choice=False,
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
