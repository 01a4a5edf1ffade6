"""Component schemas of expenses (spec 2.3): list record, detail, create and update payloads."""
from __future__ import annotations

from . import components_common as common
from .components_common import AMOUNT, AMOUNT_IN, DATE, ID, ID_IN, TAG_IDS, TAG_IDS_IN, TIMESTAMP
from .model import T, array, nullable, obj, prop, ref

TEXT = nullable({"type": "string"})
INT = nullable({"type": "integer"})
INT_IN = nullable(ID_IN)
CODED_REF = nullable(obj({"id": ID, "name": prop("string"), "code": prop(TEXT)}, ("id",)))
VAT = nullable(obj({"id": ID, "name": prop("string"),
                    "percent": prop("number", T("Lebegőpontos.", "A float."))}, ("id",)))
ARTIFACT = T("Csak ha has_artifact igaz.", "Only when has_artifact is true.")
ITEM = obj({"id": ID, "name": prop("string"), "quantity": prop("string"), "unit": prop(TEXT),
            "unit_price": AMOUNT, "net_amount": AMOUNT, "vat_amount": AMOUNT,
            "gross_amount": AMOUNT,
            "vat_percent": prop("number", T("ÁFA-kulcs (lebegőpontos).", "VAT rate (a float)."))})
COMMON = {
    "id": ID, "invoice_number": prop(TEXT), "filing_number": prop(TEXT),
    "issued_at": prop(nullable(DATE)), "fulfilled_at": prop(nullable(DATE)),
    "due_at": prop(nullable(DATE)), "created": TIMESTAMP, "created_at": TIMESTAMP,
    "updated_at": TIMESTAMP, "exchange_rate": prop("string", T(
        "Árfolyam tizedes szövegként.", "Exchange rate as a decimal string.")),
    "net_amount": AMOUNT, "vat_amount": AMOUNT, "gross_amount": prop(AMOUNT, T(
        "Lehet 0: a költség összegei a bontásokon vannak.",
        "May be 0: expense totals live on the assignments.")),
    "paid_status": prop("integer", T("1 fizetetlen, 2 fizetve, 3 részben.",
                                     "1 unpaid, 2 paid, 3 partially paid.")),
    "payment_method": prop(TEXT), "vat_area": prop(TEXT), "secondary_id": prop(TEXT),
    "accounting_status": prop("string"),
    "excluded_from_accounting": prop("boolean", T("Kizárva a könyvelésből.",
                                                  "Excluded from accounting.")),
    "source": prop("string"), "tags": TAG_IDS, "simple_tags": TAG_IDS,
    "has_artifact": prop("boolean", T("Van-e csatolt fájl.", "Whether a file is attached.")),
    "artifact_extension": prop("string", ARTIFACT),
    "partner_name": prop(TEXT), "items": array(ITEM),
    **{name: prop(TEXT) for name in (
        "artifact_filename", "artifact_created_at", "filing_date", "exchange_date",
        "delivered_at", "planned_payment_date", "accounting_period_start",
        "accounting_period_end", "user_saw", "integration_payment_method", "accounting_id",
        "vat_period_type", "vat_period_started_at", "partner_zip_code", "partner_city",
        "partner_address", "partner_country", "partner_tax_number", "partner_account_number")},
    "invoice_class": prop("integer"), "incomplete": prop("boolean"),
    "account": prop(INT, T("A kifizető bankszámla.", "The bank account that paid it.")),
}
AMOUNTS = {"id": ID, "net_amount": AMOUNT, "vat_amount": AMOUNT, "gross_amount": AMOUNT,
           "vat": prop(VAT), "tags": TAG_IDS, "job_number": prop(TEXT)}
ASSIGNMENT_INPUT = obj({
    "id": prop(ID_IN, T("Meglévő bontás; nélküle új bontás jön létre.",
                        "An existing assignment; without it one is added.")),
    "expense_type": prop(ID_IN), "net_amount": AMOUNT_IN, "vat_amount": AMOUNT_IN,
    "gross_amount": AMOUNT_IN, "vat": prop(INT_IN), "tags": TAG_IDS_IN,
    "job_number": prop(TEXT), "ledger_number": prop(INT_IN, T(
        "Ellenőrzött és integrációból jött költségen nem módosítható.",
        "Frozen on checked and integration-synced expenses.")),
    "vat_ledger_number": prop(INT_IN), "company_vat_category": prop(INT_IN)})
