"""Documents (spec 4.9): attached and unattached files with token-free download links."""
from __future__ import annotations

from sandbox.schema.components_common import ID, TIMESTAMP, cursor
from sandbox.schema.model import Op, T, array, boolean_query, nullable, obj, prop
from sandbox.schema.params import CURSOR_PAGE

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
)
