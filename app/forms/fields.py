"""The registered fields of incomes, expenses and their assignments (spec 2.2, 2.3)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

from app.forms.registry import FieldSpec as F
from app.forms.registry import register, variant
from app.identifiers import ACCOUNT_HELP, TAX_NUMBER_HELP

VAT_AREAS = (("HU", _l("Hungary")), ("EU", _l("European Union")), ("3RD", _l("Outside the EU")))
PAYMENT_METHODS = (("transfer", _l("Bank transfer")), ("cash", _l("Cash")), ("card", _l("Card")),
                   ("cod", _l("Cash on delivery")))
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
    F("paid_through", _l("Paid through"), group="payment", max_length=100),
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
    F("vat", _l("VAT"), "ref", catalog="vat_categories"),
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
    "payment_method", "excluded_from_accounting", "tags", "simple_tags", "note",
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
