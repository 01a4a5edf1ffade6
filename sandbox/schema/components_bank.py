"""Component schemas of the live-only families: bank, audit exports, bulk expense actions."""
from __future__ import annotations

from .components_common import AMOUNT, DATE, ID, TIMESTAMP
from .model import T, array, nullable, obj, prop, ref

TEXT = nullable({"type": "string"})
IDS = array({"type": "integer"})
RATE = prop("string", T("Árfolyam tizedes szövegként.", "Exchange rate as a decimal string."))
FILE_ITEM = obj({"content": prop("string", T("A fájl base64 kódolva.", "The file, base64.")),
                 "filename": prop("string")}, ("content",))


def no_content(status: int, text: T, errors: tuple[int, ...] = (400, 401, 403)) -> dict:
    """An operation's responses when success carries no body (live: attach, audit upload)."""
    found: dict = {str(status): {"description": text}}
    found.update({str(code): {"$ref": f"#/components/responses/Error{code}"} for code in errors})
    return {"responses": found}


SCHEMAS = {
    "BankAccount": obj({"id": ID, "account_number": prop("string"), "name": prop("string")},
                       ("id", "account_number", "name")),
    "BankPayment": obj({
        "id": ID, "date": prop(DATE), "account": prop("integer", T("A bankszámla azonosítója.",
                                                                   "The bank account id.")),
        "transactions": array(obj({
            "id": ID, "expense_id": prop(nullable({"type": "integer"}), T(
                "A kifizetett költség; null, ha a tétel még nincs költséghez rendelve.",
                "The expense paid; null while the transaction is not matched to one.")),
            "amount": AMOUNT, "partner": prop("string"), "currency": prop("string"),
            "invoice_number": prop("string"), "exchange_rate": RATE},
            ("id", "expense_id", "amount")))}, ("id", "date", "account", "transactions"),
        T("Egy számla egy napjának terhelései.", "What left one account on one day.")),
    "Pulse": obj({
        "summary": prop("integer", T("Az egyenlegek összege a cég pénznemében, egészre "
                                     "kerekítve.", "The balances' sum in the company's "
                                     "currency, rounded to whole units.")),
        "accounts": array(obj({"id": ID, "name": prop("string"),
                               "account_number": prop("string"), "currency": prop("string"),
                               "current_balance": AMOUNT, "last_updated": TIMESTAMP},
                              ("id", "current_balance")))}, ("summary", "accounts")),
    "AuditXmlUpload": obj({"audit_xmls": array(FILE_ITEM)}, ("audit_xmls",)),
    "FileUpload": obj({"expenses": array(FILE_ITEM), "source": prop("string")},
                      ("expenses",), T("Élő API: JSON, base64 tartalommal.",
                                       "Live API: JSON with base64 content.")),
    "ProcessedIds": obj({"processed": IDS}, ("processed",)),
    "BulkActionResult": obj({
        "success_ids": IDS, "failed_ids": IDS,
        "errors": array(obj({"id": ID, "errors": array({"type": "string"})}))},
        ("success_ids", "failed_ids", "errors")),
    "QuarantineResult": obj({"success_ids": IDS, "success_count": prop("integer"),
                             "failure_count": prop("integer")},
                            ("success_ids", "success_count", "failure_count")),
    "SameFileQuery": obj({"name": prop("string", T("Fájlnév.", "File name.")),
                          "size": prop({"type": "integer", "minimum": 0},
                                       T("Méret bájtban.", "Size in bytes.")),
                          "company_ids": IDS}, ("name", "size")),
    "ArtifactMatch": obj({"expense_id": ID, "company_id": ID, "filename": prop("string"),
                          "size": prop("integer"), "created_at": prop(nullable(TIMESTAMP))},
                         ("expense_id",)),
    "LedgerNumberCreateResult": obj({
        "created_ledger_numbers": array(ref("LedgerNumber")),
        "not_created_ledger_numbers": array(obj({"code": prop(TEXT), "name": prop(TEXT),
                                                 "reason": prop("string")}, ("reason",)))},
        ("created_ledger_numbers", "not_created_ledger_numbers")),
}
