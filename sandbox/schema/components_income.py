"""Component schemas of incomes (spec 2.2): list record, detail, create and update payloads."""
from __future__ import annotations

from . import components_common as common
from .components_common import AMOUNT, AMOUNT_IN, DATE, ID, ID_IN, TAG_IDS, TAG_IDS_IN, TIMESTAMP
from .model import T, array, nullable, obj, prop, ref

TEXT = nullable({"type": "string"})
INT = nullable({"type": "integer"})
INT_IN = nullable(ID_IN)
NAMED = nullable(ref("NamedRef"))
VAT = prop(nullable(obj({"id": ID, "name": prop("string"), "percent": prop("number")})),
           T("ÁFA-kategória; a percent lebegőpontos.", "VAT category; percent is a float."))
TYPE = prop({"type": "integer", "enum": [1, 2, 6, 7]},
            T("1 számla, 2 könyvelési bizonylat, 6 nyugta, 7 gyűjtőnyugta.",
              "1 invoice, 2 accounting document, 6 cash receipt, 7 collective receipt."))
PARTNER_FIELDS = {key: prop(TEXT) for key in (
    "partner_name", "partner_zip_code", "partner_city", "partner_address", "partner_country",
    "partner_tax_number")}
HEADER = {
    "id": ID, "type": TYPE,
    "invoice_number": prop("string", T("Bizonylatszám.", "Document number.")),
    "invoice_type": prop("integer", T("0 normál, 1 sztornó.", "0 normal, 1 storno.")),
    "referred_invoice_number": prop(TEXT, T("A sztornózott bizonylat száma (max. 64).",
                                            "Number of the cancelled document (up to 64).")),
    **PARTNER_FIELDS,
    "net_amount": AMOUNT, "vat_amount": AMOUNT, "gross_amount": AMOUNT,
    "exchange_rate": prop("string", T("Árfolyam.", "Exchange rate.")),
    "issued_at": prop(nullable(DATE)), "fulfilled_at": prop(nullable(DATE)),
    "due_at": prop(nullable(DATE)), "planned_payment_date": prop(nullable(DATE)),
    "accounting_period_start": prop(nullable(DATE)), "accounting_period_end": prop(nullable(DATE)),
    "payment_method": prop(nullable({"type": "string"}), T("transfer, cash, card, cod.",
                                                           "transfer, cash, card, cod.")),
    "paid_status": prop("integer", T("1 fizetetlen, 2 fizetve, 3 részben.",
                                     "1 unpaid, 2 paid, 3 partially paid.")),
    "vat_area": prop("string", T("HU, EU vagy 3RD.", "HU, EU or 3RD.")),
    "is_cancelled": prop("boolean", T("Sztornózva.", "Cancelled.")),
    "needs_review": prop("boolean", T("Ellenőrzésre vár.", "Needs review.")),
    "review_done": prop("boolean", T("Ellenőrizve.", "Review done.")),
    "secondary_id": prop(TEXT, T("Másodlagos azonosító.", "Secondary id.")),
    "source": prop("string", T("Forrás: manual, api vagy integráció.",
                               "Source: manual, api or an integration.")),
    "integration_payment_method": prop(TEXT, T(
        "A fizetési mód az integráció (számlázó) szavával.",
        "The payment method as the integration (invoicing program) names it.")),
    "user_saw": prop(nullable({"type": "string", "format": "date-time"}), T(
        "Mikor nyitotta meg először a cég egy felhasználója a webes felületen.",
        "When a user of the company first opened it in the web app.")),
    "created_at": TIMESTAMP, "updated_at": TIMESTAMP,
}
LIST_ASSIGNMENT = obj({
    "id": ID, "revenue_type": prop(INT, T("Bevételtípus.", "Revenue type.")),
    "net_amount": AMOUNT, "vat_amount": AMOUNT, "gross_amount": AMOUNT, "vat": VAT,
    "tags": TAG_IDS, "job_number": prop(TEXT, T("Munkaszám.", "Job number.")),
    "ledger_number_id": prop(INT), "vat_ledger_number_id": prop(INT),
    "company_vat_category_id": prop(INT)})
ITEM = obj({"id": ID, "name": prop("string"), "quantity": prop("string"),
            "unit": prop(TEXT), "unit_price": AMOUNT, "net_amount": AMOUNT,
            "vat_amount": AMOUNT, "gross_amount": AMOUNT,
            "vat_percent": prop("number", T("ÁFA-kulcs (lebegőpontos).", "VAT rate (a float)."))})
ASSIGNMENT_INPUT = obj({
    "revenue_type": prop(ID_IN, T("Bevételtípus azonosítója.", "Revenue type id.")),
    "net_amount": AMOUNT_IN,
    "vat_amount": AMOUNT_IN,
    "gross_amount": AMOUNT_IN,
    "vat": prop(INT_IN, T("ÁFA-kategória azonosítója.", "VAT category id.")),
    "tags": TAG_IDS_IN, "job_number": prop(TEXT), "ledger_number_id": prop(INT_IN),
    "vat_ledger_number_id": prop(INT_IN, T("Csak bővített könyvelésnél.",
                                        "Advanced accounting only.")),
    "company_vat_category_id": prop(INT_IN, T("Csak bővített könyvelésnél.",
                                           "Advanced accounting only."))},
    ("revenue_type", "net_amount", "gross_amount"))