WRITE_FIELDS = {
    "partner": prop(INT_IN), "invoice_number": prop(TEXT), "issued_at": prop(nullable(DATE)),
    "fulfilled_at": prop(nullable(DATE)), "due_at": prop(nullable(DATE)),
    "currency": prop(ID_IN), "exchange_rate": prop(common.RATE_IN),
    "payment_method": prop({"type": "string", "enum": ["transfer", "cash", "card", "cod"]}),
    "vat_area": prop({"type": "string", "enum": ["HU", "EU", "3RD"]}),
    "note": prop(TEXT), "secondary_id": prop(TEXT), "tags": TAG_IDS_IN,
    "simple_tags": TAG_IDS_IN, "custom_fields": prop({"type": "object"}),
    "accounting_id": prop(TEXT, T("Ha a cég használja.", "Where the company uses it.")),
    "vat_period_type": prop(nullable({"type": "string",
                                      "enum": ["monthly", "quarterly", "yearly"]})),
    "vat_period_started_at": prop(nullable(DATE), T("vat_period_type-pal együtt.",
                                                    "Together with vat_period_type.")),
}

SCHEMAS = {
    "ExpenseListRecord": obj({
        **COMMON, "partner": prop(INT), "currency": prop("integer"),
        "assignments": array(obj({**AMOUNTS, "expense_type": prop(INT),
                                  "ledger_number": prop(INT), "vat_ledger_number": prop(INT),
                                  "company_vat_category": prop(INT)}))},
        ("id", "has_artifact")),
    "ExpensePage": obj({
        "expenses": array(ref("ExpenseListRecord")),
        "expense_types": array(ref("NamedRef")), "tags": array(ref("NamedRef")),
        "partners": array(ref("NamedRef")),
    }, ("expenses",), T("A költségek és a hivatkozott azonosítók feloldótáblái.",
                        "The expenses and lookup tables for the ids they reference.")),
    "ExpenseDetail": obj({
        **COMMON, "partner": prop(nullable(ref("NamedRef"))),
        "currency": prop(obj({"id": ID, "code": prop("string"), "name": prop("string")})),
        "note": prop(TEXT), "processed": prop("boolean"), "checked": prop("boolean"),
        "booked": prop("boolean"), "custom_fields": prop({"type": "object"}),
        "assignments": array(obj({
            **AMOUNTS, "tags": array(ref("NamedRef")),
            "expense_type": prop(nullable(ref("NamedRef"))),
            "ledger_number": prop(CODED_REF), "vat_ledger_number": prop(CODED_REF),
            "company_vat_category": prop(CODED_REF)})),
        "actions": array(obj({"type": prop("string"), "created_at": TIMESTAMP,
                              "user": prop(TEXT)})),
        "payment_history": array(obj({
            "id": ID, "date": prop(DATE), "amount": AMOUNT, "currency": prop("string"),
            "method": prop(TEXT), "account": prop(INT)}), T(
            "Csak fields=payment_history esetén: a költséget fizető banki tételek.",
            "Only with fields=payment_history: the bank transactions that paid the expense.")),
        "editable_fields": array({"type": "string"}, T(
            "A most szerkeszthető mezők (bontás szintű mezők assignments.<mező> alakban).",
            "Fields editable now (assignment fields as assignments.<field>).")),
        "artifact_created_at": prop(TIMESTAMP, description=ARTIFACT),
        "artifact_filename": prop("string", ARTIFACT),
    }, ("id", "editable_fields", "has_artifact")),
    "ExpenseCreate": obj({
        "file": prop({"type": "string", "format": "binary"}, T(
            "Valódi PDF, JPEG, PNG vagy XML tartalom, a fájlnévtől függetlenül.",
            "Real PDF, JPEG, PNG or XML content, whatever the filename says.")),
        "data": prop("string", T("A mezők JSON-objektumként.", "The fields as a JSON object.")),
        **{key: prop("string") for key in ("invoice_number", "issued_at", "due_at", "note")},
    }, ("file",)),
    "ExpenseUpdate": obj({
        **WRITE_FIELDS,
        "excluded_from_accounting": prop("boolean", T(
            "Igaz érték: művelet; már kizárt költségen hiba.",
            "true is an action; on an already excluded expense it is an error.")),
        "assignments": prop({**array(ASSIGNMENT_INPUT), "minItems": 1}, T(
            "Ha elküldik, legalább egy elem; id-vel módosít, id nélkül hozzáad.",
            "When sent, at least one item; with an id it edits, without it adds.")),
    }, text=T("Részleges módosítás; csak az editable_fields mezői.",
              "Partial update; only the fields in editable_fields.")),
}
