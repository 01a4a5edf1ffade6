"""The input table of docs/number-input.md as rows: what is typed, on which page, into what kind
of field, and the value read or the message shown."""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

TABLE = Path(__file__).resolve().parents[2] / "docs" / "number-input.md"
MARKS = {"⍽": "\u00a0", "‿": "\u202f"}
# Kinds whose result is a day, a month (YYYY-MM) or a moment (YYYY-MM-DDTHH:MM), not a number.
DATED = ("date", "month", "moment")
_ROW = re.compile(r"\| `(?P<text>[^`]*)` \| (?P<locale>hu|en) \| (?P<kind>[a-z]+)"
                  r"(?: (?P<code>[A-Z]{3}))? \| (?P<result>.+?) \|")


@dataclass(frozen=True)
class Row:
    """One row: typed text (no-break spaces restored), page locale, kind, currency, outcome."""

    text: str
    locale: str
    kind: str
    currency: str | None
    result: str

    @property
    def refused(self) -> str | None:
        """The message when the row is refused, else None."""
        return self.result.removeprefix("refused: ") if self.result.startswith("refused:") \
            else None

    @property
    def value(self) -> Decimal | None:
        """The number read (None for refused rows, dates, months and moments)."""
        return None if self.refused or self.kind in DATED else Decimal(self.result)

    def __str__(self) -> str:
        return f"{self.locale}:{self.kind}:{self.text!r}"


def _restore(text: str) -> str:
    for mark, char in MARKS.items():
        text = text.replace(mark, char)
    return text


def rows(kind: str | None = None, locale: str | None = None) -> list[Row]:
    """The table's rows, optionally only one kind ("amount" without currency) or one locale."""
    found = []
    for match in _ROW.finditer(TABLE.read_text(encoding="utf-8")):
        row = Row(_restore(match["text"]), match["locale"], match["kind"], match["code"],
                  _restore(match["result"]))
        if (kind is None or (row.kind == kind and not row.currency)) and \
                locale in (None, row.locale):
            found.append(row)
    return found
