"""Route sampler: every rule in app.url_map as a concrete path for one sandbox company.

URL arguments are filled from SAMPLES, keyed by argument name (ENDPOINT_SAMPLES wins for one
endpoint). Records are created in the sandbox only when a route needs them. A route with an
argument that has no sample makes `paths()` fail, so a new route cannot slip past the sweeps:
add a sample here instead.
"""
from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
HERE = "tests/support/routes.py"
TINY_PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


@dataclass
class SampleContext:
    """The company the samples belong to, and the records made for it so far."""

    sandbox_url: str
    company: Any
    made: dict[str, Any] = field(default_factory=dict)

    def once(self, key: str, make: Callable[[], Any]) -> Any:
        """Make a sample record the first time it is asked for."""
        if key not in self.made:
            self.made[key] = make()
        return self.made[key]

    def control(self, path: str, payload: dict) -> dict:
        """POST to a /_sandbox/ fixture maker for this company."""
        response = requests.post(f"{self.sandbox_url}{path}", timeout=10,
                                 json={"company_id": self.company.id, **payload})
        assert response.status_code == 201, f"{path}: {response.status_code} {response.text}"
        return response.json()

    def api(self, method: str, path: str, payload: dict | None = None) -> Any:
        """Call the public API with the company's admin token."""
        headers = {"Authorization": f"Token {self.company.tokens['admin']}",
                   "Service-Company-Id": str(self.company.id), "Accept": "application/json"}
        response = requests.request(method, f"{self.sandbox_url}{path}", json=payload,
                                    headers=headers, timeout=10)
        assert response.status_code < 300, f"{method} {path}: {response.status_code}"
        return response.json()

    def first_id(self, path: str) -> int:
        """The id of the first record of a catalogue list (seeded for every test company)."""
        body = self.api("GET", path)
        items = body["results"] if isinstance(body, dict) else body
        assert items, f"{path} is empty for the sample company"
        return items[0]["id"]


def _income(ctx: SampleContext) -> int:
    """An income with an invoice file (so download routes answer), waiting for review."""
    def make() -> int:
        body = {"invoice_number": "MINTA-2025-001", "issued_at": "2025-03-05",
                "fulfilled_at": "2025-03-05", "due_at": "2025-03-20", "net_amount": "1000.00",
                "vat_amount": "270.00", "gross_amount": "1270.00",
                "partner_name": "Minta Vevő Kft.",
                "assignments": [{"revenue_type": _revenue_type(ctx), "vat": _revenue_vat(ctx),
                                 "net_amount": "1000.00", "gross_amount": "1270.00"}],
                "invoice_image": {"filename": "szamla.pdf",
                                  "content": base64.b64encode(TINY_PDF).decode()}}
        income_id = ctx.api("POST", "/2/incomes/create/", body)["id"]
        response = requests.patch(f"{ctx.sandbox_url}/_sandbox/incomes/{income_id}/",
                                  json={"needs_review": True, "review_done": False}, timeout=10)
        assert response.status_code == 200, response.text
        return income_id

    return ctx.once("income", make)


def _revenue_type(ctx: SampleContext) -> int:
    return ctx.once("/2/revenue-types/", lambda: ctx.first_id("/2/revenue-types/"))


def _revenue_vat(ctx: SampleContext) -> int:
    vats = ctx.api("GET", "/2/accounting/vat-categories/")
    return next(vat["id"] for vat in vats if vat["type"] == "revenue")


def _expense(ctx: SampleContext) -> int:
    """An expense with a PDF artifact, so its file routes answer with the document."""
    return ctx.once("expense", lambda: ctx.control("/_sandbox/expenses/", {
        "partner_name": "Minta Szállító Kft.", "invoice_number": "SZ-2024-001",
        "artifact": {"filename": "szamla.pdf",
                     "content_base64": base64.b64encode(TINY_PDF).decode()},
    })["id"])


def _partner(ctx: SampleContext) -> int:
    return ctx.once("partner", lambda: ctx.api("POST", "/2/partners/create/", {
        "name": "Minta Partner Kft.", "is_customer": True, "is_vendor": True,
    })["id"])


def _document(ctx: SampleContext) -> int:
    """A document with its file, so its download route answers with it."""
    return ctx.once("document", lambda: ctx.control("/_sandbox/documents/", {
        "filename": "minta.pdf"})["id"])


def _catalog(path: str) -> Callable[[SampleContext], int]:
    return lambda ctx: ctx.once(path, lambda: ctx.first_id(path))


SAMPLES: dict[str, Callable[[SampleContext], Any]] = {
    "company_id": lambda ctx: ctx.company.id,
    "income_id": _income,
    "expense_id": _expense,
    "partner_id": _partner,
    "document_id": _document,
    "tag_id": _catalog("/2/tags/"),
    "revenue_type_id": _catalog("/2/revenue-types/"),
    "expense_type_id": _catalog("/2/expense-types/"),
    "vat_category_id": _catalog("/2/accounting/vat-categories/"),
    "ledger_number_id": _catalog("/2/accounting/ledger-numbers/"),
    "filename": lambda ctx: "css/app.css",
}
# Arguments whose meaning depends on the route.
ENDPOINT_SAMPLES: dict[tuple[str, str], Callable[[SampleContext], Any]] = {
    ("i18n.switch_language", "code"): lambda ctx: "en",
}


@dataclass(frozen=True)
class Route:
    """One concrete request target: endpoint, method, path."""

    endpoint: str
    method: str
    path: str


class RouteSampler:
    """Builds a concrete path for every rule of an app, for one sample company."""

    def __init__(self, app, context: SampleContext):
        self.app, self.context = app, context

    def routes(self, methods: set[str] | frozenset[str]) -> list[Route]:
        """Every (rule, method) pair among `methods`; fails listing every unsampled argument."""
        rules = [rule for rule in self.app.url_map.iter_rules() if set(rule.methods) & methods]
        missing = [f"{rule.rule} ({rule.endpoint}): <{arg}>" for rule in rules
                   for arg in sorted(rule.arguments) if self._sampler(rule.endpoint, arg) is None]
        if missing:
            pytest.fail("These routes take URL arguments the security sweeps have no sample "
                        f"for. Add one to SAMPLES in {HERE} (a value or a record of the sample "
                        "company) so the route is swept:\n  " + "\n  ".join(missing))
        return sorted({Route(rule.endpoint, method, self._build(rule))
                       for rule in rules for method in set(rule.methods) & methods},
                      key=lambda route: (route.path, route.method))

    def get_routes(self) -> list[Route]:
        """Every GET route."""
        return self.routes({"GET"})

    def write_routes(self) -> list[Route]:
        """Every POST/PUT/PATCH/DELETE route."""
        return self.routes(WRITE_METHODS)

    def _sampler(self, endpoint: str, arg: str):
        return ENDPOINT_SAMPLES.get((endpoint, arg)) or SAMPLES.get(arg)

    def _build(self, rule) -> str:
        values = {arg: self._sampler(rule.endpoint, arg)(self.context) for arg in rule.arguments}
        built = rule.build(values, append_unknown=False)
        assert built is not None, f"cannot build {rule.rule} from {values}"
        return built[1]


def error_paths(company_id: int) -> dict[str, str]:
    """Paths that answer 404 pages: outside and inside a company."""
    return {"site 404": "/no-such-page", "company 404": f"/c/{company_id}/no-such-page"}
