"""Schema of the ledger-number operations (live-only, docs/sandbox-operations.md; tag
Accounting, spec 9.4)."""
from __future__ import annotations

from sandbox.schema.components_catalog import one_or_many
from sandbox.schema.model import Op, T, array, path_param, ref

LEDGER_ID = path_param("ledger_number_id", T("A főkönyvi szám azonosítója.",
                                             "The ledger number id."))

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
)
