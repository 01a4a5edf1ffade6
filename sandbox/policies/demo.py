"""The demo company's income policies (v2) and the invoices the demo imports through them.

"Szoftverlicenc bevételek" and "Kiemelt nagy összegű bevétel" overlap on big software invoices;
with skip_for_multiple_match on, such an invoice gets no policy and waits for review. The
"x_megjegyzes" key of the first policy is unknown to the engine and shows that it is kept.
"""
from __future__ import annotations


def _cond(field: str, op: str, value) -> dict:
    return {"field": field, "op": op, "value": value}


POLICIES = [
    {"name": "Szoftverlicenc bevételek", "enabled": True, "match": "any",
     "conditions": [_cond("partner_name", "contains", "Soft"),
                    _cond("partner_name", "contains", "Informatika")],
     "set": {"revenue_type": "Szoftverlicenc", "tags": ["Licenc"], "ledger_number": "912",
             "job_number": "LIC-2026"},
     "x_megjegyzes": "A partnerlistát a könyvelő egyeztette (2026. január)."},
    {"name": "EUR exportbevétel", "enabled": True, "match": "all",
     "conditions": [_cond("currency", "equals", "EUR"), _cond("vat_area", "in", ["EU", "3RD"])],
     "set": {"split": [
         {"percent": 70, "revenue_type": "Termékértékesítés", "ledger_number": "931",
          "tags": ["Export"]},
         {"percent": 30, "revenue_type": "Szolgáltatás", "ledger_number": "931",
          "tags": ["Export"]}]}},
    {"name": "Kiemelt nagy összegű bevétel", "enabled": True, "match": "all",
     "conditions": [_cond("gross_amount", "gte", 2_000_000), _cond("currency", "equals", "HUF")],
     "set": {"revenue_type": "Árbevétel", "tags": ["Kiemelt ügyfél"]}},
    {"name": "Projekt A számlái", "enabled": True, "match": "all",
     "conditions": [_cond("note", "contains", "Projekt A")],
     "set": {"tags": ["Projekt A"], "job_number": "PA-2026"}},
    {"name": "Nyugták egyéb bevételként", "enabled": True, "match": "all",
     "conditions": [_cond("type", "in", [6, 7])],
     "set": {"revenue_type": "Egyéb bevétel"}},
    {"name": "Régi tanácsadási szabály (kikapcsolva)", "enabled": False, "match": "all",
     "conditions": [_cond("partner_tax_number", "equals", "11111111-2-41")],
     "set": {"revenue_type": "Tanácsadás"}},
]
IGNORE_POLICIES = [
    {"name": "Tesztszámlák kihagyása", "enabled": True, "match": "any",
     "conditions": [_cond("invoice_number", "starts_with", "TESZT"),
                    _cond("partner_name", "equals", "Próba Partner")]},
]
CONFIG = {"v": 2, "skip_for_multiple_match": True, "policies": POLICIES,
          "ignore_policies": IGNORE_POLICIES}

PARTNERS = {
    "alpha": {"partner_name": "Alpha Soft Kft.", "partner_tax_number": "12345678-2-42",
              "partner_zip_code": "1117", "partner_city": "Budapest",
              "partner_address": "Infopark sétány 1.", "partner_country": "HU"},
    "informatika": {"partner_name": "Kelet Informatika Zrt.", "partner_tax_number": "23456789-2-09",
                    "partner_zip_code": "4025", "partner_city": "Debrecen",
                    "partner_address": "Piac utca 12.", "partner_country": "HU"},
    "muller": {"partner_name": "Müller Maschinenbau GmbH", "partner_tax_number": "DE811907980",
               "partner_zip_code": "80331", "partner_city": "München",
               "partner_address": "Marienplatz 8", "partner_country": "DE"},
    "nagysoft": {"partner_name": "Nagy Soft Rendszerház Kft.",
                 "partner_tax_number": "34567890-2-13", "partner_zip_code": "2040",
                 "partner_city": "Budaörs", "partner_address": "Szabadság út 117.",
                 "partner_country": "HU"},
    "kovacs": {"partner_name": "Kovács és Társa Bt.", "partner_tax_number": "45678901-1-43",
               "partner_zip_code": "1052", "partner_city": "Budapest",
               "partner_address": "Váci utca 10.", "partner_country": "HU"},
    "proba": {"partner_name": "Próba Partner", "partner_tax_number": None,
              "partner_country": "HU"},
}

# (partner, source, type, net, vat %, currency, exchange rate, vat area, note, days ago)
INVOICES = (
    ("alpha", "szamlazz.hu", 1, "200000", 27, "HUF", "1", "HU", None, 40),
    ("informatika", "billingo", 1, "480000", 27, "HUF", "1", "HU", None, 33),
    ("muller", "szamlazz.hu", 1, "3600.00", 0, "EUR", "395.42", "EU", None, 27),
    ("nagysoft", "szamlazz.hu", 1, "2400000", 27, "HUF", "1", "HU", None, 19),
    ("kovacs", "billingo", 1, "150000", 27, "HUF", "1", "HU", "Projekt A, 2. mérföldkő", 12),
    ("kovacs", "szamlazz.hu", 6, "12000", 27, "HUF", "1", "HU", None, 6),
    ("proba", "szamlazz.hu", 1, "1000", 27, "HUF", "1", "HU", "Próbaszámla", 3),
)
