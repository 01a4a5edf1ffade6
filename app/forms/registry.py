"""Field specs: value kinds, the field registry, and the registered fields of each record.

Value kinds: how one kind of upstream value is read, parsed from a form, sent and shown.

Every kind works on one Python value type (str, date, Decimal, bool, int, list[int]); None
means empty. `load` reads a record value (ids or {id, name} objects alike), `parse` reads form
data (raising ValueError with a user message; numbers and dates by app/numbers.py), `dump`
gives the JSON payload value and `to_form` the WTForms data.

The field registry: upstream field name -> label, kind, widget, group and choices source.

The registered fields of incomes, expenses and their assignments (spec 2.2, 2.3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from typing import Any

from flask_babel import lazy_gettext as _l

from app import identifiers
from app.identifiers import ACCOUNT_HELP, TAX_NUMBER_HELP
from app.numbers import (
    InputError,
    api_text,
    format_number,
    parse_amount,
    parse_date,
    parse_number,
    to_decimal,
)
from app.templating import PAYMENT_METHODS as METHOD_LABELS

# The API reads quantities and percents as DecimalField(14, 4) and exchange rates as
# DecimalField(14, 6): whatever it would refuse is refused here first, with the page's words.
SMALL_MAX, SMALL_PLACES = Decimal("9999999999.9999"), 4
RATE_MAX, RATE_PLACES = Decimal("99999999.999999"), 6
CHOICE_MSG = _l("Choose one of the options.")


def ref_id(value: Any) -> int | None:
    """An id from an integer, a digit string or an {id, ...} object; None when empty."""
    if isinstance(value, dict):
        value = value.get("id")
    if value in (None, ""):
        return None
    if isinstance(value, bool):
        raise ValueError(CHOICE_MSG)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(CHOICE_MSG) from None


def currency_code(value: Any, catalogs: dict) -> str | None:
    """The ISO code of a record's currency, given as an id or an {id, code, name} object: its
    code, else the currency catalogue's code for its id, else its name."""
    if isinstance(value, dict):
        return (value.get("code") or currency_code(value.get("id"), catalogs)
                or value.get("name"))
    for item in catalogs.get("currencies") or []:
        if value is not None and str(item.get("id")) == str(value):
            return item.get("code")
    return None


def _text(value: Any) -> str | None:
    # Browsers send textarea line breaks as CRLF; the API keeps LF.
    text = "" if value is None else str(value).replace("\r\n", "\n").strip()
    return text or None


def _date(value: Any) -> date | None:
    if isinstance(value, date) or value in (None, ""):
        return value or None
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _parse_date(value: Any) -> date | None:
    return value if isinstance(value, date) else parse_date(value)


def _number_parser(places: int, limit: Decimal) -> Callable[[Any], Decimal | None]:
    def parse(value: Any) -> Decimal | None:
        if isinstance(value, Decimal):
            return value
        return parse_number(value, places=places, minimum=-limit, maximum=limit)
    return parse


def _parse_rate(value: Any) -> Decimal | None:
    if isinstance(value, Decimal):
        return value
    rate = parse_number(value, places=RATE_PLACES, maximum=RATE_MAX)
    # A rate of 0 or below would zero or flip the document's forint value; the API refuses it.
    if rate is not None and rate <= 0:
        raise InputError(_l("Enter a number greater than 0."), "minimum")
    return rate


def _parse_amount(value: Any) -> Decimal | None:
    return value if isinstance(value, Decimal) else parse_amount(value)


def _form_number(places: int | None = None) -> Callable[[Any], str]:
    """The input's text: ungrouped, two decimals for amounts, significant decimals otherwise."""
    def to_form(value: Any) -> str:
        return format_number(value, places=places, grouping=False)
    return to_form


def _identifier(check: Callable[[str], str]) -> Callable[[Any], str | None]:
    def parse(value: Any) -> str | None:
        text = _text(value)
        return None if text is None else check(text)
    return parse


def _same_compact(a: Any, b: Any) -> bool:
    return identifiers.compact(a) == identifiers.compact(b)


def _bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("y", "yes", "on", "true", "1")
    return bool(value)


def _refs(value: Any) -> list[int]:
    if value in (None, ""):
        return []
    values = value if isinstance(value, list | tuple) else [value]
    return [i for i in (ref_id(v) for v in values) if i is not None]


def _rate_out(value: Decimal | None) -> str | None:
    return None if value is None else format(value.normalize(), "f")


def _same(a: Any, b: Any) -> bool:
    return a == b


def _same_set(a: Any, b: Any) -> bool:
    return set(a or ()) == set(b or ())


@dataclass(frozen=True)
class Kind:
    """How one kind of value moves between record, form and payload."""

    name: str
    load: Callable[[Any], Any]
    parse: Callable[[Any], Any]
    dump: Callable[[Any], Any]
    to_form: Callable[[Any], Any]
    same: Callable[[Any, Any], bool] = _same
    # The record's value sent back unchanged is kept as it is, even one the check refuses now.
    keeps_unchanged: bool = False


