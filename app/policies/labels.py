"""How the editor names things: the policy vocabulary in words (condition fields, comparisons,
targets, income types), and revenue types, ledger numbers and tags as policies name them: by
id, or by a new name."""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from flask_babel import lazy_gettext as _l

from app.i18n import collate_key
from app.policies.validate import LEDGER_NUMBERS, NUMERIC_FIELDS, REVENUE_TYPES, TAGS

# -- the vocabulary in words ----------------------------------------------------------------------

FIELD_LABELS = {
    "partner_name": _l("Partner name"),
    "partner_tax_number": _l("Partner tax number"),
    "invoice_number": _l("Invoice number"),
    "note": _l("Note"),
    "currency": _l("Currency"),
    "vat_area": _l("VAT area"),
    "gross_amount": _l("Gross amount"),
    "net_amount": _l("Net amount"),
    "type": _l("Income type"),
    "source": _l("Source (integration)"),
}
OP_LABELS = {
    "equals": _l("is"),
    "not_equals": _l("is not"),
    "in": _l("is one of"),
    "contains": _l("contains"),
    "not_contains": _l("does not contain"),
    "starts_with": _l("starts with"),
    "ends_with": _l("ends with"),
    "regex": _l("matches the pattern"),
    "gt": _l("is more than"),
    "gte": _l("is at least"),
    "lt": _l("is less than"),
    "lte": _l("is at most"),
    "between": _l("is between"),
}
TARGET_LABELS = {
    "revenue_type": _l("Revenue type"),
    "ledger_number": _l("Ledger number"),
    "job_number": _l("Job number"),
    "tags": _l("Tags"),
    "split": _l("Split"),
}
INCOME_TYPES = {
    1: _l("invoice"),
    2: _l("accounting document"),
    6: _l("cash receipt"),
    7: _l("collective receipt"),
}
PART_KINDS = {"percent": _l("Percent"), "amount": _l("Amount")}
SECTION_TITLES = {"policies": _l("Policies"), "ignore": _l("Ignore rules")}

# Which comparisons suit which fields; the browser greys out the others.
TEXT_ONLY = ("contains", "not_contains", "starts_with", "ends_with", "regex")
NUMBER_ONLY = ("gt", "gte", "lt", "lte", "between")


def op_kind(op: str) -> str:
    """Return "text", "number" or "any": the kind of field the comparison works on."""
    if op in TEXT_ONLY:
        return "text"
    return "number" if op in NUMBER_ONLY else "any"


def field_kind(field: str) -> str:
    """Return "number" for amounts and the income type, else "text"."""
    return "number" if field in NUMERIC_FIELDS else "text"


def field_label(field) -> str:
    """The field's label, or the raw name for a field Bookdesk does not know."""
    return str(FIELD_LABELS.get(field, field))


def op_label(op) -> str:
    """The comparison's words, or the raw name for an unknown one."""
    return str(OP_LABELS.get(op, op))


# -- references to catalogue records --------------------------------------------------------------

# "set" key (and split part key) -> catalogue name.
TARGET_CATALOGS = {"revenue_type": REVENUE_TYPES, "ledger_number": LEDGER_NUMBERS,
                   "tags": TAGS}
_ID_TEXT = re.compile(r"#\s*(\d+)")

EXISTING, NEW, MISSING = "existing", "new", "missing"