WRITE_FIELDS = {
    "invoice_number": prop({"type": "string", "minLength": 1, "maxLength": 100}),
    "invoice_type": prop({"type": "integer", "enum": [0, 1]}, T("1: sztornó.", "1: storno.")),
    "referred_invoice_number": prop(nullable({"type": "string", "maxLength": 64})),
    "net_amount": AMOUNT_IN,
    "vat_amount": AMOUNT_IN,
    "gross_amount": AMOUNT_IN,
    "currency": prop(ID_IN, T("Pénznem-azonosító.", "Currency id.")),
    "exchange_rate": prop(common.RATE_IN, T("Alapértelmezés 1.", "Default 1.")),
    "exchange_date": prop(nullable(DATE)), "issued_at": prop(DATE),
    "fulfilled_at": prop(nullable(DATE)), "due_at": prop(nullable(DATE)),
    "partner_id": prop(INT_IN), **PARTNER_FIELDS, "partner_account_number": prop(TEXT),
    "payment_method": prop(nullable({"type": "string",
                                     "enum": ["transfer", "cash", "card", "cod"]})),
    "vat_area": prop({"type": "string", "enum": ["HU", "EU", "3RD"]}),
    "note": prop(TEXT), "secondary_id": prop(TEXT), "tags": TAG_IDS_IN, "simple_tags": TAG_IDS_IN,
    "assignments": array(ASSIGNMENT_INPUT, T("Legalább egy bontás; a küldött lista lecseréli "
                                             "a régit.", "At least one; replaces them all.")),
    "is_cancelled": prop("boolean"), "needs_review": prop("boolean"),
    "review_done": prop("boolean"), "ledger_number_id": prop(INT_IN),
    "accounting_period_start": prop(nullable(DATE)), "accounting_period_end": prop(nullable(DATE)),
    "accounting_id": prop(TEXT), "vat_period_type": prop(nullable({
        "type": "string", "enum": ["monthly", "quarterly", "yearly"]})),
    "vat_period_started_at": prop(nullable(DATE)),
}

SCHEMAS = {
    "IncomeListRecord": obj({
        **HEADER, "partner": prop(INT, T("Partner-azonosító.", "Partner id.")),
        "currency": prop("integer", T("Pénznem-azonosító.", "Currency id.")),
        "tags": TAG_IDS, "simple_tags": TAG_IDS, "assignments": array(LIST_ASSIGNMENT),
        "items": array(ITEM)}, ("id", "type", "invoice_number", "gross_amount")),
    "IncomePage": obj({
        "incomes": array(ref("IncomeListRecord")),
        "revenue_types": array(ref("NamedRef")), "tags": array(ref("NamedRef")),
        "partners": array(ref("NamedRef")), "currencies": array(ref("Currency")),
    }, ("incomes",), T("A bevételek és a hivatkozott azonosítók feloldótáblái.",
                       "The incomes and lookup tables for the ids they reference.")),
    "IncomeDetail": obj({
        **HEADER, "partner_id": prop(INT), "partner": prop(NAMED),
        "partner_account_number": prop(TEXT), "paid_through": prop(TEXT), "note": prop(TEXT),
        "ledger_number_id": prop(INT), "ledger_number": prop(nullable(ref("LedgerNumber"))),
        "vat_period_type": prop(TEXT), "vat_period_started_at": prop(nullable(DATE)),
        "exchange_date": prop(nullable(DATE)), "currency": prop(NAMED),
        "tags": array(ref("NamedRef")), "simple_tags": array(ref("NamedRef")),
        "assignments": array(obj({**LIST_ASSIGNMENT["properties"], "revenue_type": prop(NAMED),
                                  "tags": array(ref("NamedRef"))})),
        "items": array(ITEM), "has_artifact": prop("boolean"),
        "editable_fields": array({"type": "string"}, T(
            "A most szerkeszthető mezők (bontás szintű mezők assignments.<mező> alakban).",
            "Fields editable now (assignment fields as assignments.<field>).")),
        "accounting_id": prop(TEXT, T("Csak fields=accounting mellett.",
                                      "Only with fields=accounting.")),
        "vat_period_ended_at": prop(nullable(DATE)),
    }, ("id", "type", "invoice_number", "editable_fields")),
    "IncomeCreate": obj({"income_type": prop({"type": "integer", "enum": [2]}), **WRITE_FIELDS,
                         "items": array(ITEM)},
                        ("invoice_number", "issued_at", "net_amount", "gross_amount",
                         "assignments")),
    "IncomeUpdate": obj(WRITE_FIELDS, text=T(
        "Részleges módosítás; csak az editable_fields mezői.",
        "Partial update; only the fields in editable_fields.")),
}
