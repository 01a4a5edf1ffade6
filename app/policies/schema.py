"""The vocabulary of the income-policy format (version 2)."""

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


def empty_config():
    """Return a fresh configuration with no policies."""
    return {"v": VERSION, "skip_for_multiple_match": False, "policies": [], "ignore_policies": []}


def rules(config, key):
    """Return the list under key ("policies" or "ignore_policies"), empty when absent."""
    if not isinstance(config, dict):
        return []
    found = config.get(key)
    return found if isinstance(found, list) else []


def is_enabled(rule):
    """Tell whether a rule takes part in evaluation (a missing "enabled" means yes)."""
    return rule.get("enabled", True) is not False
