"""Demo audit export: last month's export of company 1's invoicing program, already uploaded.

Its invoices went through the same import as POST /2/audit-xml/ (incomes from source
audit-xml, policies applied), so the demo shows what an upload produces.
"""
from __future__ import annotations

import random
from datetime import date, timedelta

from sqlalchemy.orm import Session

from sandbox.audit.rules import import_invoice, invoices, record_export
from sandbox.company.model import Company
from sandbox.core.db import bound
from sandbox.core.model import budapest_today

CUSTOMERS = (("Tisza Kereskedelmi Kft.", "24153626-2-05", "6720", "Szeged"),
             ("Mátra Vendéglátó Bt.", "21318642-2-10", "3200", "Gyöngyös"),
             ("Duna Logisztika Zrt.", "25889016-2-41", "1138", "Budapest"))
INVOICES = 4


def seed_demo(session: Session, companies: dict[int, Company], rng: random.Random) -> None:
    """Upload one export of four invoices for company 1."""
    company = companies[1]
    first = (budapest_today().replace(day=1) - timedelta(days=1)).replace(day=1)
    data = export_xml([_invoice(first, n, rng) for n in range(1, INVOICES + 1)])
    with bound(session):
        created = [import_invoice(body, company) for body in invoices(data)]
        record_export(company, f"adatexport_{first:%Y%m}.xml", data, created, "Kovács Anna")
    session.flush()


def _invoice(month: date, number: int, rng: random.Random) -> dict:
    name, tax_number, zip_code, city = CUSTOMERS[number % len(CUSTOMERS)]
    net = rng.randrange(40_000, 900_000, 500)
    issued = month + timedelta(days=rng.randrange(0, 27))
    return {"number": f"SZLA-{month:%Y%m}-{number:03d}", "issued": issued,
            "due": issued + timedelta(days=15), "net": net, "vat": round(net * 0.27),
            "name": name, "tax_number": tax_number, "zip": zip_code, "city": city}


def export_xml(rows: list[dict]) -> bytes:
    """A small audit export (the element names sandbox/audit/rules.py reads)."""
    body = "".join(
        f"<szamla><fejlec><szlasz>{r['number']}</szlasz><szladatum>{r['issued']}</szladatum>"
        f"<teljdatum>{r['issued']}</teljdatum></fejlec><vevo><nev>{r['name']}</nev>"
        f"<adoszam>{r['tax_number']}</adoszam><cim><iranyitoszam>{r['zip']}</iranyitoszam>"
        f"<telepules>{r['city']}</telepules></cim></vevo><nem_kotelezo>"
        f"<fiz_hatarido>{r['due']}</fiz_hatarido><penznem>HUF</penznem></nem_kotelezo>"
        f"<termek_szolgaltatas_tetelek><termek_szolgaltatas_tetel><termeknev>Tanácsadás"
        f"</termeknev><menny>1</menny><mertekegys>db</mertekegys><nettoegysar>{r['net']}"
        f"</nettoegysar><nettoar>{r['net']}</nettoar><adokulcs>27</adokulcs><adoertek>"
        f"{r['vat']}</adoertek><bruttoar>{r['net'] + r['vat']}</bruttoar>"
        f"</termek_szolgaltatas_tetel></termek_szolgaltatas_tetelek>"
        f"<osszesites><vegosszeg><nettoarossz>{r['net']}</nettoarossz>"
        f"<afaertekossz>{r['vat']}</afaertekossz><bruttoarossz>{r['net'] + r['vat']}"
        f"</bruttoarossz></vegosszeg></osszesites></szamla>" for r in rows)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<szamlak><export_datuma>'
            f"{budapest_today()}</export_datuma>{body}</szamlak>\n").encode()
