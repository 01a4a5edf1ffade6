"""Tax codes (NAV adónem) the sandbox knows, and the labels a record's source may carry."""
from __future__ import annotations

# Code -> (name, budget account number); from NAV's published list of accounts by tax code.
TAX_CODES = {
    "101": ("Társasági adó", "10032000-01076019"),
    "103": ("Személyi jövedelemadó (SZJA)", "10032000-06056353"),
    "104": ("Általános forgalmi adó (ÁFA)", "10032000-01076868"),
    "115": ("Egyszerűsített vállalkozói adó (EVA)", "10032000-01076033"),
    "119": ("Rehabilitációs hozzájárulás", "10032000-06056281"),
    "124": ("Egészségbiztosítási Alapot megillető bevételek", "10032000-06056229"),
    "125": ("Társadalombiztosítási járulék (Nyugdíjbiztosítási Alap)", "10032000-06056236"),
    "138": ("Késedelmi pótlék", "10032000-01076985"),
    "182": ("Szakképzési hozzájárulás", "10032000-06056061"),
}

MANUAL = "manual"
# Integration labels a synced record may carry (tax authority account, payroll software).
INTEGRATION_SOURCES = ("nav", "kulcs-ber", "nexon", "novitax")
SOURCES = (MANUAL, *INTEGRATION_SOURCES)


def code_json(code: str) -> dict:
    """One entry of the tax code list."""
    name, account_number = TAX_CODES[code]
    return {"code": code, "name": name, "account_number": account_number}
