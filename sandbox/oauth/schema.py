"""Operations about the OAuth2-signed-in user (Bearer only; sandbox/oauth)."""
from __future__ import annotations

from sandbox.schema.model import Op, T, array, obj, prop

BEARER_ONLY = {"security": [{"OAuth2": []}]}
COMPANIES = array(obj({"companies": array(obj(
    {"id": prop("integer"), "name": prop("string")}, ("id", "name")))}, ("companies",)))
PROFILE = obj({"user": obj({"email": prop("string"), "first_name": prop("string"),
                            "last_name": prop("string")},
                           ("email", "first_name", "last_name"))}, ("user",))

OPERATIONS = (
    Op("GET", "/2/companies/", "companies_list", "Company",
       T("A bejelentkezett felhasználó cégei", "The signed-in user's companies"),
       T("Csak OAuth2 Bearer tokennel; cégfejléc nélkül. Egy elemű lista, benne a companies "
         "tömb (id, name): a cégek, amelyekhez a felhasználónak szerepe van.",
         "OAuth2 Bearer token only; no company header. A one-element list holding the "
         "companies array (id, name): the companies the user has a role in."),
       response=COMPANIES, errors=(401,), extra=BEARER_ONLY),
    Op("GET", "/2/user-profile/", "user_profile_retrieve", "Company",
       T("A bejelentkezett felhasználó adatai", "The signed-in user's profile"),
       T("Csak OAuth2 Bearer tokennel; cégfejléc nélkül.",
         "OAuth2 Bearer token only; no company header."),
       response=PROFILE, errors=(401,), extra=BEARER_ONLY),
)
