"""How policies are worded: the format's vocabulary (fields, comparisons, keys, record kinds),
the editor's words for it (field, comparison and target labels), revenue types,
ledger numbers and tags as policies name them (by id, or by a new name), and every message the
engine reports, as English msgids marked with N_ for Babel (translated where they are shown)."""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from flask_babel import lazy_gettext as _l

from app.i18n import collate_key

# -- the vocabulary -------------------------------------------------------------------------------

VERSION = 2

TEXT_FIELDS = (
    "partner_name",
    "partner_tax_number",
    "invoice_number",
    "note",
    "currency",
    "vat_area",
    "source",
)
NUMERIC_FIELDS = ("gross_amount", "net_amount", "type")
FIELDS = TEXT_FIELDS + NUMERIC_FIELDS

TEXT_OPS = ("contains", "not_contains", "starts_with", "ends_with", "regex")
NUMERIC_OPS = ("gt", "gte", "lt", "lte", "between")
GENERAL_OPS = ("equals", "not_equals", "in")
OPS = GENERAL_OPS + TEXT_OPS + NUMERIC_OPS

MATCH_MODES = ("all", "any")

CONFIG_KEYS = ("v", "skip_for_multiple_match", "policies", "ignore_policies")
IGNORE_KEYS = ("name", "enabled", "match", "conditions")
POLICY_KEYS = IGNORE_KEYS + ("set",)
CONDITION_KEYS = ("field", "op", "value")
TARGET_KEYS = ("revenue_type", "job_number", "ledger_number", "tags")
SET_KEYS = TARGET_KEYS + ("split",)
PART_KEYS = TARGET_KEYS + ("percent", "amount")

# Record kinds the engine may have to create, as passed to resolve(kind, name).
REVENUE_TYPES = "revenue_types"
LEDGER_NUMBERS = "ledger_numbers"
TAGS = "tags"


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
PART_KINDS = {"percent": _l("Percent"), "amount": _l("Amount")}
SECTION_TITLES = {"policies": _l("Policies"), "ignore": _l("Ignore rules")}

# Which comparisons suit which fields (TEXT_OPS, NUMERIC_OPS); the browser greys out the others.
def op_kind(op: str) -> str:
    """Return "text", "number" or "any": the kind of field the comparison works on."""
    if op in TEXT_OPS:
        return "text"
    return "number" if op in NUMERIC_OPS else "any"


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
        """A record's label as the forms name it (a ledger number "code – name"), else "#id"."""
        # Imported here: the sandbox runs this module and must not load the form engine.
        from app.forms.display import entry_label

        if not (item.get("name") or item.get("code")):
            return f"#{item['id']}"
        return entry_label(self.kind, item)

    def label(self, value) -> str:
        """How a reference is shown: the label of the record an id or a name points at, a new
        name as it is, or "#id" when the id is unknown."""
        if value is None:
            return ""
        item = self.by_id.get(value if is_id(value) else self.find(str(value)))
        if item:
            return self.item_label(item)
        return f"#{value}" if is_id(value) else str(value)

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


# -- what the engine reports ----------------------------------------------------------------------

def N_(s):
    """Mark s for translation without translating it (the app translates later)."""
    return s


class Worded:
    """A finding or change carrying a `message` msgid and its `params`."""

    message: str
    params: dict

    def text(self, gettext=None):
        """Return the message filled in; translated by gettext when one is given, and then a
        field or comparison named in the editor's words, not by its key (currency, gt)."""
        if gettext is None:  # the sandbox shares this module and has no translations
            return self.message % self.params
        return gettext(self.message) % {key: _in_words(key, value)
                                        for key, value in self.params.items()}


def _in_words(key: str, value):
    words = {"field": FIELD_LABELS, "op": OP_LABELS}.get(key, {})
    return str(words[value]) if isinstance(value, str) and value in words else value


# Whole configuration
CONFIG_NOT_OBJECT = N_("The policy settings must be an object, or null for no policies.")
VERSION_MISSING = N_('The policy settings lack their format version ("v": 2).')
VERSION_UNSUPPORTED = N_("The policy format is version %(found)s; only version 2 is supported.")
VERSION_NOT_NUMBER = N_('The format version must be the number 2 ("v": 2), not the text '
                        '"%(found)s".')
NOT_BOOL = N_("This must be true or false.")
NOT_LIST = N_("This must be a list.")
UNKNOWN_KEY = N_("Bookdesk does not use the setting %(key)s here; it is kept as it is.")

# Rules (policies and ignore policies)
RULE_NOT_OBJECT = N_("Each rule must be an object with a name and conditions.")
NAME_MISSING = N_("Give the rule a name.")
NAME_DUPLICATE = N_("Another rule is already called %(name)s; give each rule its own name.")
MATCH_INVALID = N_('Choose whether "all" conditions or "any" condition must hold.')
NO_CONDITIONS = N_("This rule has no conditions, so it applies to every income.")
IGNORE_NO_CONDITIONS = N_(
    "An ignore rule needs at least one condition; without one it would skip every income."
)

# Conditions
CONDITION_NOT_OBJECT = N_(
    "Each condition must be an object with a field, a comparison and a value."
)
FIELD_MISSING = N_("Choose which income field the condition looks at.")
FIELD_UNKNOWN = N_("There is no income field called %(field)s.")
OP_MISSING = N_("Choose how the condition compares.")
OP_UNKNOWN = N_("There is no comparison called %(op)s.")
TEXT_OP_ON_NUMBER = N_(
    "“%(field)s” is a number: compare it with equals, greater than, less than or between, "
    "not with “%(op)s”."
)
NUMBER_OP_ON_TEXT = N_(
    "“%(field)s” is text: “%(op)s” works only on amounts and the document type.")
