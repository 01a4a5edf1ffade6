"""Live-only operations: the bank (read-only) and the audit export upload."""
from __future__ import annotations

from sandbox.schema.components_bank import no_content
from sandbox.schema.components_common import page_number
from sandbox.schema.model import Op, T, array, date_query, query, ref
from sandbox.schema.params import PAGE_NUMBER

OPERATIONS = (
    Op("GET", "/1/accounts/", "bank_accounts_list", "Bank",
       T("Bankszámlák", "Bank accounts"),
       T("A name a név egy részére szűr (kis- és nagybetű mindegy).",
         "name keeps accounts whose name contains it (any case)."),
       params=(*PAGE_NUMBER, query("name", "string", T("Névrészlet.", "Part of the name."))),
       response=page_number(array(ref("BankAccount"))), errors=(400, 401, 403)),
    Op("GET", "/1/payments/", "bank_payments_list", "Bank",
       T("Kifizetések számlánként és naponként", "Payments per account and day"),
       T("Minden tétel egy költséget fizet (expense_id); a fizetett és részben fizetett "
         "költségek tételei adják ki a fizetett összeget. Csak olvasható.",
         "Each transaction pays an expense (expense_id); the transactions of paid and "
         "partially paid expenses add up to what was paid. Read-only."),
       params=(date_query("date", T("Ezen a napon.", "On this day.")),
               date_query("from_date", T("Ettől a naptól.", "From this day.")),
               date_query("to_date", T("Eddig a napig.", "Up to this day."))),
       response=array(ref("BankPayment")), errors=(400, 401, 403)),
    Op("GET", "/1/pulse/", "bank_pulse", "Bank", T("Egyenlegek", "Balances"),
       T("Számlánkénti egyenleg és az összegük.", "Each account's balance and their sum."),
       response="Pulse", errors=(401, 403)),
    Op("POST", "/2/audit-xml/", "audit_xml_upload", "Accounting",
       T("Számlázóprogram adatexportjának feltöltése", "Upload an invoicing program's export"),
       T("Minden <szamla> bevétel lesz (forrás: audit-xml); a már importált számlaszámok "
         "kimaradnak; hibás fájl vagy számla esetén semmi sem tárolódik. 201, törzs nélkül.",
         "Each <szamla> becomes an income (source audit-xml); numbers imported before are "
         "skipped; a bad file or invoice stores nothing. 201 with no body."),
       body="AuditXmlUpload", status=201,
       extra=no_content(201, T("Feldolgozva.", "Processed."))),
)
