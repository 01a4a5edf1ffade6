"""Why an income needs attention, as far as its own data and the company's policies tell.

The upstream keeps no reason next to needs_review, so each reason is derived: an assignment
without revenue type, no tags anywhere, how many of the company's policies match the income now
(the engine in app.policies, the same the editor previews with), a partner the partner list
does not know or created recently.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from flask_babel import lazy_gettext as _l

from app.policies.engine import evaluate_valid
from app.policies.validate import InvalidConfig, ensure_valid, rules

LABELS = {
    "no_revenue_type": _l("No revenue type"),
    "no_tags": _l("No tags"),
    "several_policies": _l("Several policies match"),
    "no_policy": _l("No policy matches"),
    "new_partner": _l("New partner"),
    "unknown_partner": _l("Partner not in the partner list"),
    "flagged": _l("Flagged for review"),
}
TONES = {"no_revenue_type": "danger", "several_policies": "warn", "new_partner": "attention",
         "unknown_partner": "attention", "no_tags": "muted", "no_policy": "muted",
         "flagged": "muted"}


@dataclass(frozen=True)
class Reason:
    """One reason: a code, its label, optional detail (policy names) and a badge tone."""

    code: str
    detail: str | None = None

    @property
    def label(self) -> Any:
        """The translated label."""
        return LABELS[self.code]

    @property
    def tone(self) -> str:
        """The badge style."""
        return TONES[self.code]


@dataclass(frozen=True)
class Context:
    """What reasons need besides the record: policies, currency codes, new partner ids."""

    policies: dict | None = None
    codes: dict = field(default_factory=dict)
    new_partners: frozenset = frozenset()

    @property
    def has_policies(self) -> bool:
        """True when the company has at least one enabled policy."""
        return any(rule.get("enabled", True) is not False
                   for rule in rules(self.policies, "policies"))

    @cached_property
    def usable_policies(self) -> dict | None:
        """The policies when there are enabled ones and they validate (checked once, not per
        row); None otherwise: a broken configuration must not break the queue."""
        if not self.has_policies:
            return None
        try:
            ensure_valid(self.policies)
        except InvalidConfig:
            return None
        return self.policies


def missing_revenue_type(record: dict) -> bool:
    """True when the income has no assignment, or one without revenue type."""
    rows = record.get("assignments") or []
    return not rows or any(_ref(row.get("revenue_type")) is None for row in rows)


def has_tags(record: dict) -> bool:
    """True when the income or any of its assignments carries a tag."""
    return bool(record.get("tags")) or any(row.get("tags") for row in
                                           record.get("assignments") or [])


def matched_policies(record: dict, context: Context) -> list[str] | None:
    """Names of the enabled policies that match the income now; None without policies."""
    config = context.usable_policies
    if config is None:
        return None
    try:
        outcome = evaluate_valid(config, record, context.codes)
    except Exception:  # noqa: BLE001 - an odd income must not break the queue
        return None
    names = [rule.get("name") or "?" for rule in rules(config, "policies")]
    return [names[index] for index in outcome.matched]


def policy_outcome(record: dict, context: Context) -> str | None:
    """'several', 'none' or 'one' policy matching; None when the company has none."""
    matched = matched_policies(record, context)
    if matched is None:
        return None
    return "none" if not matched else ("one" if len(matched) == 1 else "several")


def reasons(record: dict, context: Context) -> list[Reason]:
    """The reasons this income needs review, most pressing first."""
    found = []
    if missing_revenue_type(record):
        found.append(Reason("no_revenue_type"))
    matched = matched_policies(record, context)
    if matched is not None and len(matched) > 1:
        found.append(Reason("several_policies", ", ".join(matched)))
    found += _partner_reasons(record, context)
    if not has_tags(record):
        found.append(Reason("no_tags"))
    if matched == []:
        found.append(Reason("no_policy"))
    return found or [Reason("flagged")]


def _partner_reasons(record: dict, context: Context) -> list[Reason]:
    partner = _ref(record.get("partner_id", record.get("partner")))
    if partner is None and record.get("partner_name"):
        return [Reason("unknown_partner")]
    return [Reason("new_partner")] if partner in context.new_partners else []


def _ref(value: Any) -> Any:
    return value.get("id") if isinstance(value, dict) else value
