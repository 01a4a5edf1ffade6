"""Helpers for the incomes and forms tests: fixture incomes, catalogue ids, browser-like forms."""
from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from html.parser import HTMLParser

from tests.sandbox.incomes_support import make_income, set_state  # noqa: F401 (shared with app tests)


@dataclass
class Ids:
    """Catalogue ids of a test company (ledger numbers and currencies by code)."""

    revenue_types: list[int]
    tags: list[int]
    vats: list[int]
    ledger_numbers: dict[str, int]
    currencies: dict[str, int]


def catalogue(api) -> Ids:
    """Read the company's catalogue through the public API."""
    def ids(path, keep=lambda item: True):
        return [item["id"] for item in api.get(path).json() if keep(item)]

    return Ids(ids("/2/revenue-types/"), ids("/2/tags/"),
               ids("/2/accounting/vat-categories/", lambda i: i["type"] == "revenue"),
               {n["code"]: n["id"] for n in api.get("/2/accounting/ledger-numbers/").json()},
               {c["code"]: c["id"] for c in api.get("/2/currencies/").json()})


def set_company(api, **settings) -> None:
    """Switch company settings (enable_accounting_id, enable_vat_period) as its admin."""
    resp = api.patch(f"/2/company-info/update/{api.company.id}/", json=settings)
    assert resp.status_code == 200, resp.text


def income(api, income_id: int) -> dict:
    """The income as the API has it now."""
    return api.get(f"/1/incomes/{income_id}/", params={"fields": "accounting"}).json()


def upstream_calls(response) -> int:
    """The upstream call count from Server-Timing."""
    match = re.search(r'upstream;dur=[\d.]+;desc="(\d+) calls?"', response.headers["Server-Timing"])
    assert match, response.headers["Server-Timing"]
    return int(match.group(1))


class _FormParser(HTMLParser):
    """Collects what a browser would submit from the first <form method=post> that is not the
    sign-out form."""

    def __init__(self):
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self.inputs: dict[str, dict] = {}
        self._in_form = self._done = False
        self._select = self._textarea = None
        self._select_first = None
        self._select_chosen = False
        self._template = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._done:
            return
        if tag == "template":
            self._template += 1
        if tag == "form" and attrs.get("method", "").lower() == "post" and not attrs.get(
                "action", "").endswith("/logout"):
            self._in_form = True
        if not self._in_form or self._template:
            return
        getattr(self, f"_start_{tag}", lambda a: None)(attrs)

    def _start_input(self, attrs):
        name, kind = attrs.get("name"), attrs.get("type", "text")
        if not name or attrs.get("form") or kind in ("submit", "button", "file", "reset"):
            return
        self.inputs[name] = attrs
        if kind in ("checkbox", "radio") and "checked" not in attrs:
            return
        self.fields.append((name, attrs.get("value", "on" if kind == "checkbox" else "")))

    def _start_select(self, attrs):
        self._select, self._select_first, self._select_chosen = attrs.get("name"), None, False
        self.inputs[self._select] = attrs

    def _start_option(self, attrs):
        if self._select is None:
            return
        value = attrs.get("value", "")
        if self._select_first is None:
            self._select_first = value
        if "selected" in attrs:
            self.fields.append((self._select, value))
            self._select_chosen = True

    def _start_textarea(self, attrs):
        self._textarea = attrs.get("name")
        self.inputs[self._textarea] = attrs
        self.fields.append((self._textarea, ""))

    def handle_data(self, data):
        if self._textarea and self.fields and self.fields[-1][0] == self._textarea:
            self.fields[-1] = (self._textarea, self.fields[-1][1] + data)

    def handle_endtag(self, tag):
        if tag == "template":
            self._template -= 1
        elif tag == "textarea":
            if self.fields and self.fields[-1][0] == self._textarea:
                text = self.fields[-1][1]
                text = text[2:] if text.startswith("\r\n") else text.removeprefix("\n")
                self.fields[-1] = (self._textarea, text)
            self._textarea = None
        elif tag == "select" and self._select:
            if not self._select_chosen and self._select_first is not None:
                self.fields.append((self._select, self._select_first))
            self._select = None
        elif tag == "form" and self._in_form:
            self._in_form, self._done = False, True


class BrowserForm:
    """The fields of a page's post form, editable like a browser would let a user."""

    def __init__(self, html: str):
        parser = _FormParser()
        parser.feed(html)
        self.pairs, self.inputs = parser.fields, parser.inputs

    def get(self, name: str) -> str | None:
        """The first value of a field."""
        return next((v for k, v in self.pairs if k == name), None)

    def values(self, name: str) -> list[str]:
        """Every value of a field."""
        return [v for k, v in self.pairs if k == name]

    def set(self, name: str, *values: str) -> BrowserForm:
        """Replace a field's values (a multi-select keeps its empty marker)."""
        marker = [("", )] if "" in self.values(name) else []
        self.pairs = [(k, v) for k, v in self.pairs if k != name]
        self.pairs += [(name, v) for v in values] + [(name, m[0]) for m in marker]
        return self

    def drop(self, name: str) -> BrowserForm:
        """Leave a field out entirely."""
        self.pairs = [(k, v) for k, v in self.pairs if k != name]
        return self

    def data(self) -> dict:
        """Form data for the Flask test client (lists for repeated names)."""
        out: dict[str, list[str]] = {}
        for key, value in self.pairs:
            out.setdefault(key, []).append(value)
        return out


def page_form(client, path: str) -> BrowserForm:
    """GET a page and read its post form."""
    response = client.get(path)
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    return BrowserForm(response.get_data(as_text=True))


def patches(sandbox_log, company_id: int) -> list[dict]:
    """PATCH bodies the sandbox received for the company's incomes."""
    return [entry["body"] for entry in sandbox_log.entries(company_id=company_id, method="PATCH")
            if entry["path"].startswith("/2/incomes/")]


def creates(sandbox_log, company_id: int) -> list[dict]:
    """Create requests the sandbox received (entries, with status)."""
    return sandbox_log.entries(company_id=company_id, method="POST", path="/2/incomes/create")


def income_with_file(api, number: str, filename: str, content: bytes) -> dict:
    """A one-line income whose artifact is the given file, created through the API."""
    ids = catalogue(api)
    response = api.post("/2/incomes/create/", json={
        "invoice_number": number, "issued_at": "2025-03-05", "fulfilled_at": "2025-03-05",
        "due_at": "2025-03-20", "net_amount": "100.00", "vat_amount": "27.00",
        "gross_amount": "127.00", "partner_name": "Kép Kft.",
        "assignments": [{"revenue_type": ids.revenue_types[0], "vat": ids.vats[0],
                         "net_amount": "100.00", "gross_amount": "127.00"}],
        "invoice_image": {"filename": filename, "content": base64.b64encode(content).decode()},
    })
    assert response.status_code == 201, response.text
    return response.json()
