"""Operations on expenses (spec 4.3); the /1/ list and detail are deprecated (spec 9.2)."""
from __future__ import annotations

from sandbox.schema.components_common import cursor, page_number
from sandbox.schema.model import Op, T, array, boolean_query, date_query, query, ref
from sandbox.schema.params import CURSOR_PAGE, EXPENSE_ID, FIELDS_EXPAND, PAGE, PAGE_NUMBER

BULK = ("approve", "unapprove", "check", "uncheck", "export", "quarantine-accept")
LIVE_FLAGS = ("has_accounting_id", "has_accounting_todo", "has_approvals", "has_artifact",
              "has_attachment", "has_expense_type", "has_post_it",
              "has_unfinished_accounting_todo", "has_vat_period", "is_accounting_exported",
              "is_accounting_todo_done", "is_approved", "is_duplicate",
              "is_excluded_from_accounting", "is_expired", "is_expiring", "is_filed",
              "is_incomplete", "is_nav", "is_new", "is_processed", "is_ready_to_acounto_sync",
              "is_ready_to_sync", "is_synced", "is_updated")
LIST_TEXT_LIVE = T("Ismételt kulcs vagy vesszős lista.", "Repeated keys or a comma list.")
LIVE_FILTERS = (
    *(boolean_query(name, T("Élő API szűrő (docs/sandbox-operations.md).",
                            "Live API filter (docs/sandbox-operations.md)."))
      for name in LIVE_FLAGS),
    *(query(name, "string", LIST_TEXT_LIVE) for name in (
        "ids", "without_ids", "currency_id", "with_tag_ids", "without_tag_ids",
        "with_expense_type_ids", "without_expense_type_ids", "payment_method", "vat_area",
        "origin", "with_approvers", "without_approvers", "custom_fields", "search_fields",
        "ordering")),
    query("gross_amount_min", "number", T("Legalább ekkora bruttó összeg.",
                                          "Gross amount at least.")),
    query("gross_amount_max", "number", T("Legfeljebb ekkora bruttó összeg.",
                                          "Gross amount at most.")),
    query("expired_days", {"type": "integer", "minimum": 0},
          T("Legalább ennyi napja lejárt.", "Overdue by at least this many days.")),
    query("expiring_days", {"type": "integer", "minimum": 0},
          T("Ennyi napon belül jár le (alapértelmezés 7).", "Due within this many days "
            "(default 7).")),
)

STAMP = {"type": "string", "format": "date-time"}
DATE_RANGE = (
    query("date_field", {"type": "string", "enum": ["created_at", "issued_at", "fulfilled_at",
                                                    "due_at"]},
          T("Melyik dátumra vonatkozik from_date és to_date.",
            "Which date from_date and to_date apply to.")),
    query("from_date", STAMP, T("Ettől (bezárólag).", "From (inclusive).")),
    query("to_date", STAMP, T("Eddig (bezárólag).", "Up to (inclusive).")),
)
FILTERS = (
    boolean_query("is_paid", T("Kifizetve.", "Paid.")),
    boolean_query("is_installment", T("Részben fizetve.", "Partially paid.")),
    query("updated_since", STAMP, T(
        "ISO 8601 időbélyeg, zóna nélkül UTC; a + jelet %2B-ként kell küldeni. Túl régi érték: "
        "400, teljes újraszinkron kell.",
        "ISO 8601 timestamp, UTC without a zone; send + as %2B. Too old: 400, a full resync "
        "is required.")),
    *DATE_RANGE,
    query("search", "string", T("Szöveg az egyedi mezőkben, a számlaszámban, a partner nevében.",
                                "Text in custom fields, the invoice number, the partner name.")),
    query("min_amount", "number", T("Legalább ekkora bruttó összeg.", "Gross amount at least.")),
    query("max_amount", "number", T("Legfeljebb ekkora bruttó összeg.", "Gross amount at most.")),
    *LIVE_FILTERS,
)
V1_FLAGS = ("is_approved", "is_due_soon", "is_excluded_from_accounting", "is_expired",
            "is_exported", "is_incomplete", "is_new", "is_processed", "needs_review")
