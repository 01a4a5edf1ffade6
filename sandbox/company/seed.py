"""Demo data: the two demo companies with their catalogue and the demo tokens."""
from __future__ import annotations

from sqlalchemy.orm import Session

from sandbox.catalog.model import Currency
from sandbox.catalog.seed import seed_company_basics
from sandbox.company.model import ApiToken, Company, hash_token

# Demo tokens are documented in the README; they exist only in seeded sandboxes.
DEMO_TOKENS = (
    ("demo-admin", 1, "admin", "Kovács Anna", True),
    ("demo-bookkeeper", 1, "bookkeeper", "Szabó Péter", True),
    ("demo-viewer", 1, "viewer", "Tóth Eszter", True),
    ("demo-admin-2", 2, "admin", "Nagy Gábor", True),
    ("demo-no-2fa", 1, "admin", "Kiss Béla", False),
)


def seed_demo(session: Session) -> dict[int, Company]:
    """Create the demo companies, their catalogue and the demo tokens."""
    companies = _companies(session)
    for token, company_no, role, user, has_2fa in DEMO_TOKENS:
        session.add(ApiToken(token_hash=hash_token(token), company=companies[company_no],
                             role=role, name=f"{token} (demo)", user_name=user,
                             user_has_2fa=has_2fa))
    session.flush()
    return companies


def _companies(session: Session) -> dict[int, Company]:
    huf = session.query(Currency).filter_by(code="HUF").one()
    first = Company(name="Példa Kft.", tax_account_number="12345676-2-42",
                    default_currency=huf, advanced_accounting=True, requires_2fa=True,
                    expense_email="koltseg@pelda.hu", document_email="dokumentum@pelda.hu")
    second = Company(name="Második Bt.", tax_account_number="87654321-1-13",
                     default_currency=huf, expense_email="szamla@masodik.hu",
                     document_email="iratok@masodik.hu")
    session.add_all([first, second])
    session.flush()
    for company in (first, second):
        seed_company_basics(session, company)
    return {1: first, 2: second}

