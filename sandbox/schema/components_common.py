"""Shared component schemas: error bodies, references, amounts, dates, list envelopes."""
from __future__ import annotations

from .model import T, array, nullable, obj, prop, ref

ID = prop("integer", T("Azonosító.", "Identifier."))
AMOUNT = prop("string", T("Összeg tizedes szövegként, pl. \"1270.00\".",
                          "Amount as a decimal string, e.g. \"1270.00\"."))
DATE = prop("string", T("Dátum (ÉÉÉÉ-HH-NN).", "Date (YYYY-MM-DD)."), format="date")
TIMESTAMP = prop("string", T("Időbélyeg időzónával (ISO 8601).",
                             "Timestamp with a time zone (ISO 8601)."), format="date-time")
TAG_IDS = array({"type": "integer"}, T("Címke-azonosítók listája.", "List of tag ids."))
# Ids a client sends: row ids are positive and (as in DRF schemas) within 32 bits.
ID_IN = {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}
# Amounts a client sends: Numeric(14, 2), as a decimal string or a JSON number.
AMOUNT_IN = prop({"anyOf": [{"type": "string", "pattern": r"^-?[0-9]{1,12}(\.[0-9]{1,2})?$"},
                            {"type": "number", "minimum": -1e11, "maximum": 1e11}]},
                 T("Összeg: tizedes szöveg vagy szám.", "Amount: a decimal string or a number."))
# Exchange rates a client sends: DecimalField(14, 6), as a decimal string or a JSON number,
# above 0 and at most 8 digits before the point either way.
RATE_MAX = 99999999.999999
RATE_IN = {"anyOf": [{"type": "string", "pattern": r"^[0-9]{1,8}(\.[0-9]{1,6})?$"},
                     {"type": "number", "exclusiveMinimum": 0, "maximum": RATE_MAX}]}
TAG_IDS_IN = array(ID_IN, T("Címke-azonosítók listája.", "List of tag ids."))
NEXT = prop(nullable({"type": "string"}), T("A következő oldal címe vagy null.",
                                            "URL of the next page, or null."))
PREVIOUS = prop(nullable({"type": "string"}), T("Az előző oldal címe vagy null.",
                                                "URL of the previous page, or null."))


def page_number(results: dict) -> dict:
    """The /1/ list envelope: count, next, previous, results."""
    return obj({"count": prop("integer", T("Találatok száma.", "Number of matches.")),
                "next": NEXT, "previous": PREVIOUS, "results": results},
               required=("count", "next", "previous", "results"))


def cursor(results: dict) -> dict:
    """The /2/ list envelope: next, previous, results (no count)."""
    return obj({"next": NEXT, "previous": PREVIOUS, "results": results},
               required=("next", "previous", "results"))


SCHEMAS = {
    "Detail": obj({"detail": prop("string", T("A hiba szövege.", "The error text."))},
                  required=("detail",)),
    "ValidationError": prop({"anyOf": [obj({
        "non_field_errors": array({"type": "string"},
                                  T("Nem mezőhöz kötött hibák.", "Errors not tied to a field.")),
    }), array({"type": "object"})]}, T(
        "Mezőnkénti hibalisták; néhány hiba további kulcsot hoz (pl. existing_income_id). "
        "Listás kérésre tételenkénti lista.",
        "Error lists keyed by field; some errors add keys (e.g. existing_income_id). For a list "
        "request, one entry per item.")),
    "NamedRef": obj({"id": ID, "name": prop("string", T("Név.", "Name."))}, required=("id",)),
    "LookupTables": obj({
        "tags": array(ref("NamedRef"), T("Az oldalon hivatkozott címkék.",
                                         "Tags referenced on the page.")),
        "revenue_types": array(ref("NamedRef"), T("Hivatkozott bevételtípusok.",
                                                  "Referenced revenue types.")),
        "expense_types": array(ref("NamedRef"), T("Hivatkozott költségtípusok.",
                                                  "Referenced expense types.")),
    }),
    "IdList": obj({"ids": array({"type": "integer"}, T("Azonosítók.", "Ids."))},
                  required=("ids",)),
}
