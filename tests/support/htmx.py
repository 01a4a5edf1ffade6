"""Find a page's htmx actions (hx-get/post/put/patch/delete) to replay them as htmx requests."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin

HX_METHODS = ("get", "post", "put", "patch", "delete")
_BODY_HEADERS = re.compile(r"<body[^>]*\bhx-headers='([^']*)'")


@dataclass
class HtmxAction:
    """One element's htmx request: method, URL, the values its form would send, target."""

    method: str
    url: str
    values: dict[str, str] = field(default_factory=dict)
    target: str | None = None

    def headers(self, page_path: str, csrf_headers: dict[str, str]) -> dict[str, str]:
        """The headers htmx 2 sends for this action from `page_path`."""
        headers = {"HX-Request": "true", "HX-Current-URL": f"http://localhost{page_path}"}
        if self.target:
            headers["HX-Target"] = self.target.lstrip("#")
        if self.method != "GET":
            headers.update(csrf_headers)
        return headers


class _Collector(HTMLParser):
    """Walks the HTML once, remembering the enclosing form's fields for each action."""

    def __init__(self, page_path: str):
        super().__init__(convert_charrefs=True)
        self.page_path = page_path
        self.actions: list[HtmxAction] = []
        self.form: dict[str, str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.form = {}
        elif self.form is not None and _sends_value(tag, attrs):
            self.form.setdefault(attrs["name"], attrs.get("value", ""))
        for method in HX_METHODS:
            if f"hx-{method}" in attrs:
                url = urljoin(self.page_path, attrs[f"hx-{method}"] or self.page_path)
                values = self.form if self.form is not None and method != "get" else {}
                self.actions.append(HtmxAction(method.upper(), url, values,
                                               attrs.get("hx-target")))

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None


def _sends_value(tag: str, attrs: dict) -> bool:
    """A named field the form submits (unchecked boxes send nothing)."""
    if tag not in ("input", "select", "textarea") or "name" not in attrs:
        return False
    return attrs.get("type") not in ("checkbox", "radio") or "checked" in attrs


def htmx_actions(html: str, page_path: str) -> list[HtmxAction]:
    """Every hx-* action on a page, URLs made absolute paths."""
    collector = _Collector(page_path)
    collector.feed(html)
    return collector.actions


def csrf_headers(html: str) -> dict[str, str]:
    """The headers set once on <body hx-headers=...> (the CSRF header), if any."""
    match = _BODY_HEADERS.search(html)
    return json.loads(match.group(1)) if match else {}