def is_id(value) -> bool:
    """Tell whether value is a record id (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass
class RefCatalog:
    """One catalogue's records, and how the editor shows and reads references to them."""

    kind: str
    items: list = field(default_factory=list)

    def __post_init__(self):
        self.by_id = {item["id"]: item for item in self.items
                      if isinstance(item, dict) and "id" in item}

    def item_label(self, item: dict) -> str:
        """A record's label: ledger numbers as "code · name", the rest by name."""
        name = str(item.get("name") or "")
        code = item.get("code") if self.kind == LEDGER_NUMBERS else None
        return f"{code} · {name}" if code and name else str(code or name or f"#{item['id']}")

    def label(self, value) -> str:
        """How a reference is shown: the record's label, the new name, or "#id" when unknown."""
        if is_id(value):
            item = self.by_id.get(value)
            return self.item_label(item) if item else f"#{value}"
        return "" if value is None else str(value)

    def find(self, text: str):
        """The id of the record a typed text names (label, name or code; any case), or None."""
        wanted = text.strip().casefold()
        for item in self.by_id.values():
            names = (self.item_label(item), item.get("name"), item.get("code"))
            if any(isinstance(n, str) and n.strip().casefold() == wanted for n in names):
                return item["id"]
        return None

    def parse(self, text) -> int | str | None:
        """Read a typed reference: "" -> None, "#12" -> 12, a known name -> its id, else name."""
        text = (text or "").strip()
        if not text:
            return None
        match = _ID_TEXT.fullmatch(text)
        if match:
            return int(match.group(1))
        found = self.find(text)
        return found if found is not None else text

    def status(self, value) -> str | None:
        """EXISTING, NEW (the engine will create it), MISSING (an unknown id) or None."""
        if value is None or value == "":
            return None
        if is_id(value):
            return EXISTING if value in self.by_id else MISSING
        return EXISTING if self.find(str(value)) is not None else NEW

    def key(self, value):
        """What a reference points at, for telling whether an edit changed it."""
        if isinstance(value, str):
            found = self.find(value)
            return found if found is not None else value.strip().casefold()
        return value

    def options(self) -> list[tuple[int, str]]:
        """(id, label) of every record, for pickers."""
        pairs = [(item_id, self.item_label(item)) for item_id, item in self.by_id.items()]
        return sorted(pairs, key=lambda pair: collate_key(pair[1]))


@dataclass
class Catalogs:
    """The catalogues the editor names records from, plus currency codes for the preview."""

    revenue_types: RefCatalog
    ledger_numbers: RefCatalog
    tags: RefCatalog
    currencies: dict = field(default_factory=dict)

    def for_target(self, key: str) -> RefCatalog:
        """The catalogue behind a "set" key: revenue_type, ledger_number or tags."""
        return getattr(self, TARGET_CATALOGS[key])

    @classmethod
    def from_lists(cls, lists: dict) -> Catalogs:
        """Build from {catalogue name: records} (missing ones count as empty)."""
        currencies = {item["id"]: item.get("code") for item in lists.get("currencies") or []
                      if isinstance(item, dict) and "id" in item}
        return cls(*(RefCatalog(kind, lists.get(kind) or [])
                     for kind in (REVENUE_TYPES, LEDGER_NUMBERS, TAGS)), currencies=currencies)


def with_known_ids(config: dict, catalogs: Catalogs) -> dict:
    """A copy of config whose names of existing records are their ids, as the engine resolves
    them when it applies a policy (so the preview shows a name it would reuse as unchanged)."""
    result = copy.deepcopy(config)
    for policy in result.get("policies") or []:
        actions = policy.get("set") if isinstance(policy, dict) else None
        if not isinstance(actions, dict):
            continue
        parts = actions.get("split") if isinstance(actions.get("split"), list) else []
        for values in [actions, *[part for part in parts if isinstance(part, dict)]]:
            _swap_names(values, catalogs)
    return result


def _swap_names(values: dict, catalogs: Catalogs) -> None:
    for key in ("revenue_type", "ledger_number"):
        if isinstance(values.get(key), str):
            found = catalogs.for_target(key).find(values[key])
            values[key] = found if found is not None else values[key]
    if isinstance(values.get("tags"), list):
        values["tags"] = [_known_tag(tag, catalogs.tags) for tag in values["tags"]]


def _known_tag(tag, catalog: RefCatalog):
    found = catalog.find(tag) if isinstance(tag, str) else None
    return found if found is not None else tag
