"""The field registry: upstream field name -> label, kind, widget, group and choices source."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from flask_babel import lazy_gettext as _l

from app.forms.kinds import KINDS, Kind

GROUPS = {
    "document": _l("Document"),
    "partner": _l("Partner"),
    "amounts": _l("Amounts and currency"),
    "payment": _l("Payment"),
    "accounting": _l("Accounting"),
    "labels": _l("Tags and review"),
    "note": _l("Note"),
    "storno": _l("Storno"),
}
TOO_LONG = _l("At most %(max)d characters.")
# The longest input a field of a kind takes when its spec names no max_length: a 12-digit amount
# grouped and signed with decimals fits in 30 characters, an id in 20. Longer text is refused
# before it is parsed or sent.
INPUT_LIMITS = {"text": 1000, "choice": 100, "ref": 20, "refs": 20, "bool": 10, "date": 30,
                "amount": 30, "rate": 30, "percent": 30}
WIDGETS = {"text": "input", "date": "date", "amount": "decimal", "rate": "decimal",
           "percent": "decimal", "bool": "checkbox", "choice": "select", "ref": "select",
           "refs": "multi", "tax_number": "input", "bank_account": "input"}


@dataclass(frozen=True)
class FieldSpec:
    """Everything Bookdesk knows about one upstream field.

    catalog: the catalogue a reference field chooses from ("tags", "revenue_types",
    "vat_categories:revenue" keeps one VAT type, ...). choices: static (value, label) pairs.
    conditional: shown only when editable or filled (settings-driven fields).
    money: amounts shown with the record's currency.
    """

    name: str
    label: Any
    kind: str = "text"
    group: str = "document"
    widget: str | None = None
    catalog: str | None = None
    choices: tuple = ()
    required: bool = False
    conditional: bool = False
    wide: bool = False
    money: bool = False
    max_length: int | None = None
    help: Any = None

    @property
    def value_kind(self) -> Kind:
        """The Kind that parses, dumps and compares this field's values."""
        return KINDS[self.kind]

    @property
    def input_limit(self) -> int:
        """The most characters an input of this field may hold."""
        return self.max_length or INPUT_LIMITS.get(self.kind, INPUT_LIMITS["text"])

    def parse(self, raw: Any) -> Any:
        """The submitted value read by its kind; ValueError (with the message) when too long."""
        texts = raw if isinstance(raw, list) else [raw]
        if any(isinstance(text, str) and len(text) > self.input_limit for text in texts):
            raise ValueError(TOO_LONG % {"max": self.input_limit})
        return self.value_kind.parse(raw)

    @property
    def widget_name(self) -> str:
        """The widget: explicit, else the kind's default."""
        return self.widget or WIDGETS[self.kind]


REGISTRY: dict[str, FieldSpec] = {}


def register(*specs: FieldSpec) -> None:
    """Add (or replace) field specs; areas may register fields of their own."""
    for spec in specs:
        REGISTRY[spec.name] = spec


def spec_for(name: str | FieldSpec) -> FieldSpec:
    """The spec of a field: a FieldSpec as given, a registered name's spec, else plain text.

    Field sets may hold FieldSpecs to vary a registered field (e.g. another VAT type).
    """
    if isinstance(name, FieldSpec):
        return name
    return REGISTRY.get(name) or FieldSpec(name, name.replace("_", " ").capitalize())


def variant(name: str, **changes) -> FieldSpec:
    """A registered field with some attributes changed, for one field set."""
    return replace(REGISTRY[name], **changes)


def group_label(group: str) -> Any:
    """The translated heading of a field group."""
    return GROUPS.get(group, group)
