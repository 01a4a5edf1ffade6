"""Component schemas of the small catalogues: tags, types, VAT categories, ledger numbers."""
from __future__ import annotations

from .components_common import ID
from .model import T, array, nullable, obj, prop, ref

NAME = prop({"type": "string", "minLength": 1, "maxLength": 100}, T("Név.", "Name."))
EXTERNAL = prop("boolean", T("API-n át létrehozva vagy módosítva; nem törlődik magától.",
                             "Created or edited through the API; never removed automatically."))
IDS = array({"type": "integer"}, T("Azonosítók.", "Ids."))


def one_or_many(item: str, key: str) -> dict:
    """A body of one object, a list of them, or {key: [...]}."""
    return {"anyOf": [ref(item), array(ref(item)), obj({key: array(ref(item))}, (key,))]}


def one_or_list(item: str) -> dict:
    """An answer of one object or a list (it mirrors the request)."""
    return {"anyOf": [ref(item), array(ref(item))]}


VAT_FIELDS = {
    "name": NAME,
    "percent": prop({"type": "number", "minimum": 0, "maximum": 100},
                    T("Kulcs százalékban (lebegőpontos).", "Rate in percent (a float).")),
    "vat_area": prop({"type": "string", "enum": ["HU", "EU", "3RD"]}, T("ÁFA-terület.",
                                                                       "VAT area.")),
    "country": prop({"type": "string", "pattern": "^[A-Z]{2}$"}, T("Országkód.",
                                                                  "Country code.")),
    "code": prop(nullable({"type": "string", "minLength": 1, "maxLength": 20}),
                 T("A könyvelőprogram kódja.", "The accounting program's code.")),
    "type": prop({"type": "string", "enum": ["cost", "revenue"]},
                 T("Költség vagy bevétel (alapértelmezés: cost).",
                   "Cost or revenue (default: cost).")),
}

SCHEMAS = {
    "Tag": obj({"id": ID, "name": NAME, "is_external": EXTERNAL}, ("id", "name", "is_external")),
    "TagInput": obj({"name": NAME}, ("name",)),
    "TagUpdate": obj({"id": ID, "name": NAME}, ("id", "name")),
    "TagDeleteResult": obj({
        "deleted": array({"type": "integer"}, T("Törölt címkék.", "Deleted tags.")),
        "not_deleted": array({"type": "integer"}, T("Hivatkozott vagy ismeretlen címkék.",
                                                    "Referenced or unknown tags.")),
    }, ("deleted", "not_deleted")),
    "TypeRecord": obj({"id": ID, "name": NAME, "is_external": EXTERNAL},
                      ("id", "name", "is_external")),
    "TypeInput": obj({"name": NAME}, ("name",)),
    "TypeUpdate": obj({"id": ID, "name": NAME}, ("id", "name")),
    "TypeUpdateResult": obj({
        "updated": array(ref("TypeRecord"), T("Módosított típusok.", "Updated types.")),
        "failed_ids": array({"type": "integer"}, T("Nem módosított azonosítók.",
                                                   "Ids not updated.")),
    }, ("updated", "failed_ids")),
    "BulkDeleteResult": obj({
        "deleted": array({"type": "integer"}, T("Törölt azonosítók.", "Deleted ids.")),
        "failed_ids": array({"type": "integer"}, T(
            "Ismeretlen, más céghez tartozó vagy használt azonosítók.",
            "Unknown, foreign or referenced ids.")),
    }, ("deleted", "failed_ids")),
    "Currency": obj({"id": ID, "code": prop("string", T("ISO pénznemkód.", "ISO currency code.")),
                     "name": prop("string", T("Megnevezés.", "Name."))}, ("id", "code")),
    "VatCategory": obj({"id": ID, **VAT_FIELDS}, ("id", "name", "percent", "type")),
    "VatCategoryInput": obj(VAT_FIELDS, ("name", "percent")),
    "VatCategoryUpdate": obj(VAT_FIELDS),
    "VatCategoryCreateResult": obj({
        "created_vat_categories": array(ref("VatCategory")),
        "not_created_vat_categories": array(obj({
            "code": prop(nullable({"type": "string"})), "name": prop(nullable({"type": "string"})),
            "reason": prop("string")}, ("reason",)))}, ("created_vat_categories",)),
    "LedgerNumber": obj({"id": ID, "name": NAME,
                         "code": prop(nullable({"type": "string"}), T("Főkönyvi kód.",
                                                                      "Ledger code."))},
                        ("id", "name", "code")),
    "LedgerNumberInput": obj({"name": NAME, "code": prop(nullable({"type": "string"}))},
                             ("name",)),
    "LedgerNumberUpdate": obj({"name": NAME, "code": prop(nullable({"type": "string"}))}),
}
