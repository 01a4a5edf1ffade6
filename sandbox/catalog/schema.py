"""Schema of the catalog operations: tags, expense and revenue types, currencies and company
VAT categories (spec 4.6-4.9)."""
from __future__ import annotations

from sandbox.schema.components_catalog import one_or_list, one_or_many
from sandbox.schema.model import Op, T, array, boolean_query, query, ref
from sandbox.schema.params import VAT_CATEGORY_ID

ID_BODY = "IdList"
VAT_TYPE = query("type", {"type": "string", "enum": ["cost", "revenue"]},
                 T("Csak költség vagy csak bevétel kategóriák.", "Only cost or revenue ones."))


def _type_ops(prefix: str, tag: str, what: T) -> tuple[Op, ...]:
    """The four operations of one type catalogue (spec 4.6)."""
    path, key = f"/2/{prefix}/", prefix.replace("-", "_")
    return (
        Op("GET", path, f"{key}_list", tag,
           T(f"{what.hu} listája", f"List {what.en}"),
           T("Név szerint rendezve, kis- és nagybetűtől függetlenül.",
             "Sorted by name, case-insensitively."), response=array(ref("TypeRecord")),
           errors=(401, 403)),
        Op("POST", f"{path}create/", f"{key}_create", tag,
           T(f"{what.hu} létrehozása", f"Create {what.en}"),
           T("Egy objektum vagy lista; az új típusok is_external értéke igaz.",
             "One object or a list; new types get is_external true."),
           body=one_or_many("TypeInput", key), response=one_or_list("TypeRecord"), status=201),
        Op("POST", f"{path}update/", f"{key}_update", tag,
           T(f"{what.hu} módosítása azonosító szerint", f"Update {what.en} by id"),
           T("Részleges siker: a hibás tételek a failed_ids listába kerülnek.",
             "Partial success: failing items go into failed_ids."),
           body=one_or_many("TypeUpdate", key), response="TypeUpdateResult"),
        Op("POST", f"{path}delete/", f"{key}_delete", tag,
           T(f"{what.hu} törlése", f"Delete {what.en}"),
           T("Ismeretlen vagy más cég azonosítója a failed_ids listába kerül, a kérés sikeres.",
             "Unknown or foreign ids go into failed_ids; the request still succeeds."),
           body=ID_BODY, response="BulkDeleteResult"),
    )


TAG_OPS = (
    Op("GET", "/2/tags/", "tags_list", "Tags", T("Címkék listája", "List tags"),
       params=(query("name", "string", T("Névrészlet.", "Part of the name.")),
               boolean_query("is_external", T("Csak API-n át kezelt címkék.",
                                              "Only tags managed through the API."))),
       response=array(ref("Tag")), errors=(400, 401, 403)),
    Op("POST", "/2/tags/create/", "tags_create", "Tags", T("Címke létrehozása", "Create tags"),
       T("A létrehozott címkék is_external értéke igaz.", "Created tags get is_external true."),
       body=one_or_many("TagInput", "tags"), response=one_or_list("Tag")),
    Op("PATCH", "/2/tags/update/", "tags_update", "Tags", T("Címke átnevezése", "Rename tags"),
       T("A módosított címke is_external értéke igaz lesz.",
         "An edited tag gets is_external true."),
       body=one_or_many("TagUpdate", "tags"), response=one_or_list("Tag")),
    Op("POST", "/2/tags/delete/", "tags_delete", "Tags", T("Címkék törlése", "Delete tags"),
       T("Csak a sehol nem hivatkozott címkék törlődnek; a többi a not_deleted listában.",
         "Only unreferenced tags are deleted; the rest are listed in not_deleted."),
       body=ID_BODY, response="TagDeleteResult"),
)

OPERATIONS = (
    *TAG_OPS,
    *_type_ops("revenue-types", "Incomes", T("Bevételtípusok", "revenue types")),
    *_type_ops("expense-types", "Expenses", T("Költségtípusok", "expense types")),
    Op("GET", "/2/currencies/", "currencies_list", "Currencies",
       T("Pénznemek", "Currencies"),
       T("Azonosító és ISO-kód párok; minden pénznem mező ezeket az azonosítókat használja.",
         "Id and ISO code pairs; every currency field uses these ids."),
       response=array(ref("Currency")), errors=(401, 403)),
    Op("GET", "/2/accounting/vat-categories/", "vat_categories_list", "Accounting",
       T("A cég ÁFA-kategóriái", "Company VAT categories"),
       T("A type mező (cost vagy revenue) itt csak olvasható.",
         "The type field (cost or revenue) is read-only here."),
       params=(VAT_TYPE,), response=array(ref("VatCategory")), errors=(400, 401, 403)),
    Op("POST", "/2/accounting/vat-categories/create/", "vat_categories_create", "Accounting",
       T("ÁFA-kategória létrehozása", "Create VAT categories"),
       T("A type opcionális (alapértelmezés: cost); a válasz created_vat_categories listája "
         "teljes kategóriákat tartalmaz; a már használt kódúak a not_created_vat_categories "
         "listába kerülnek.",
         "type is optional (default cost); the answer's created_vat_categories holds full "
         "categories; those with a code already in use go to not_created_vat_categories."),
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
