"""Operations of the company settings and of the schema itself."""
from __future__ import annotations

from sandbox.schema.model import Op, T, obj, query
from sandbox.schema.params import COMPANY_ID

LANG = query("lang", {"type": "string", "enum": ["hu", "en"]},
             T("A leírások nyelve (alapértelmezés: hu).", "Language of the texts (default: hu)."))

OPERATIONS = (
    Op("GET", "/2/company-info/", "company_info_retrieve", "Company",
       T("A cég adatai és beállításai", "The company's details and settings"),
       T("A kulcshoz tartozó cég; az id a Service-Company-Id fejléc értéke.",
         "The token's company; its id is the value of the Service-Company-Id header."),
       response="Company", errors=(401, 403)),
    Op("PATCH", "/2/company-info/update/{company_id}/", "company_info_update", "Company",
       T("Beállítások módosítása", "Update settings"),
       T("income_policies (objektum vagy null: törlés), enable_vat_period, enable_accounting_id. "
         "Csak adminisztrátor.",
         "income_policies (object, or null to delete), enable_vat_period, enable_accounting_id. "
         "Administrators only."),
       params=(COMPANY_ID,), body="CompanyUpdate", response="Company"),
    Op("GET", "/2/schema/", "schema_retrieve", "Schema",
       T("Az API gépi olvasású leírása (OpenAPI 3.1)",
         "Machine-readable description of the API (OpenAPI 3.1)"),
       T("Magyar leírások alapértelmezésben, angol a lang=en paraméterrel; az azonosítók "
         "mindkettőben angolok.",
         "Hungarian texts by default, English with lang=en; identifiers are English in both."),
       params=(LANG,), response=obj({}), errors=(401, 403)),
)
