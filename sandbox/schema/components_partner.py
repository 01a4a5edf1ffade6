"""Component schemas of partners (spec 2.4), taxes and salaries (2.9, 2.10) and artifacts (2.11)."""
from __future__ import annotations

from .components_common import (
    AMOUNT,
    AMOUNT_IN,
    DATE,
    ID,
    RATE_IN,
    TAG_IDS,
    TAG_IDS_IN,
    TIMESTAMP,
    page_number,
)
from .model import T, array, nullable, obj, prop, ref

TEXT = nullable({"type": "string"})
TEXT_IN = nullable({"type": "string", "minLength": 1, "maxLength": 200})
PARTNER_TEXT = ("name", "tax_number", "eu_tax_number", "zip_code", "city", "address", "country",
                "email", "phone", "default_account_number", "default_account_name")
FLAGS = {"is_customer": prop("boolean", T("Vevő.", "Customer.")),
         "is_vendor": prop("boolean", T("Szállító.", "Vendor."))}
TAX_NUMBER = T("Magyar adószámból a kötőjelek mentéskor törlődnek.",
               "Dashes are removed from a Hungarian tax number on save.")
RECORD_FIELDS = {
    "month": prop(DATE, T("A fizetés hónapjának első napja.",
                          "First day of the payment month.")),
    "amount": AMOUNT, "paid_status": prop("integer", T("1 fizetetlen, 2 fizetve, 3 részben.",
                                                       "1 unpaid, 2 paid, 3 partially paid.")),
    "code": prop(TEXT, T("Adókód; név és főkönyvi szám helyett.",
                         "Tax code; instead of name and account number.")),
    "name": prop(TEXT), "account_number": prop(TEXT),
    "source": prop("string", T("manual vagy egy integráció neve.",
                               "manual or the name of an integration.")),
    "description": prop(TEXT), "tags": TAG_IDS, "simple_tags": TAG_IDS,
    "tax_number": prop(TEXT, T("Csak bérköltségnél; havonta egyszer.",
                               "Salaries only; once per month.")),
    "due_at": prop(nullable(DATE)), "editable_fields": array({"type": "string"}),
    "title": prop(nullable(DATE), T("A hónap, amelyre a tétel vonatkozik.",
                                    "The month the item belongs to.")),
    "currency": prop("string", T("A cég pénzneme.", "The company's currency.")),
    "exchange_rate": prop("string"), "external_id": prop(TEXT),
}
RECORD_INPUT = {
    "month": prop(DATE), "amount": AMOUNT_IN,
    "title": prop(DATE, T("A hónap, amelyre vonatkozik; fizetési hónap nélkül az utána "
                          "következő hónap.", "The month it belongs to; without a payment "
                          "month the next month is paid.")),
    "exchange_rate": prop(RATE_IN),
    "external_id": prop(TEXT_IN),
    "paid_status": prop({"type": "integer", "enum": [1, 2, 3]}),
    "code": prop(TEXT, T("Nem küldhető együtt name vagy account_number mezővel.",
                         "Cannot be sent with name or account_number.")),
    "name": prop(TEXT_IN), "account_number": prop(TEXT_IN), "description": prop(TEXT_IN),
    "tags": TAG_IDS_IN, "simple_tags": TAG_IDS_IN,
    "tax_number": prop(TEXT_IN, T("Bérköltségnél a /2/ létrehozáskor kötelező (a /1/ nem "
                                  "kéri); havonta egyszer.",
                                  "Required for salaries on the /2/ create (/1/ does not ask "
                                  "for it); once per month.")),
    "due_at": prop(nullable(DATE)),
}


def month_schema(records: str) -> dict:
    """One month: totals, and its records (under `records`) with fields=."""
    names = records.split("|")
    return obj({"month": prop(DATE), "amount": AMOUNT, "paid_status": prop("integer"),
                "count": prop("integer"), "due_at": prop(nullable(DATE)),
                **{name: array(ref("TaxRecord"), T("Csak fields= megadásakor.",
                                                   "Only when fields= names them."))
                   for name in names},
                "tags": array(ref("NamedRef"))}, ("month", "amount", "paid_status"))


def monthly(key: str, records: str) -> dict:
    """{<key>: [month...], tags: [{id, name}]}; months carry records with fields=<records>."""
    return obj({key: array(month_schema(records)), "tags": array(ref("NamedRef"))},
               (key, "tags"))


SCHEMAS = {
    "Partner": obj({"id": ID, **{k: prop(TEXT) for k in PARTNER_TEXT}, **FLAGS,
                    "account_number": prop(TEXT, T(
                        "A default_account_number, ahogy az élő lista nevezi.",
                        "default_account_number as the live list names it.")),
                    "source": prop("string"), "created_at": TIMESTAMP,
                    "version": prop("integer")}, ("id", "name", "is_customer", "is_vendor")),
    "PartnerInput": obj({**{k: prop(TEXT_IN) for k in PARTNER_TEXT}, **FLAGS,
                         "tax_number": prop(TEXT_IN, TAX_NUMBER)}, ("name",), T(
        "Legalább az egyik: is_customer, is_vendor. Üres szöveg helyett null törli a mezőt.",
        "At least one of is_customer and is_vendor. Null, not an empty string, clears.")),
    "PartnerUpdate": obj({**{k: prop(TEXT_IN) for k in PARTNER_TEXT}, **FLAGS,
                          "tax_number": prop(TEXT_IN, TAX_NUMBER)}),
    "TaxRecord": obj({"id": ID, **RECORD_FIELDS}, ("id", "month", "amount")),
    "TaxInput": obj(RECORD_INPUT, ("amount",), T(
        "currency nem küldhető; month helyett title vagy due_at is elég.",
        "currency is not accepted; title or due_at may stand in for month.")),
    "TaxUpdate": obj({"id": ID, **RECORD_INPUT}, ("id",), T(
        "Integrációból jött tételen csak a címkék változnak.",
        "On an integration-synced record only tags change.")),
    "TaxMonth": month_schema("taxes|salaries"),
    "MonthlyTaxes": monthly("monthly_taxes", "taxes"),
    "MonthlySalaries": monthly("monthly_salaries", "salaries"),
    "TaxCode": obj({"code": prop("string"), "name": prop("string"),
                    "account_number": prop(TEXT)}, ("code",)),
    "Artifact": obj({
        "id": ID, "has_artifact": prop("boolean"),
        "filename": prop("string", T("Csak ha has_artifact igaz.",
                                     "Only when has_artifact is true.")),
        "extension": prop("string"),
        "url": prop("string", T("Előre aláírt, token nélküli, lejáró letöltési cím.",
                                "Pre-signed, token-free, expiring download URL.")),
        "expires_at": TIMESTAMP}, ("id", "has_artifact")),
    "ArtifactPage": page_number(array(ref("Artifact"))),
}
