"""URL routing shared by every resource: route tables and the row-id converter."""
from __future__ import annotations

from collections.abc import Callable, Iterable

from flask import Blueprint
from werkzeug.routing import IntegerConverter

Route = tuple[str, str, Callable]


class RowIdConverter(IntegerConverter):
    """<int:...> path ids; beyond SQLite's 64-bit integers no row can exist, so 404, not 500."""

    def __init__(self, url_map, *args, **kwargs):
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(url_map, *args, **kwargs)


def blueprint(name: str, import_name: str, routes: Iterable[Route]) -> Blueprint:
    """A blueprint serving each (methods, rule, view) row; methods are space-separated."""
    bp = Blueprint(name, import_name)
    for methods, rule, view in routes:
        bp.add_url_rule(rule, view_func=view, methods=methods.split())
    return bp
