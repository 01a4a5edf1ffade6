"""Schema of the income operations (spec 4.2); revenue types are in sandbox/catalog/schema.py."""
from __future__ import annotations

from sandbox.schema.components_common import page_number
from sandbox.schema.model import Op, T, boolean_query, date_query, query, ref
from sandbox.schema.params import FIELDS_EXPAND, INCOME_ID, ORDERING, PAGE_NUMBER

DATE_FIELD = query("date_field", {"type": "string", "enum": [
    "issued_at", "fulfilled_at", "due_at", "created_at"]},
    T("Melyik dátumra vonatkozik from_date és to_date (alapértelmezés: issued_at).",
      "Which date from_date and to_date apply to (default: issued_at)."))
LIST_FILTERS = (
    DATE_FIELD,
    date_query("from_date", T("Ettől a naptól (bezárólag).", "From this day (inclusive).")),
    date_query("to_date", T("Eddig a napig (bezárólag).", "Up to this day (inclusive).")),
    query("paid_status", "string", T("1 fizetetlen, 2 fizetve, 3 részben; több érték.",
                                     "1 unpaid, 2 paid, 3 partially paid; several values.")),
    date_query("due_at", T("Ezen a napon esedékes.", "Due on this day.")),
    query("payment_method", "string", T("transfer, cash, card, cod; több érték.",
                                        "transfer, cash, card, cod; several values.")),
    query("revenue_types", "string", T("Bevételtípus-azonosítók; egy bontás valamelyiket "
                                       "viseli.", "Revenue type ids; an assignment has one.")),
    query("tags", "string", T("Címke-azonosítók a bevételen, egyszerű címkéi vagy bontásai "
                              "között.", "Tag ids on the income, its simple tags or its "
                              "assignments.")),
    boolean_query("is_due_soon", T("Nincs kifizetve, és 7 napon belül esedékes.",
                                   "Not paid and due within 7 days.")),
    boolean_query("is_expired", T("Lejárt és nincs kifizetve (is_overdue élő neve).",
                                  "Past due and not paid (the live name of is_overdue).")),
    boolean_query("needs_review", T("Ellenőrzésre vár.", "Needs review.")),
    boolean_query("review_done", T("Ellenőrizve.", "Review done.")),
    boolean_query("is_cancelled", T("Sztornózva.", "Cancelled.")),
    boolean_query("is_overdue", T("Lejárt és nincs kifizetve.", "Past due and not paid.")),
    query("type", "string", T("Bevételfajta: 1, 2, 6, 7 (vesszős lista).",
                              "Income kind: 1, 2, 6, 7 (a comma list).")),
    query("invoice_type", "string", T("0 normál, 1 sztornó.", "0 normal, 1 storno.")),
    query("partner", "string", T("Partner-azonosítók; több érték.",
                                 "Partner ids; several values.")),
    query("currency", "string", T("Pénznem-azonosító vagy ISO-kód.", "Currency id or ISO code.")),
    query("source", "string", T("Forrás (manual, api, integráció).",
                                "Source (manual, api, an integration).")),
    query("invoice_number", "string", T("Pontos bizonylatszám.", "Exact document number.")),
    query("search", "string", T("Szöveg a bizonylatszámban vagy a partner nevében.",
                                "Text in the document number or the partner name.")),
    ORDERING,
)

OPERATIONS = (
    Op("GET", "/1/incomes/", "incomes_list", "Incomes", T("Bevételek listája", "List incomes"),
       T("Oldalszámozott; a results objektum incomes kulcsa alatt a bevételek, mellette a "
         "hivatkozott azonosítók feloldótáblái. A vat_percent lebegőpontos.",
         "Page-numbered; results.incomes holds the incomes beside lookup tables for the ids "
         "they reference. vat_percent is a float."),
       params=(*PAGE_NUMBER, *LIST_FILTERS), response=page_number(ref("IncomePage"))),
    Op("GET", "/1/incomes/{income_id}/", "incomes_retrieve", "Incomes",
       T("Egy bevétel részletei", "Income detail"),
       T("secondary_id és editable_fields is; fields=accounting hozzáadja az accounting_id és "
         "vat_period_ended_at mezőket.",
         "Includes secondary_id and editable_fields; fields=accounting adds accounting_id and "
         "vat_period_ended_at."),
       params=(INCOME_ID, FIELDS_EXPAND), response="IncomeDetail", errors=(401, 403)),
    Op("POST", "/2/incomes/create/", "incomes_create", "Incomes",
       T("Könyvelési bizonylat létrehozása", "Create an accounting document"),
       T("Egy tranzakció: fejléc, legalább egy bontás, tételek, számlakép. Más pénznemnél "
         "árfolyam kell. Létező bizonylatszám: 400 existing_income_id kulccsal. invoice_type 1 "
         "és referred_invoice_number: sztornó.",
         "One transaction: header, at least one assignment, items, invoice image. Another "
         "currency needs the exchange rate. An existing number: 400 with existing_income_id. "
         "invoice_type 1 with referred_invoice_number: a storno."),
       body="IncomeCreate", response="IncomeDetail", status=201),
    Op("PATCH", "/2/incomes/{income_id}/update/", "incomes_update", "Incomes",
       T("Bevétel módosítása", "Update an income"),
       T("Részleges; a tags, simple_tags és assignments listák teljes cserét jelentenek. A "
         "válasz a részletes nézet alakja.",
         "Partial; tags, simple_tags and assignments replace the whole set. Answers the detail "
         "shape."),
       params=(INCOME_ID, FIELDS_EXPAND), body="IncomeUpdate", response="IncomeDetail"),
)
