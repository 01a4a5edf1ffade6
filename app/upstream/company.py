"""The company object (spec 2.1, 4.1): read it, change its settings and its income policies
(the object's income_policies key); the OAuth2 user's companies and profile (Bearer only, no
company header)."""
from __future__ import annotations

from typing import Any

INFO = "/2/company-info/"


def needs_admin(path: str) -> bool:
    """Writes to the company object (its settings and income policies) need an administrator."""
    return path.startswith(INFO)


def info(client: Any) -> dict:
    """The company object of the client's company (without a company, the token's own)."""
    return client.get(INFO) or {}


def update(client: Any, company_id: int, body: dict) -> dict:
    """Change some of the company's settings; the stored object."""
    return client.patch(f"{INFO}update/{company_id}/", json=body)


def income_policies(client: Any):
    """The company's stored income_policies (None when there are none)."""
    return info(client).get("income_policies")


def save_income_policies(client: Any, company_id: int, config):
    """PATCH the whole income-policy configuration (None deletes it); what the upstream stored."""
    body = update(client, company_id, {"income_policies": config})
    return (body or {}).get("income_policies", config)


def companies(client: Any) -> list[dict]:
    """The companies the OAuth2-signed-in user may reach: [{"id", "name"}] (client without a
    company). The live body is a one-element list holding a "companies" array."""
    body = client.get("/2/companies/") or []
    holders = body if isinstance(body, list) else [body]
    return [{"id": int(item["id"]), "name": str(item.get("name") or item["id"])}
            for holder in holders if isinstance(holder, dict)
            for item in holder.get("companies") or [] if isinstance(item, dict) and "id" in item]


def user_profile(client: Any) -> dict:
    """The OAuth2-signed-in user: {"email", "first_name", "last_name"} (client without a
    company)."""
    body = client.get("/2/user-profile/") or {}
    return body.get("user") or {} if isinstance(body, dict) else {}