NEED_TEXT = N_("Enter a text to compare with.")
EMPTY_TEXT = N_("Enter the text to look for; an empty text would match every income.")
NEED_NUMBER = N_("Enter a number, such as 1500 or 1500.50.")
CURRENCY_CODE = N_("Give the currency as its three-letter code, such as HUF or EUR.")
BETWEEN_INVALID = N_("Between needs two values, lowest first.")
IN_INVALID = N_("Give a list of one or more values.")
REGEX_INVALID = N_("This is not a valid regular expression: check it near character "
                   "%(position)s.")

# What a policy sets
SET_NOT_OBJECT = N_("What the rule sets must be an object.")
SETS_NOTHING = N_("This rule does not set anything.")
REF_INVALID = N_("Use the id (a whole number) of an existing record, or the name of a new one.")
JOB_NUMBER_INVALID = N_("The job number must be text.")
TAGS_NOT_LIST = N_("Tags must be a list of tag ids or names of new tags.")
TAG_INVALID = N_("Use the id (a whole number) of an existing tag, or the name of a new one.")

# Splits
SPLIT_EMPTY = N_("A split needs a list of one or more parts.")
PART_NOT_OBJECT = N_("Each part of a split must be an object.")
PART_KIND = N_("Give each part either a percent or an amount, not both.")
PART_EMPTY = N_("Give this part a percent or an amount.")
PERCENT_RANGE = N_("A percent must be more than 0 and at most 100.")
AMOUNT_NOT_POSITIVE = N_("An amount must be more than 0.")
AMOUNT_PLACES = N_("An amount can have at most two decimal places.")
PERCENT_SUM = N_("The percents add up to %(total)s; they must add up to exactly 100.")

# Why an evaluated income needs review
REVIEW_MULTIPLE = N_("More than one rule matches this income, so none was applied: %(names)s.")
REVIEW_SPLIT_MISMATCH = N_(
    "The split amounts add up to %(parts)s, not to the income's gross amount of %(gross)s."
)
REVIEW_SPLIT_EXCEEDS = N_(
    "The split amounts add up to %(parts)s, more than the income's gross amount of %(gross)s."
)
REVIEW_SPLIT_VAT = N_(
    "The income has assignments with different VAT rates, so it cannot be split automatically."
)

# What changes between two configurations
CONFIG_DELETED = N_("All policy settings will be deleted.")
CONFIG_WAS_DELETED = N_("All policy settings were deleted.")
SWITCH_ON = N_(
    "When more than one rule matches an income, none will be applied and the income will "
    "need review."
)
SWITCH_OFF = N_("When more than one rule matches an income, the first one in the list will apply.")
OTHER_SETTINGS = N_("Other settings Bookdesk does not edit changed: %(keys)s.")

POLICY_CHANGES = {
    "added": N_("Rule %(name)s added."),
    "removed": N_("Rule %(name)s removed."),
    "renamed": N_("Rule %(old)s renamed to %(name)s."),
    "enabled": N_("Rule %(name)s switched on."),
    "disabled": N_("Rule %(name)s switched off."),
    "match_all": N_("Rule %(name)s now needs all of its conditions."),
    "match_any": N_("Rule %(name)s now needs any one of its conditions."),
    "conditions": N_("Rule %(name)s: conditions changed."),
    "actions": N_("Rule %(name)s: what it sets changed."),
    "sets": N_("Rule %(name)s: what it sets changed — %(target)s: %(old)s → %(new)s."),
    "changed": N_("Rule %(name)s: settings Bookdesk does not edit changed: %(keys)s."),
    "moved": N_("Rule %(name)s moved to position %(position)s."),
}
IGNORE_CHANGES = {
    "added": N_("Ignore rule %(name)s added."),
    "removed": N_("Ignore rule %(name)s removed."),
    "renamed": N_("Ignore rule %(old)s renamed to %(name)s."),
    "enabled": N_("Ignore rule %(name)s switched on."),
    "disabled": N_("Ignore rule %(name)s switched off."),
    "match_all": N_("Ignore rule %(name)s now needs all of its conditions."),
    "match_any": N_("Ignore rule %(name)s now needs any one of its conditions."),
    "conditions": N_("Ignore rule %(name)s: conditions changed."),
    "changed": N_("Ignore rule %(name)s: settings Bookdesk does not edit changed: %(keys)s."),
    "moved": N_("Ignore rule %(name)s moved to position %(position)s."),
}

# Limits on a configuration from outside the editor (a file, or a draft kept earlier)
NOT_FINITE = N_("The file holds %(value)s, which is not a number a policy can use. Write the "
                "number itself instead.")
TOO_MANY_DIGITS = N_("The file holds a number with more than %(max)s digits.")
TOO_DEEP = N_("The policy settings are nested more than %(max)s levels deep; policy settings "
              "are never nested that deep.")
TOO_MANY_VALUES = N_("The policy settings hold more than %(max)s values.")
TOO_MANY_RULES = N_("The policy settings hold more than %(max)s rules.")
TEXT_TOO_LONG = N_("The text at %(where)s is longer than %(max)s characters.")
NON_FINITE_VALUE = N_("The number at %(where)s is not finite (NaN or infinity); write a number "
                      "instead.")
