"""Document-level texts: title, tag groups (spec 9.4) and shared descriptions."""
from __future__ import annotations

from .model import T

TITLE = T("Könyvelési adatszolgáltatás API (sandbox)", "Accounting Data Service API (sandbox)")
DESCRIPTION = T(
    "Egy cég könyvelési adatai (bevételek, költségek, partnerek, adók, bérköltségek, címkék, "
    "típusok, ÁFA-kategóriák, pénznemek, dokumentumok) JSON-ban. A /1/ és a /2/ generáció is "
    "elérhető. A leírások angolul: ?lang=en.",
    "Company accounting data (incomes, expenses, partners, taxes, salaries, tags, types, VAT "
    "categories, currencies, documents) as JSON. Both the /1/ and the /2/ generation are served. "
    "Descriptions in Hungarian: omit lang or use ?lang=hu.")

# Spec 9.4: expense types sit under Expenses, revenue types under Incomes, and ledger numbers,
# VAT categories and audit XML under Accounting.
TAGS = (
    ("Company", T("Cégadatok és beállítások, bevételi szabályok",
                  "Company details and settings, income policies")),
    ("Incomes", T("Bevételek és bevételtípusok", "Incomes and revenue types")),
    ("Expenses", T("Költségek és költségtípusok", "Expenses and expense types")),
    ("Partners", T("Vevők és szállítók", "Customers and vendors")),
    ("Taxes", T("Adók, havi bontásban", "Taxes, grouped by month")),
    ("Salaries", T("Bérköltségek, havi bontásban", "Salary costs, grouped by month")),
    ("Tags", T("Címkék", "Tags")),
    ("Accounting", T("Könyvelés: főkönyvi számok, ÁFA-kategóriák, audit XML",
                     "Accounting: ledger numbers, VAT categories, audit XML")),
    ("Currencies", T("Pénznem-katalógus", "Currency catalogue")),
    ("Documents", T("Dokumentumok és csatolmányok", "Documents and artifacts")),
    ("Bank", T("Bankszámlák, kifizetések, egyenlegek (csak olvasható)",
               "Bank accounts, payments, balances (read-only)")),
    ("Schema", T("Ez a gépi olvasású leírás", "This machine-readable description")),
)
TAG_NAMES = tuple(name for name, _ in TAGS)

TOKEN_AUTH = T(
    "API-kulcs az Authorization fejlécben: a Token szó, egy szóköz, majd a kulcs. "
    "Hiányzó vagy érvénytelen kulcs: 401; jogosultság nélkül: 403.",
    "API token in the Authorization header: the word Token, a space, then the key. "
    "Missing or invalid token: 401; without permission: 403.")
OAUTH2 = {
    "type": "oauth2",
    "description": T(
        "OAuth2 Bearer token (Authorization: Bearer <token>) a cégfejléccel minden /2/ "
        "végponton. Kódfolyam kötelező S256 PKCE-vel; visszavonás: /oauth/revoke/ (RFC 7009).",
        "OAuth2 Bearer token (Authorization: Bearer <token>) with the company header on every "
        "/2/ endpoint. Authorization code flow with mandatory S256 PKCE; revocation: "
        "/oauth/revoke/ (RFC 7009)."),
    "flows": {"authorizationCode": {"authorizationUrl": "/oauth/authorize/",
                                    "tokenUrl": "/oauth/token/",
                                    "refreshUrl": "/oauth/token/", "scopes": {}}},
}
COMPANY_HEADER = T(
    "Opcionális cégazonosító (a /2/company-info/ id mezője). Más cég: 403. "
    "A Quick-Company-Id fejlécet is elfogadja.",
    "Optional company id (the id of /2/company-info/). Another company: 403. "
    "Quick-Company-Id is accepted too.")
DEPRECATED = T("Elavult: helyette {method} {path} ({op_id}).",
               "Deprecated: use {method} {path} ({op_id}) instead.")

ERRORS = {
    400: T("Érvénytelen kérés; a hibák mezőnként, a többi a non_field_errors alatt.",
           "Invalid request; errors keyed by field, the rest under non_field_errors."),
    401: T("Hiányzó vagy érvénytelen API-kulcs.", "Missing or invalid API token."),
    403: T("Nincs jogosultság a céghez vagy a művelethez (vagy hiányzó kétlépcsős azonosítás).",
           "No permission for the company or the operation (or missing two-factor "
           "authentication)."),
    404: T("Nem található.", "Not found."),
}
SUCCESS = T("Sikeres válasz.", "Successful response.")
NO_CONTENT = T("Sikeres törlés, üres válasz.", "Deleted; no content.")
