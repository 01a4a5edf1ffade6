"""Page crawler for the sweeps: the forms and links a rendered page offers.

`PageMap.visit(path, html)` records every <form> (method, action, fields with their rendered
values) and every same-site link's query parameters, keyed by the path they target. A sweep then
knows which query parameters each route reads and which fields each write route takes, from the
pages themselves, so a field or filter added later is swept too.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urljoin, urlsplit

INPUT_TAGS = {"input", "select", "textarea", "button"}
UNSENT_TYPES = {"submit", "button", "reset", "image", "file"}


@dataclass
class Form:
    """One <form>: where it goes and its named fields (first rendered value of each)."""

    method: str
    path: str
    fields: dict[str, str] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)
    # Unticked checkboxes and radios: not sent untouched, but fields all the same.
    options: dict[str, str] = field(default_factory=dict)

    def data(self) -> dict[str, str]:
        """The form as the browser would send it untouched."""
        return dict(self.fields)


class _Collector(HTMLParser):
    """Collects forms and links of one page."""

    def __init__(self, page_path: str):
        super().__init__(convert_charrefs=True)
        self.page_path = page_path
        self.forms: list[Form] = []
        self.links: list[str] = []
        self._open: Form | None = None
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        attr = {name: value or "" for name, value in attrs}
        if tag == "form":
            self._start_form(attr)
        elif tag == "a" and attr.get("href"):
            self.links.append(attr["href"])
        elif tag in INPUT_TAGS and self._open is not None and attr.get("name"):
            self._field(tag, attr)
        elif tag == "option" and self._select and self._open is not None:
            self._option(attr)

    def handle_endtag(self, tag):
        if tag == "form" and self._open is not None:
            self.forms.append(self._open)
            self._open = None
        elif tag == "select":
            self._select = None

    def _start_form(self, attr: dict) -> None:
        action = urljoin(self.page_path, attr.get("action") or self.page_path)
        self._open = Form(attr.get("method", "get").upper(), urlsplit(action).path)
        # A GET form's own query string is part of what it sends.
        for key, value in parse_qsl(urlsplit(action).query, keep_blank_values=True):
            self._open.fields.setdefault(key, value)

    def _option(self, attr: dict) -> None:
        """A select sends its selected option, else its first one."""
        if "selected" in attr or self._select not in self._open.fields:
            self._open.fields[self._select] = attr.get("value", "")

    def _field(self, tag: str, attr: dict) -> None:
        name, kind = attr["name"], attr.get("type", "text").lower()
        if kind == "file":
            self._open.files.add(name)
        elif tag == "select":
            self._select = name
        elif kind in ("checkbox", "radio") and "checked" not in attr:
            self._open.options.setdefault(name, attr.get("value", "on"))
        elif kind not in UNSENT_TYPES:
            self._open.fields.setdefault(name, attr.get("value", ""))


@dataclass
class PageMap:
    """What the crawled pages offer: query parameter names per path, and the write forms."""

    params: dict[str, set[str]] = field(default_factory=dict)
    write_forms: dict[str, Form] = field(default_factory=dict)

    def visit(self, page_path: str, html: str) -> None:
        """Record one page's GET forms, links and POST forms."""
        collector = _Collector(page_path)
        collector.feed(html)
        for form in collector.forms:
            if form.method == "GET":
                self._add_params(form.path, form.fields)
            else:
                self.write_forms.setdefault(form.path, form)
        for href in collector.links:
            target = urlsplit(urljoin(page_path, href))
            if not target.netloc:
                self._add_params(target.path, dict(parse_qsl(target.query)))

    def _add_params(self, path: str, names) -> None:
        self.params.setdefault(path, set()).update(n for n in names if n != "csrf_token")