# The filters the live /1/ list describes; the /2/ ones are not read there.
V1_FILTERS = (
    *DATE_RANGE,
    *(boolean_query(name, T("Élő API szűrő (docs/sandbox-operations.md).",
                            "Live API filter (docs/sandbox-operations.md).")) for name in V1_FLAGS),
    *(query(name, "string", LIST_TEXT_LIVE) for name in (
        "expense_types", "paid_status", "partner", "payment_method", "tags", "ordering")),
    *(date_query(name, T("Ezen a napon.", "On this day.")) for name in (
        "created", "due_at", "fulfilled_at")),
    *(query(name, "string", T("Pontos egyezés.", "Exact match.")) for name in (
        "invoice_number", "filing_number")),
)
LIST_TEXT = T("Kurzoros lapozás (nincs count); a results objektum expenses kulcsa alatt a "
              "költségek, mellette feloldótáblák.",
              "Cursor paging (no count); results.expenses holds the expenses beside lookup "
              "tables.")

OPERATIONS = (
    Op("GET", "/2/expenses/", "expenses_list", "Expenses", T("Költségek listája",
                                                             "List expenses"), LIST_TEXT,
       params=(*CURSOR_PAGE, PAGE, *FILTERS), response={"anyOf": [
           cursor(ref("ExpensePage")), page_number(ref("ExpensePage"))]}),
    Op("GET", "/2/expenses/{expense_id}/", "expenses_retrieve", "Expenses",
       T("Egy költség részletei", "Expense detail"),
       T("editable_fields is; a csatolmány mezői csak has_artifact esetén.",
         "Includes editable_fields; artifact fields only when has_artifact is true."),
       params=(EXPENSE_ID, FIELDS_EXPAND), response="ExpenseDetail", errors=(401, 403)),
    Op("POST", "/2/expenses/create/", "expenses_create", "Expenses",
       T("Költség létrehozása fájllal", "Create an expense with its file"),
       T("multipart/form-data; a file rész tartalma valódi PDF, JPEG, PNG vagy XML legyen, "
         "különben 400.",
         "multipart/form-data; the file part must really be PDF, JPEG, PNG or XML, otherwise "
         "400."),
       body="ExpenseCreate", body_type="multipart/form-data",
       response={"anyOf": [ref("ExpenseDetail"), ref("ProcessedIds")]}, status=201,
       extra={"requestBody": {"required": True, "content": {
           "multipart/form-data": {"schema": ref("ExpenseCreate")},
           "application/json": {"schema": ref("FileUpload")}}}}),
    *(Op("POST", f"/1/expenses/{action}/", f"expenses_{action.replace('-', '_')}",
         "Expenses", T(f"Tömeges művelet: {action}", f"Bulk action: {action}"),
         T("Azonosítónként siker vagy hiba; a sikerek egy tranzakcióban.",
           "Success or failure per id; the successes in one transaction."),
         body="IdList", response="QuarantineResult" if action == "quarantine-accept"
         else "BulkActionResult") for action in BULK),
    Op("POST", "/2/expenses/artifact-search/", "expenses_artifact_search", "Expenses",
       T("Költségfájl keresése név és méret szerint", "Find an expense file by name and size"),
       body="SameFileQuery", response=array(ref("ArtifactMatch"))),
    Op("PATCH", "/2/expenses/{expense_id}/update/", "expenses_update", "Expenses",
       T("Költség módosítása", "Update an expense"),
       T("Az editable_fields mezői; a főkönyvi szám ellenőrzött és integrációs költségen "
         "rögzített.",
         "The fields in editable_fields; ledger_number is frozen on checked and "
         "integration-synced expenses."),
       params=(EXPENSE_ID,), body="ExpenseUpdate", response="ExpenseDetail"),
    Op("GET", "/1/expenses/", "expenses_list_v1", "Expenses",
       T("Költségek listája (elavult)", "List expenses (deprecated)"),
       params=(*PAGE_NUMBER, *V1_FILTERS),
       response=page_number(array(ref("ExpenseListRecord"))),
       successor="expenses_list"),
    Op("GET", "/1/expenses/{expense_id}/", "expenses_retrieve_v1", "Expenses",
       T("Egy költség részletei (elavult)", "Expense detail (deprecated)"),
       params=(EXPENSE_ID,), response="ExpenseDetail", errors=(401, 403),
       successor="expenses_retrieve"),
)
