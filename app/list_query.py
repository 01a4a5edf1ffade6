"""A list's filter as one object: the list's link and the upstream query behind a count both come
from it, so a number shown somewhere and the list it opens cannot disagree.

A ListQuery holds the URL arguments of a list and the list's own reader (URL arguments ->
upstream parameters, the very function the list view uses). A dashboard card counts with
`params()` and links with `url()`; the list, opened by that link, reads the same arguments with
the same reader. Areas give their query builders: `app/incomes/filters.py` (`list_query`),
`app/expenses/filters.py` (`list_query`), `app/review/filters.py` (`queue_query`).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from flask import url_for
from werkzeug.datastructures import MultiDict

Reader = Callable[[MultiDict], "dict | None"]
# Arguments that say which slice of the list is shown, not which rows belong to it.
PAGING = ("page", "cursor")


@dataclass(frozen=True)
class ListQuery:
    """The URL arguments of a list (endpoint) and the reader that turns them into API params."""

    endpoint: str
    args: tuple[tuple[str, str], ...]
    reader: Reader

    @classmethod
    def of(cls, endpoint: str, reader: Reader, args: Mapping) -> ListQuery:
        """A query from URL arguments (a dict or a MultiDict); empty values left out."""
        pairs = MultiDict(args).items(multi=True)
        return cls(endpoint, tuple((k, str(v)) for k, v in pairs if v not in (None, "")),
                   reader)

    def multidict(self) -> MultiDict:
        """The arguments as the list view reads them from its URL."""
        return MultiDict(list(self.args))

    def params(self) -> dict | None:
        """The upstream parameters the list sends for these arguments; None when invalid."""
        return self.reader(self.multidict())

    def url(self, endpoint: str | None = None) -> str:
        """The list's URL (or another endpoint's, e.g. its export) with these arguments."""
        return url_for(endpoint or self.endpoint, **self.multidict().to_dict(flat=False))


def filter_args(args: MultiDict) -> MultiDict:
    """The request's arguments without the paging ones: what an export of the list carries."""
    return MultiDict([(k, v) for k, v in args.items(multi=True) if k not in PAGING])
