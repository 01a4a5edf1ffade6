"""Operations on taxes and salaries (spec 4.5); the /1/ ones are deprecated (spec 9.2)."""
from __future__ import annotations

from sandbox.schema.components_catalog import one_or_many
from sandbox.schema.components_common import page_number
from sandbox.schema.model import Op, T, array, boolean_query, date_query, query, ref
from sandbox.schema.params import PAGE_NUMBER

SOURCE = query("source", "string", T(
    "Forrás: manual vagy integráció (vesszős lista); ismeretlen érték: 400.",
    "Source: manual or an integration (a comma list); an unknown value: 400."))
FILTERS = (date_query("from_date", T("Ettől a hónaptól.", "From this month.")),
           date_query("to_date", T("Eddig a napig.", "Up to this day.")),
           boolean_query("is_paid", T("Kifizetve.", "Paid.")),
           boolean_query("is_installment", T("Részben fizetve.", "Partially paid.")), SOURCE)


def _kind_ops(records: str, tag: str, what: T, monthly: str) -> tuple[Op, ...]:
    """Monthly listing, create, update, delete (/2/) and their deprecated /1/ twins."""
    fields = query("fields", {"type": "string", "enum": [records]},
                   T("A hónapok tételei is.", "Include each month's records."))
    current = (
        Op("GET", f"/2/monthly-{records}/", f"monthly_{records}_list", tag,
           T(f"{what.hu} havonta", f"{what.en.capitalize()} by month"),
           T("A fizetés hónapja szerint csoportosítva; fields nélkül csak havi összegek.",
             "Grouped by payment month; without fields only monthly totals."),
           params=(*FILTERS, fields), response=monthly),
        Op("POST", f"/2/{records}/create/", f"{records}_create", tag,
           T(f"{what.hu} létrehozása", f"Create {what.en}"),
           T("Tömeges, mind vagy egyik sem; currency nem küldhető; code nem küldhető name vagy "
             "account_number mellett.",
             "Bulk, all or none; currency is not accepted; code cannot be sent with name or "
             "account_number."),
           body=one_or_many("TaxInput", records), response=monthly, status=201),
        Op("POST", f"/2/{records}/update/", f"{records}_update", tag,
           T(f"{what.hu} módosítása", f"Update {what.en}"),
           T("Azonosító szerint, tömegesen; a válasz a módosított tételek havi listája.",
             "By id, in bulk; answers the monthly listing of the updated records."),
           body=one_or_many("TaxUpdate", records), response=monthly),
        Op("POST", f"/2/{records}/delete/", f"{records}_delete", tag,
           T(f"{what.hu} törlése", f"Delete {what.en}"), T("Válasz: 204, törzs nélkül.",
                                                          "Answers 204 with no body."),
           body="IdList", status=204),
    )
    legacy = tuple(Op(op.method, f"/1/{records}/{op.path.rsplit('/', 2)[-2]}/",
                      f"{op.op_id}_v1", tag, T(f"{op.summary.hu} (elavult)",
                                               f"{op.summary.en} (deprecated)"),
                      params=op.params, body=op.body, status=op.status, successor=op.op_id,
                      response=array(ref("TaxMonth")) if op.response else None)
                   for op in current[1:])  # the live /1/ writes answer a bare list of months
    listing = Op("GET", f"/1/{records}/", f"{records}_list_v1", tag,
                 T(f"{what.hu} listája (elavult)", f"List {what.en} (deprecated)"),
                 params=(*PAGE_NUMBER, *FILTERS),
                 response=page_number(array(ref("TaxRecord"))), successor=current[0].op_id)
    live = Op("GET", f"/1/monthly-{records}/", f"monthly_{records}_list_v1", tag,
              T(f"{what.hu} havonta, listaként (élő API)",
                f"{what.en.capitalize()} by month, as a list (live API)"),
              params=(*FILTERS, fields), response=array(ref("TaxMonth")))
    return (*current, listing, live, *legacy)


OPERATIONS = (
    *_kind_ops("taxes", "Taxes", T("Adók", "taxes"), "MonthlyTaxes"),
    *_kind_ops("salaries", "Salaries", T("Bérköltségek", "salaries"), "MonthlySalaries"),
    Op("GET", "/1/tax-codes/", "tax_codes_list", "Taxes", T("Adókódok", "Tax codes"),
       T("A kódok, amelyeket egy adó név és főkönyvi szám helyett megnevezhet.",
         "Codes a tax may name instead of a name and an account number."),
       response=array(ref("TaxCode")), errors=(401, 403)),
)
