"""Find a page's actions to replay them: htmx ones (hx-get/post/...) and plain POST forms."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin

from werkzeug.datastructures import MultiDict

HX_METHODS = ("get", "post", "put", "patch", "delete")
_BODY_HEADERS = re.compile(r"<body[^>]*\bhx-headers='([^']*)'")


@dataclass
class HtmxAction:
    """One request a page can make: method, URL, the fields its form sends, target, kind."""

    method: str
    url: str
    values: list[tuple[str, str]] = field(default_factory=list)
    target: str | None = None
    htmx: bool = True

    def data(self) -> MultiDict | None:
        """The form fields as the test client takes them (repeated names kept)."""
        return MultiDict(self.values) if self.values else None

    def headers(self, page_path: str, csrf_headers: dict[str, str]) -> dict[str, str]:
        """The headers htmx 2 (or, for a plain form, the browser) sends from `page_path`."""
        if not self.htmx:
            return {}
        headers = {"HX-Request": "true", "HX-Current-URL": f"http://localhost{page_path}"}
        if self.target:
            headers["HX-Target"] = self.target.lstrip("#")
        if self.method != "GET":
            headers.update(csrf_headers)
        return headers


class _Collector(HTMLParser):
    """Walks the HTML once, collecting each form's fields as a browser would submit them."""

    def __init__(self, page_path: str):
        super().__init__(convert_charrefs=True)
        self.page_path = page_path
        self.actions: list[HtmxAction] = []
        self.forms: list[HtmxAction] = []
        self.form: list[tuple[str, str]] | None = None
        self.select: dict | None = None
        self.textarea: list | None = None

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        if tag == "form":
            self._start_form(attrs)
        elif self.form is not None:
            self._field(tag, attrs)
        for method in HX_METHODS:
            if f"hx-{method}" in attrs:
                url = urljoin(self.page_path, attrs[f"hx-{method}"] or self.page_path)
                values = self.form if self.form is not None and method != "get" else []
                self.actions.append(HtmxAction(method.upper(), url, values,
                                               attrs.get("hx-target")))

    def _start_form(self, attrs: dict) -> None:
        self.form = []
        if attrs.get("method", "get").lower() == "post":
            url = urljoin(self.page_path, attrs.get("action") or self.page_path)
            self.forms.append(HtmxAction("POST", url, self.form, htmx=False))

    def _field(self, tag: str, attrs: dict) -> None:
        if tag == "input" and "name" in attrs and _sends_value(attrs):
            self.form.append((attrs["name"], attrs.get("value", "")))
        elif tag == "select" and "name" in attrs:
            self.select = {"name": attrs["name"], "chosen": [], "first": None}
        elif tag == "option" and self.select is not None:
            value = attrs.get("value", "")
            self.select["first"] = value if self.select["first"] is None else self.select["first"]
            if "selected" in attrs:
                self.select["chosen"].append(value)
        elif tag == "textarea" and "name" in attrs:
            self.textarea = [attrs["name"]]

    def handle_data(self, data):
        if self.textarea is not None:
            self.textarea.append(data)

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select" and self.select is not None and self.form is not None:
            select, self.select = self.select, None
            chosen = select["chosen"] or ([select["first"]] if select["first"] is not None else [])
            self.form.extend((select["name"], value) for value in chosen)
        elif tag == "textarea" and self.textarea is not None and self.form is not None:
            name, *text = self.textarea
            self.form.append((name, "".join(text).removeprefix("\n")))
            self.textarea = None


def _sends_value(attrs: dict) -> bool:
    """An input the form submits (unchecked boxes, files and buttons send nothing here)."""
    kind = attrs.get("type", "text").lower()
    if kind in ("file", "submit", "button", "image", "reset"):
        return False
    return kind not in ("checkbox", "radio") or "checked" in attrs


def htmx_actions(html: str, page_path: str) -> list[HtmxAction]:
    """Every hx-* action on a page, URLs made absolute paths."""
    collector = _Collector(page_path)
    collector.feed(html)
    return collector.actions


def post_forms(html: str, page_path: str) -> list[HtmxAction]:
    """Every plain `<form method="post">` on a page with the values it would submit."""
    collector = _Collector(page_path)
    collector.feed(html)
    return collector.forms


def csrf_headers(html: str) -> dict[str, str]:
    """The headers set once on <body hx-headers=...> (the CSRF header), if any."""
    match = _BODY_HEADERS.search(html)
    return json.loads(match.group(1)) if match else {}
