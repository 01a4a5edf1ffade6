"""The catalogue every company starts with: revenue and expense types, tags, VAT, ledger numbers."""
from __future__ import annotations

from sqlalchemy.orm import Session

from sandbox.catalog.model import Currency, ExpenseType, RevenueType, Tag, VatCategory
from sandbox.company.model import Company
from sandbox.ledger.model import LedgerNumber

CURRENCIES = (("HUF", "Magyar forint"), ("EUR", "Euró"), ("USD", "Amerikai dollár"),
              ("GBP", "Angol font"), ("CHF", "Svájci frank"), ("CZK", "Cseh korona"),
              ("PLN", "Lengyel zloty"), ("RON", "Román lej"))
REVENUE_TYPES = ("Árbevétel", "Szolgáltatás", "Termékértékesítés", "Egyéb bevétel")
EXPENSE_TYPES = ("Anyagköltség", "Bérleti díj", "Közüzemi díj", "Szoftver", "Üzemanyag")
TAGS = ("Budapest", "Debrecen", "Projekt A", "Projekt B")
VAT = (("27%", 27.0, "HU"), ("18%", 18.0, "HU"), ("5%", 5.0, "HU"), ("AAM", 0.0, "HU"),
       ("EU fordított", 0.0, "EU"), ("Harmadik ország", 0.0, "3RD"))
LEDGER = (("Belföldi értékesítés árbevétele", "911"), ("Szolgáltatás árbevétele", "912"),
          ("Export árbevétel", "931"), ("Fizetendő ÁFA", "467"), ("Anyagköltség", "511"))


def seed_company_basics(session: Session, company: Company) -> None:
    """Add the standard catalogue to a new company."""
    session.add_all([RevenueType(company_id=company.id, name=n) for n in REVENUE_TYPES])
    session.add_all([ExpenseType(company_id=company.id, name=n) for n in EXPENSE_TYPES])
    session.add_all([Tag(company_id=company.id, name=n) for n in TAGS])
    session.add_all([VatCategory(company_id=company.id, name=n, percent=p, vat_area=a,
                                 country="HU", type=kind)
                     for n, p, a in VAT for kind in ("revenue", "cost")])
    session.add_all([LedgerNumber(company_id=company.id, name=n, code=c) for n, c in LEDGER])
    session.flush()


def seed_currencies(session: Session) -> None:
    """The currencies every sandbox knows, added once to a new database."""
    if session.query(Currency).count() == 0:
        session.add_all([Currency(code=c, name=n) for c, n in CURRENCIES])
        session.flush()
