"""Operations under Accounting: ledger numbers and company VAT categories (spec 4.8, 9.4)."""
from __future__ import annotations

from .components_catalog import one_or_many
from .model import Op, T, array, path_param, query, ref
from .params import VAT_CATEGORY_ID

LEDGER_ID = path_param("ledger_number_id", T("A főkönyvi szám azonosítója.",
                                             "The ledger number id."))
VAT_TYPE = query("type", {"type": "string", "enum": ["cost", "revenue"]},
                 T("Csak költség vagy csak bevétel kategóriák.", "Only cost or revenue ones."))

OPERATIONS = (
    Op("GET", "/2/accounting/ledger-numbers/", "ledger_numbers_list", "Accounting",
       T("Főkönyvi számok", "Ledger numbers"),
       T("Kód szerint rendezve; a kód lehet null, a név nem feltétlenül egyedi.",
         "Ordered by code; the code may be null and names need not be unique."),
       response=array(ref("LedgerNumber")), errors=(401, 403)),
    Op("POST", "/2/accounting/ledger-numbers/create/", "ledger_numbers_create", "Accounting",
       T("Főkönyvi szám létrehozása", "Create ledger numbers"),
       T("Élő API: 200; a hibás tételek és foglalt kódok a not_created_ledger_numbers "
         "listába kerülnek, a többi létrejön.",
         "Live API: 200; invalid items and taken codes go to not_created_ledger_numbers, the "
         "rest are created."),
       body=one_or_many("LedgerNumberInput", "ledger_numbers"),
       response="LedgerNumberCreateResult"),
    Op("POST", "/2/accounting/ledger-numbers/update/{ledger_number_id}/",
       "ledger_numbers_update", "Accounting",
       T("Főkönyvi szám módosítása", "Update a ledger number"),
       params=(LEDGER_ID,), body="LedgerNumberUpdate", response="LedgerNumber"),
    Op("POST", "/2/accounting/ledger-numbers/delete/", "ledger_numbers_delete", "Accounting",
       T("Főkönyvi számok törlése", "Delete ledger numbers"),
       T("204; ismeretlen, idegen vagy használt azonosító esetén semmi sem törlődik (400, "
         "failed_ids).", "204; with an unknown, foreign or used id nothing is deleted (400, "
         "failed_ids)."),
       body="IdList", status=204),
    Op("GET", "/2/accounting/vat-categories/", "vat_categories_list", "Accounting",
       T("A cég ÁFA-kategóriái", "Company VAT categories"),
       T("A type mező (cost vagy revenue) itt csak olvasható.",
         "The type field (cost or revenue) is read-only here."),
       params=(VAT_TYPE,), response=array(ref("VatCategory")), errors=(400, 401, 403)),
    Op("POST", "/2/accounting/vat-categories/create/", "vat_categories_create", "Accounting",
       T("ÁFA-kategória létrehozása", "Create VAT categories"),
       T("A type opcionális (alapértelmezés: cost); a válasz created_vat_categories listája "
         "teljes kategóriákat tartalmaz.",
         "type is optional (default cost); the answer's created_vat_categories holds full "
         "categories."),
       body=one_or_many("VatCategoryInput", "vat_categories"),
       response="VatCategoryCreateResult"),
    Op("POST", "/2/accounting/vat-categories/delete/", "vat_categories_delete", "Accounting",
       T("ÁFA-kategóriák törlése", "Delete VAT categories"),
       T("204; ismeretlen, idegen vagy használt azonosító esetén semmi sem törlődik (400).",
         "204; with an unknown, foreign or used id nothing is deleted (400)."),
       body="IdList", status=204),
    Op("POST", "/2/accounting/vat-categories/update/{vat_category_id}/",
       "vat_categories_update", "Accounting",
       T("ÁFA-kategória módosítása", "Update a VAT category"),
       T("A type itt módosítható.", "type can be changed here."),
       params=(VAT_CATEGORY_ID,), body="VatCategoryUpdate", response="VatCategory"),
)
