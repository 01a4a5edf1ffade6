"""Operations on partners (spec 4.4) and artifacts (spec 4.9)."""
from __future__ import annotations

from sandbox.schema.components_common import page_number
from sandbox.schema.model import Op, T, array, boolean_query, obj, prop, query, ref
from sandbox.schema.params import PAGE_NUMBER, PARTNER_ID

KIND = {"name": "kind", "in": "path", "required": True,
        "schema": {"type": "string", "enum": ["expense", "income"]},
        "description": T("expense vagy income.", "expense or income.")}
IDS = query("ids", "string", T("Azonosítók vesszővel (vagy ismételve).",
                               "Comma-separated ids (or repeated)."))
ARTIFACTS = {"anyOf": [array(ref("Artifact")), ref("ArtifactPage")]}
ARTIFACT_TEXT = T("Rekordonként has_artifact; ha igaz, fájlnév, kiterjesztés és lejáró, token "
                  "nélküli letöltési cím.",
                  "has_artifact per record; when true, filename, extension and an expiring, "
                  "token-free download URL.")

OPERATIONS = (
    Op("GET", "/1/partners/", "partners_list", "Partners", T("Partnerek", "List partners"),
       params=(*PAGE_NUMBER,
               query("name", "string", T("Névrészlet.", "Part of the name.")),
               query("search", "string", T("Név vagy adószám részlete.",
                                           "Part of the name or tax number.")),
               query("tax_number", "string", T("Pontos adószám.", "Exact tax number.")),
               boolean_query("is_customer", T("Vevő.", "Customer.")),
               boolean_query("is_vendor", T("Szállító.", "Vendor.")),
               query("source", "string", T("Forrás.", "Source.")),
               query("ordering", {"type": "string", "enum": [
                   "name", "-name", "id", "-id", "created_at", "-created_at"]},
                     T("Rendezés.", "Ordering."))),
       response=page_number(array(ref("Partner")))),
    Op("GET", "/1/partners/{partner_id}/", "partners_retrieve", "Partners",
       T("Egy partner", "Partner detail"), params=(PARTNER_ID,), response="Partner",
       errors=(401, 403)),
    Op("POST", "/2/partners/create/", "partners_create", "Partners",
       T("Partner létrehozása", "Create a partner"),
       T("Ütközés meglévő partnerrel: 400, a meglévő azonosítójával; nincs összevonás.",
         "A collision with an existing partner: 400 naming its id; never merged."),
       body="PartnerInput", response="Partner", status=201),
    Op("PATCH", "/2/partners/{partner_id}/update/", "partners_update", "Partners",
       T("Partner módosítása", "Update a partner"),
       T("Részleges. Korlátozott partneren csak default_account_number, default_account_name, "
         "is_customer, is_vendor; más mező 400, megnevezve.",
         "Partial. A restricted partner takes only default_account_number, "
         "default_account_name, is_customer, is_vendor; other fields give 400 naming them."),
       params=(PARTNER_ID,), body="PartnerUpdate", response="Partner"),
    Op("GET", "/1/artifacts/{kind}/", "artifacts_list", "Documents",
       T("Költségek vagy bevételek csatolmányai", "Artifacts of expenses or incomes"),
       ARTIFACT_TEXT, params=(KIND, IDS, *PAGE_NUMBER), response=ARTIFACTS),
    Op("POST", "/1/artifacts/{kind}/", "artifacts_by_ids", "Documents",
       T("Csatolmányok azonosítók szerint", "Artifacts by ids"), ARTIFACT_TEXT,
       params=(KIND,), body=obj({"ids": prop({**array({"type": "integer", "minimum": 1,
                                                        "maximum": 2**31 - 1}),
                                               "maxItems": 1000})}, ("ids",)),
       response=array(ref("Artifact"))),
)
