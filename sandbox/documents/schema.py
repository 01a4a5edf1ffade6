"""Documents (spec 4.9): attached and unattached files with token-free download links."""
from __future__ import annotations

from sandbox.schema.components_bank import no_content
from sandbox.schema.components_common import ID, TIMESTAMP, cursor
from sandbox.schema.model import (
                                  Op,
                                  T,
                                  array,
                                  boolean_query,
                                  nullable,
                                  obj,
                                  path_param,
                                  prop,
                                  query,
                                  ref,
)
from sandbox.schema.params import CURSOR_PAGE

DOCUMENT_ID = path_param("document_id", T("A dokumentum azonosítója.", "The document id."))
TEXT = prop("string")
DESCRIPTIVE = {
    "title": TEXT, "summary": TEXT, "document_type_id": prop(nullable({"type": "integer"})),
    "keywords": array({"type": "string"}), "simple_tag_ids": array({"type": "integer"}),
    "sender": TEXT, "recipient": TEXT, "contains_payable": prop("boolean")}
DETAIL = obj({"id": ID, **DESCRIPTIVE}, ("id",))
FLAGS = ("is_new", "is_updated", "contains_payable", "is_ai_recognition_allowed", "is_filed",
         "is_attached")
LISTS = ("ids", "with_tag_ids", "without_tag_ids", "with_document_type_ids",
         "without_document_type_ids", "origin", "search_fields")
FILTER_TEXT = T("Ismételt kulcs vagy vesszős lista.", "Repeated keys or a comma list.")
FILTER_PARAMS = (
    *(boolean_query(name, T("Élő API szűrő.", "Live API filter.")) for name in FLAGS),
    *(query(name, "string", FILTER_TEXT) for name in LISTS),
    query("from_date", {"type": "string", "format": "date"}, T("Ettől.", "From.")),
    query("to_date", {"type": "string", "format": "date"}, T("Eddig.", "Up to.")),
    query("date_field", {"type": "string", "enum": ["created_at", "updated_at"]},
          T("Melyik dátumra szűr.", "Which date the range applies to.")),
    query("search", "string", T("Szövegrész.", "Text.")),
    query("ordering", "string", T("Rendezés; - előtag: csökkenő.", "Ordering; - descends.")))
FILTER_BODY = obj({
    **{name: prop("boolean") for name in FLAGS},
    **{name: array({"type": "integer"} if "ids" in name else {"type": "string"})
       for name in LISTS},
    "from_date": TEXT, "to_date": TEXT, "date_field": TEXT, "search": TEXT, "ordering": TEXT,
    "target_type": prop({"type": "string", "enum": ["expense", "income"]}),
    "target_id": prop("integer")}, (), T(
        "Legalább egy szűrő kötelező; csatolásnál target_type és target_id is.",
        "At least one filter is required; attach also needs target_type and target_id."))
CREATE_BODY = obj({"documents": array(obj({
    "content": prop("string", T("base64", "base64")), "filename": TEXT, **DESCRIPTIVE},
    ("content",))), "source": TEXT}, ("documents",))
PROCESSED = obj({"processed": array(obj({
    "success": prop("boolean"), "id": prop("integer"), "reason": TEXT}, ("success",)))},
    ("processed",))

DOCUMENT = obj({
    "id": ID, "filename": prop("string"), "extension": prop(nullable({"type": "string"})),
    "size": prop("integer", T("Méret bájtban.", "Size in bytes.")),
    "is_attached": prop("boolean", T("Költséghez vagy bevételhez csatolva.",
                                     "Attached to an expense or an income.")),
    "attached_to": prop(nullable(obj({"type": prop("string"), "id": ID}))),
    "created_at": TIMESTAMP,
    "url": prop("string", T("Előre aláírt, token nélküli, lejáró letöltési cím.",
                            "Pre-signed, token-free, expiring download URL.")),
    "expires_at": TIMESTAMP}, ("id", "is_attached"))

OPERATIONS = (
    Op("GET", "/2/documents/", "documents_list", "Documents",
       T("Dokumentumok", "List documents"),
       T("Alapértelmezésben csatolt és nem csatolt dokumentumok; kurzoros lapozás.",
         "Attached and unattached documents by default; cursor paging."),
       params=(*CURSOR_PAGE, boolean_query("is_attached", T("Csatolt-e.", "Attached or not."))),
       response=cursor(array(DOCUMENT))),
    Op("GET", "/1/documents/", "documents_list_v1", "Documents",
       T("Dokumentumok szűrve (élő API)", "Filtered documents (live API)"),
       params=FILTER_PARAMS, response=array(obj({
           "id": ID, "created_at": TIMESTAMP, "title": TEXT, "filename": TEXT,
           "simple_tag_ids": array({"type": "integer"}),
           "document_type_name": prop(nullable({"type": "string"})), "link": TEXT}, ("id",)))),
    Op("GET", "/1/documents/files/", "documents_files_v1", "Documents",
       T("Dokumentumok letöltési címei", "Download links of documents"),
       params=FILTER_PARAMS, response=array(obj({"id": ID, "url": TEXT}, ("id", "url")))),
    Op("GET", "/2/documents/{document_id}/", "documents_retrieve", "Documents",
       T("Egy dokumentum leíró mezői", "A document's descriptive fields"),
       params=(DOCUMENT_ID,), response=DETAIL, errors=(401, 403)),
    Op("POST", "/2/documents/create/", "documents_create", "Documents",
       T("Dokumentumok feltöltése", "Upload documents"),
       T("Fájlonként siker vagy ok (reason); a tartalom valódi PDF, JPEG, PNG vagy XML.",
         "Success or a reason per file; content must really be PDF, JPEG, PNG or XML."),
       body=CREATE_BODY, response=PROCESSED, status=201),
    Op("POST", "/2/documents/update/{document_id}/", "documents_update", "Documents",
       T("Dokumentum leíró mezőinek módosítása", "Update a document's descriptive fields"),
       params=(DOCUMENT_ID,), body=obj(DESCRIPTIVE), response=DETAIL),
    Op("POST", "/2/documents/delete/", "documents_delete", "Documents",
       T("Szűrt dokumentumok törlése", "Delete the matching documents"),
       body=FILTER_BODY, status=204),
    Op("POST", "/1/documents/attach/", "documents_attach", "Documents",
       T("Szűrt dokumentumok csatolása", "Attach the matching documents"),
       body=FILTER_BODY, extra=no_content(200, T("Csatolva.", "Attached."))),
    Op("POST", "/1/documents/detach/", "documents_detach", "Documents",
       T("Szűrt dokumentumok leválasztása", "Detach the matching documents"),
       body=FILTER_BODY, extra=no_content(200, T("Leválasztva.", "Detached."))),
    Op("POST", "/2/documents/search/", "documents_search", "Documents",
       T("Dokumentum keresése név és méret szerint", "Find a document by name and size"),
       body="SameFileQuery", response=array(obj({
           "id": ID, "company_id": ID, "filename": TEXT, "size": prop("integer"),
           "created_at": TIMESTAMP}, ("id",)))),
    Op("GET", "/2/document-types/", "document_types_list", "Documents",
       T("Dokumentumtípusok", "Document types"), response=array(ref("NamedRef")),
       errors=(401, 403)),
)
