"""Small Jinja helpers behind the form and table macros."""
from __future__ import annotations

from flask import Flask
from flask_babel import gettext

from app.identifiers import show_bank_account, show_tax_number
from app.page_budget import missing_parts

EMPTY = "—"


def init_app(app: Flask) -> None:
    """Expose the helpers to templates."""
    app.jinja_env.globals.update(field_attrs=field_attrs, field_display=field_display,
                                missing_parts=missing_parts)
    app.jinja_env.filters.update(tax_number=show_tax_number, account_number=show_bank_account)


def field_attrs(field, described: list[str], extra: dict, css_class: str) -> dict:
    """Input attributes: merged classes, aria-invalid, aria-describedby, required, extras."""
    attrs = dict(extra)
    classes = [css_class, attrs.pop("class_", None), attrs.pop("class", None)]
    attrs["class_"] = " ".join(c for c in classes if c)
    if field.errors:
        attrs["aria-invalid"] = "true"
    if described:
        attrs["aria-describedby"] = " ".join(described)
    return attrs


def field_display(field) -> str:
    """The field's current value as text, for read-only mode."""
    if field.type == "BooleanField":
        return gettext("Yes") if field.data else gettext("No")
    if hasattr(field, "iter_choices"):
        chosen = [str(choice[1]) for choice in field.iter_choices() if choice[2]]
        return ", ".join(chosen) or EMPTY
    value = field._value() if hasattr(field, "_value") else field.data
    return str(value) if value not in (None, "") else EMPTY