def _identity(value: Any) -> Any:
    return value


def _or_blank(value: Any) -> Any:
    return "" if value is None else value


def _iso(value: date | None) -> str | None:
    return value.isoformat() if value else None


def _id_str(value: Any) -> str:
    return "" if value is None else str(value)


TEXT = Kind("text", _text, _text, _identity, _or_blank)
DATE = Kind("date", _date, _parse_date, _iso, lambda v: _iso(v) or "")
AMOUNT = Kind("amount", to_decimal, _parse_amount, api_text, _form_number(2))
RATE = Kind("rate", to_decimal, _parse_rate, _rate_out, _form_number())
PERCENT = Kind("percent", to_decimal, _number_parser(SMALL_PLACES, SMALL_MAX),
               lambda v: None if v is None else float(v), _form_number())
BOOL = Kind("bool", _bool, _bool, bool, bool)
CHOICE = Kind("choice", _text, _text, _identity, _or_blank)
REF = Kind("ref", ref_id, ref_id, _identity, _id_str)
REFS = Kind("refs", _refs, _refs, list, lambda v: [str(i) for i in v or []], _same_set)
TAX_NUMBER = Kind("tax_number", _text, _identifier(identifiers.tax_number), _identity,
                  lambda v: identifiers.show_tax_number(v) if v else "", _same_compact, True)
BANK_ACCOUNT = Kind("bank_account", _text, _identifier(identifiers.bank_account), _identity,
                    lambda v: identifiers.show_bank_account(v) if v else "", _same_compact, True)

KINDS = {kind.name: kind for kind in (TEXT, DATE, AMOUNT, RATE, PERCENT, BOOL, CHOICE, REF, REFS,
                                      TAX_NUMBER, BANK_ACCOUNT)}




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


def field_label(name: str, own: dict | None = None):
    """A field's label: the page's own words for it (`own`), else the registry's."""
    return (own or {}).get(name) or spec_for(name).label


def variant(name: str, **changes) -> FieldSpec:
    """A registered field with some attributes changed, for one field set."""
    return replace(REGISTRY[name], **changes)


def group_label(group: str) -> Any:
    """The translated heading of a field group."""
    return GROUPS.get(group, group)


F = FieldSpec  # the field table below reads as a table with a one-letter constructor


VAT_AREAS = (("HU", _l("Hungary")), ("EU", _l("European Union")), ("3RD", _l("Outside the EU")))
# The methods a user may pick: every labelled one but "cancel", which only the API sets.
PAYMENT_METHODS = tuple((value, label) for value, label in METHOD_LABELS.items()
                        if value != "cancel")
VAT_PERIODS = (("monthly", _l("Monthly")), ("quarterly", _l("Quarterly")),
               ("yearly", _l("Yearly")))

register(
    F("invoice_number", _l("Invoice number"), required=True, max_length=100),
    F("issued_at", _l("Issue date"), "date"),
    F("fulfilled_at", _l("Fulfilment date"), "date"),
    F("due_at", _l("Due date"), "date"),
    F("secondary_id", _l("Secondary ID"), max_length=100),
    F("vat_area", _l("VAT area"), "choice", choices=VAT_AREAS),
    F("referred_invoice_number", _l("Cancels document number"), group="storno", max_length=64,
      help=_l("Only for a storno: the number of the accounting document it cancels.")),
    F("partner_id", _l("Partner"), "ref", "partner", widget="partner"),
    F("partner", _l("Partner"), "ref", "partner", widget="partner"),
    F("partner_name", _l("Partner name"), group="partner", max_length=200),
    F("partner_tax_number", _l("Tax number"), "tax_number", "partner", max_length=40,
      help=TAX_NUMBER_HELP),
    F("partner_zip_code", _l("Postcode"), group="partner", max_length=20),
    F("partner_city", _l("City"), group="partner", max_length=100),
    F("partner_address", _l("Address"), group="partner", max_length=200),
    F("partner_country", _l("Country code"), group="partner", max_length=2,
      help=_l("Two letters, e.g. HU")),
    F("partner_account_number", _l("Bank account number"), "bank_account", "partner",
      max_length=60, help=ACCOUNT_HELP),
    F("currency", _l("Currency"), "ref", "amounts", catalog="currencies", required=True),
    F("exchange_rate", _l("Exchange rate"), "rate", "amounts"),
    F("exchange_date", _l("Exchange rate date"), "date", "amounts"),
    F("net_amount", _l("Net amount"), "amount", "amounts", money=True),
    F("vat_amount", _l("VAT amount"), "amount", "amounts", money=True),
    F("gross_amount", _l("Gross amount"), "amount", "amounts", money=True),
    F("payment_method", _l("Payment method"), "choice", "payment", choices=PAYMENT_METHODS),
    F("planned_payment_date", _l("Planned payment date"), "date", "payment"),
    # Incomes name the account (text); expenses carry the paying account's id.
    F("paid_through", _l("Paid through"), "choice", "payment", catalog="accounts",
      max_length=100),
    F("account", _l("Paid through"), "ref", "payment", catalog="accounts"),
    F("ledger_number_id", _l("Ledger number"), "ref", "accounting", catalog="ledger_numbers"),
    F("ledger_number", _l("Ledger number"), "ref", "accounting", catalog="ledger_numbers"),
    F("accounting_period_start", _l("Accounting period start"), "date", "accounting"),
    F("accounting_period_end", _l("Accounting period end"), "date", "accounting"),
    F("accounting_id", _l("Accounting ID"), group="accounting", conditional=True,
      max_length=100),
    F("vat_period_type", _l("VAT period"), "choice", "accounting", choices=VAT_PERIODS,
      conditional=True),
    F("vat_period_started_at", _l("VAT period start"), "date", "accounting", conditional=True,
      help=_l("Any day of the period; it is saved as the period's first day.")),
    F("tags", _l("Tags"), "refs", "labels", catalog="tags"),
    F("simple_tags", _l("Simple tags"), "refs", "labels", catalog="tags"),
    F("needs_review", _l("Needs review"), "bool", "labels"),
    F("review_done", _l("Review done"), "bool", "labels"),
    F("excluded_from_accounting", _l("Excluded from accounting"), "bool", "accounting"),
    F("is_cancelled", _l("Cancelled"), "bool", "document"),
    F("note", _l("Note"), group="note", widget="textarea", wide=True, max_length=5000),
)

