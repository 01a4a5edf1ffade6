"""Demo partners: Hungarian companies with valid-format tax numbers, a few EU partners.

Company 1 gets 60 (55 Hungarian, 5 EU; a few synced from an invoicing integration, a few new in
the last weeks), company 2 gets 15.
"""
from __future__ import annotations

import unicodedata
from datetime import UTC, datetime, timedelta

from sqlalchemy import insert
from sqlalchemy.orm import Session

from sandbox.company.model import Company
from sandbox.partners.model import Partner

STEMS = ("Duna", "Tisza", "Bakony", "Mátra", "Hungária", "Pannon", "Alföld", "Balaton",
         "Kárpát", "Zemplén", "Vértes", "Bükk", "Rába", "Maros", "Szamos", "Dráva", "Hortobágy",
         "Kisalföld", "Somló", "Tokaj", "Mecsek", "Pilis", "Őrség", "Csepel")
TRADES = ("Informatika", "Építőipari", "Logisztika", "Kereskedelmi", "Tanácsadó",
          "Szolgáltató", "Faipari", "Élelmiszer", "Gépészeti", "Média", "Nyomdaipari",
          "Energetika", "Vendéglátó", "Autóház", "Ingatlan")
FORMS = ("Kft.",) * 7 + ("Bt.",) * 2 + ("Zrt.",)
CITIES = (("Budapest", "1139", "41"), ("Budapest", "1051", "42"), ("Budapest", "1117", "43"),
          ("Debrecen", "4024", "09"), ("Szeged", "6720", "06"), ("Pécs", "7621", "02"),
          ("Győr", "9021", "08"), ("Miskolc", "3525", "05"), ("Kecskemét", "6000", "03"),
          ("Székesfehérvár", "8000", "07"), ("Nyíregyháza", "4400", "15"), ("Eger", "3300", "10"),
          ("Veszprém", "8200", "19"), ("Sopron", "9400", "08"), ("Szombathely", "9700", "18"))
STREETS = ("Fő utca", "Kossuth Lajos utca", "Petőfi Sándor utca", "Rákóczi út", "Váci út",
           "Andrássy út", "Dózsa György út", "Széchenyi tér", "Ady Endre utca",
           "Arany János utca", "Bajcsy-Zsilinszky út", "Szent István körút")
EU_PARTNERS = (("Wiener Handels GmbH", "AT", "ATU12345675", "1010", "Wien", "Graben 12."),
               ("Bratislava Trade s.r.o.", "SK", "SK2020123456", "81101", "Bratislava",
                "Obchodná 8."),
               ("Berliner Software GmbH", "DE", "DE129273398", "10115", "Berlin",
                "Invalidenstraße 44."),
               ("Praha Logistics s.r.o.", "CZ", "CZ27082440", "11000", "Praha", "Na Příkopě 3."),
               ("Warszawa Consulting Sp. z o.o.", "PL", "PL5260250995", "00-001", "Warszawa",
                "ul. Marszałkowska 10."))
SYNCED = ("szamlazz.hu", "billingo")


def tax_number(rng, county: str) -> str:
    """A valid-format Hungarian tax number (8-1-2 digits, checksummed base), without dashes."""
    base = [rng.randint(1, 9)] + [rng.randint(0, 9) for _ in range(6)]
    check = (10 - sum(d * w for d, w in zip(base, (9, 7, 3, 1, 9, 7, 3), strict=True)) % 10) % 10
    return "".join(map(str, base)) + str(check) + str(rng.choice((1, 2, 2, 2, 3))) + county


def _ascii(word: str) -> str:
    return unicodedata.normalize("NFKD", word.lower()).encode("ascii", "ignore").decode()


def _names(rng, count: int) -> list[str]:
    combos = [f"{s} {t} {f}" for s in STEMS for t in TRADES for f in ("Kft.",)]
    rng.shuffle(combos)
    return [name.replace(" Kft.", f" {rng.choice(FORMS)}") for name in combos[:count]]


def _hungarian(rng, company: Company, name: str, index: int, now: datetime) -> dict:
    city, zip_code, county = rng.choice(CITIES)
    new = index % 9 == 4
    return {"company_id": company.id, "name": name, "tax_number": tax_number(rng, county),
            "eu_tax_number": None, "zip_code": zip_code, "city": city, "country": "HU",
            "address": f"{rng.choice(STREETS)} {rng.randint(1, 120)}.",
            "email": f"szamlazas{index}@{_ascii(name.split()[0])}.hu",
            "phone": f"+36 {rng.choice((1, 20, 30, 70))} {rng.randint(100, 999)} "
                     f"{rng.randint(1000, 9999)}",
            "is_customer": index % 7 != 6, "is_vendor": index % 4 == 0 or index % 7 == 6,
            "default_account_number": f"117{rng.randint(10000, 99999)}-"
                                      f"{rng.randint(10000000, 99999999)}",
            "default_account_name": rng.choice(("OTP Bank", "K&H Bank", "Erste Bank",
                                                "MBH Bank", "Raiffeisen Bank")),
            "source": SYNCED[index % 2] if index % 11 == 3 else "manual",
            "created_at": now - timedelta(days=rng.randint(1, 20) if new
                                          else rng.randint(380, 1500)),
            "version": 1}


def _eu(company: Company, row: tuple, now: datetime) -> dict:
    name, country, vat, zip_code, city, address = row
    return {"company_id": company.id, "name": name, "tax_number": vat, "eu_tax_number": vat,
            "zip_code": zip_code, "city": city, "country": country, "address": address,
            "email": None, "phone": None, "is_customer": True, "is_vendor": False,
            "default_account_number": None, "default_account_name": None,
            "source": "manual", "created_at": now - timedelta(days=700), "version": 1}


def partner_rows(rng, company: Company, count: int, eu: tuple = EU_PARTNERS) -> list[dict]:
    """Rows for `count` Hungarian partners plus the given EU partners."""
    now = datetime.now(UTC)
    rows = [_hungarian(rng, company, name, i, now) for i, name in enumerate(_names(rng, count))]
    return rows + [_eu(company, row, now) for row in eu]


def seed_demo(session: Session, companies: dict[int, Company], rng) -> None:
    """Add the demo partners of companies 1 and 2."""
    rows = partner_rows(rng, companies[1], 55) + partner_rows(rng, companies[2], 14,
                                                              EU_PARTNERS[:1])
    session.execute(insert(Partner.__table__), rows)
