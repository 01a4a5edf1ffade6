"""Helpers for the policy editor tests: a browser-like form reader and an editor driver."""
from __future__ import annotations

import re
from html.parser import HTMLParser

from tests.app.conftest import csrf_token, signed_in

REV = re.compile(r'name="rev" value="(\d+)"')
STORED = re.compile(r'name="stored" value="([^"]*)"')


class FormReader(HTMLParser):
    """The (name, value) pairs one form would submit, read the way a browser reads them."""

    def __init__(self, form_id: str):
        super().__init__(convert_charrefs=True)
        self.form_id, self.inside, self.pairs = form_id, False, []
        self.select, self.options, self.textarea = None, [], None

    def handle_starttag(self, tag, attrs):
        attrs = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.inside = attrs.get("id") == self.form_id
        if not self.inside or "disabled" in attrs:
            return
        if tag == "input" and attrs.get("name"):
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in attrs:
                return
            if kind not in ("submit", "button", "file"):
                self.pairs.append((attrs["name"], attrs.get("value", "on" if kind in (
                    "checkbox", "radio") else "")))
        elif tag == "select":
            self.select, self.options = attrs.get("name"), []
        elif tag == "option" and self.select:
            self.options.append((attrs.get("value", ""), "selected" in attrs))
        elif tag == "textarea":
            self.textarea, self.text = attrs.get("name"), ""

    def handle_data(self, data):
        if self.textarea:
            self.text += data

    def handle_endtag(self, tag):
        if tag == "form" and self.inside:
            self.inside = False
        elif tag == "select" and self.select:
            chosen = [v for v, sel in self.options if sel] or [v for v, _ in self.options[:1]]
            self.pairs += [(self.select, value) for value in chosen]
            self.select = None
        elif tag == "textarea" and self.textarea:
            self.pairs.append((self.textarea, self.text))
            self.textarea = None


def form_pairs(html: str, form_id: str) -> list[tuple[str, str]]:
    """What submitting the form with this id would send (buttons aside)."""
    reader = FormReader(form_id)
    reader.feed(html)
    return reader.pairs


def replace(pairs, changes: dict) -> list[tuple[str, str]]:
    """pairs with the named values replaced (a list value sets a repeated field)."""
    kept = [(k, v) for k, v in pairs if k not in changes]
    for key, value in changes.items():
        if value is None:
            continue
        kept += [(key, item) for item in (value if isinstance(value, list) else [value])]
    return kept


class Editor:
    """Drives /c/<id>/policies/ through the Flask test client."""

    def __init__(self, client, company, role="admin", name="Teszt Elek"):
        self.client, self.company = client, company
        self.base = signed_in(client, company, "policies", role, name=name)

    def get(self, path="/", **kwargs):
        """GET a page of the editor."""
        return self.client.get(self.base + path, **kwargs)

    def html(self, path="/") -> str:
        """The page's HTML (asserting it answered 200)."""
        response = self.get(path)
        assert response.status_code == 200, response.status_code
        return response.get_data(as_text=True)

    def post(self, path, data, page="/", **kwargs):
        """POST with the CSRF token and the draft revision of page."""
        html = self.html(page)
        body = list(data.items()) if isinstance(data, dict) else list(data)
        keys = {k for k, _ in body}
        if "rev" not in keys:
            found = REV.search(html)
            body.append(("rev", found.group(1) if found else "0"))
        if "stored" not in keys and (found := STORED.search(html)):
            body.append(("stored", found.group(1)))
        body.append(("csrf_token", csrf_token(html)))
        return self.client.post(self.base + path, data=multi(body), **kwargs)

    def rule(self, section="policies", index=None, changes=None, op="apply", **kwargs):
        """Post the rule form as shown, with changes, pressing the button op."""
        query = f"/rule?section={section}" + (f"&index={index}" if index is not None else "")
        html = self.html(query)
        pairs = replace(form_pairs(html, "rule-form"), changes or {}) + [("op", op)]
        return self.client.post(self.base + query, data=multi(pairs), **kwargs)

    def act(self, op, section="policies", index=None, **extra):
        """A list action of the editor page."""
        data = {"op": op, "section": section, "index": "" if index is None else str(index)}
        return self.post("/act", {**data, **extra})

    def save(self):
        """Confirm the save on the review page."""
        return self.post("/save", {}, page="/review")


def multi(pairs):
    from werkzeug.datastructures import MultiDict

    return MultiDict(pairs)


def set_stored(api, config) -> None:
    """Store config for the company directly through the API (admin token)."""
    response = api.patch(f"/2/company-info/update/{api.company.id}/",
                         json={"income_policies": config})
    assert response.status_code == 200, response.text


def stored(api):
    """The company's stored income_policies."""
    return api.get("/2/company-info/").json()["income_policies"]


def policy(name, field="partner_name", op="contains", value="Soft", **actions) -> dict:
    """A policy with one condition."""
    return {"name": name, "enabled": True, "match": "all",
            "conditions": [{"field": field, "op": op, "value": value}],
            "set": actions or {"revenue_type": f"{name} bevétel"}}


def config(*policies, ignore=(), skip=False, **extra) -> dict:
    """A version 2 configuration."""
    return {"v": 2, "skip_for_multiple_match": skip, "policies": list(policies),
            "ignore_policies": list(ignore), **extra}