# Assignment (revenue / cost categorisation) columns.
register(
    F("revenue_type", _l("Revenue type"), "ref", catalog="revenue_types", required=True),
    F("expense_type", _l("Expense type"), "ref", catalog="expense_types", required=True),
    F("vat", _l("VAT rate"), "ref", catalog="vat_categories"),
    F("job_number", _l("Job number"), max_length=60),
    F("vat_ledger_number_id", _l("VAT ledger number"), "ref", catalog="ledger_numbers"),
    F("vat_ledger_number", _l("VAT ledger number"), "ref", catalog="ledger_numbers"),
    F("company_vat_category_id", _l("Company VAT category"), "ref", catalog="vat_categories"),
    F("company_vat_category", _l("Company VAT category"), "ref", catalog="vat_categories"),
)

# Invoice line items (create forms).
register(
    F("name", _l("Item"), required=True, max_length=200),
    F("quantity", _l("Quantity"), "percent"),
    F("unit", _l("Unit"), max_length=20),
    F("unit_price", _l("Unit price"), "amount"),
    F("vat_percent", _l("VAT rate"), "percent"),
)

INCOME_FIELDS = (
    "invoice_number", "issued_at", "fulfilled_at", "due_at", "secondary_id", "vat_area",
    "partner_id", "partner_name", "partner_tax_number", "partner_zip_code", "partner_city",
    "partner_address", "partner_country", "partner_account_number",
    "currency", "exchange_rate", "exchange_date", "net_amount", "vat_amount", "gross_amount",
    "payment_method", "planned_payment_date", "paid_through",
    "ledger_number_id", "accounting_period_start", "accounting_period_end", "accounting_id",
    "vat_period_type", "vat_period_started_at",
    "tags", "simple_tags", "needs_review", "review_done", "note",
)
INCOME_ASSIGNMENT_FIELDS = (
    "revenue_type", "net_amount", "vat_amount", "gross_amount",
    variant("vat", catalog="vat_categories:revenue"), "tags", "job_number", "ledger_number_id",
    "vat_ledger_number_id", variant("company_vat_category_id", catalog="vat_categories:revenue"))
EXPENSE_FIELDS = (
    "invoice_number", "issued_at", "fulfilled_at", "due_at", "secondary_id", "vat_area",
    "partner", "currency", "exchange_rate", "net_amount", "vat_amount", "gross_amount",
    "payment_method", "planned_payment_date", "account", "excluded_from_accounting",
    "accounting_id", "vat_period_type",
    # The income update rounds the start to its period's first day (spec 4.2 rule 6); the
    # expense update is not said to, so its field promises nothing about it.
    variant("vat_period_started_at", help=None), "tags", "simple_tags", "note",
)
EXPENSE_ASSIGNMENT_FIELDS = (
    "expense_type", "net_amount", "vat_amount", "gross_amount",
    variant("vat", catalog="vat_categories:cost"), "tags", "job_number", "ledger_number",
    "vat_ledger_number", variant("company_vat_category", catalog="vat_categories:cost"))
ITEM_FIELDS = ("name", "quantity", "unit", "unit_price", "vat_percent")
# Fields a rule ties together: sending one sends the other (spec 4.2 update rules 6, 7).
PAIRS = (("vat_period_type", "vat_period_started_at"),
         ("accounting_period_start", "accounting_period_end"))
# Fields the API replaces whole: sent complete whenever anything in them changed.
WHOLE_LISTS = ("tags", "simple_tags", "assignments")
