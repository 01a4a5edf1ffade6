"""evaluate(): what the policies do to one income, and what a matching policy does to the
income's assignments (no request, HTTP or database).

The sandbox runs it when it imports an income; the editor's preview and the review queue run it
too. Nothing here mutates the config or the income it is given.
- evaluate() raises InvalidConfig (a ValueError) when validate() finds errors; warnings pass.
  evaluate_valid() skips that check for many incomes against one config checked once with
  ensure_valid().
- Ignore rules run first; the first enabled one that matches skips the income, no policy runs.
- Several matching policies: with skip_for_multiple_match none applies and the income needs
  review; without it the first match in list order wins.
- "set" keys that are absent or null leave the assignment as it is; tags are replaced, not added.
- Splits: amount parts are gross amounts taken first, with the income's sign (so a storno splits
  like its original). Percent parts share what is left and must add up to 100; without percent
  parts the amounts must add up to the gross exactly, else the income needs review. Rounding
  remainders go to the last percent part (gross) and the last part (net), so the parts add up to
  the income's totals to the cent. Policy-level fields are defaults for every part.
- Records named by string rather than id are listed in Outcome.to_create under "revenue_types",
  "tags" or "ledger_numbers"; apply_names(outcome, resolve) swaps them for resolve(kind, name).
"""

import operator
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

import app.policies.labels as M
from app.numbers import to_decimal
from app.policies.labels import LEDGER_NUMBERS, NUMERIC_FIELDS, REVENUE_TYPES, TAGS, TARGET_KEYS
from app.policies.validate import Problem, ensure_valid, is_enabled, rules, warning


@dataclass
class Outcome:
    """The result of evaluate(); assignments always holds what the income should carry."""

    ignored: bool = False
    ignored_by: str | None = None
    matched: list = field(default_factory=list)
    applied: int | None = None
    skipped_multiple: bool = False
    needs_review: bool = False
    assignments: list = field(default_factory=list)
    changes: dict = field(default_factory=dict)
    set_by: dict = field(default_factory=dict)
    to_create: dict = field(default_factory=dict)
    review_reason: Problem | None = None
    facts: dict = field(default_factory=dict)


def evaluate(config, income, currency_codes=None):
    """Run config's policies on income; raises InvalidConfig when config has errors."""
    ensure_valid(config)
    return evaluate_valid(config, income, currency_codes)


def evaluate_valid(config, income, currency_codes=None):
    """evaluate() for a config the caller has checked with ensure_valid() and not changed
    since: many incomes against one config pay for validation once, not once per income."""
    facts = facts_from_income(income, currency_codes)
    outcome = Outcome(assignments=base_assignments(income), facts=facts)
    for _, ignore_rule in _matching(rules(config, "ignore_policies"), facts):
        outcome.ignored, outcome.ignored_by = True, ignore_rule["name"]
        return outcome
    policies = rules(config, "policies")
    outcome.matched = [index for index, _ in _matching(policies, facts)]
    if len(outcome.matched) > 1 and config.get("skip_for_multiple_match"):
        names = ", ".join(policies[index]["name"] for index in outcome.matched)
        return _review(outcome, warning((), M.REVIEW_MULTIPLE, names=names), skipped=True)
    if outcome.matched:
        _apply(outcome, outcome.matched[0], policies[outcome.matched[0]])
    return outcome


def _matching(rule_list, facts):
    return (
        (index, rule)
        for index, rule in enumerate(rule_list)
        if is_enabled(rule) and rule_matches(rule, facts)
    )


def _review(outcome, reason, skipped=False):
    outcome.needs_review, outcome.review_reason, outcome.skipped_multiple = True, reason, skipped
    return outcome


def _apply(outcome, index, policy):
    actions = policy.get("set") or {}
    if actions.get("split") is None:
        result = [set_targets(item, actions) for item in outcome.assignments]
    else:
        result = split_assignments(outcome.assignments, actions)
    if isinstance(result, Problem):
        return _review(outcome, result)
    outcome.applied = index
    outcome.changes = changed_fields(outcome.assignments, result)
    outcome.set_by = dict.fromkeys(_keys_set(actions), policy["name"])
    outcome.assignments = result
    outcome.to_create = names_to_create(result)
    return outcome


def _keys_set(actions):
    parts = actions.get("split") or []
    return [
        key
        for key in TARGET_KEYS + ("split",)
        if actions.get(key) is not None or any(part.get(key) is not None for part in parts)
    ]


# -- facts ----------------------------------------------------------------------------------------

def facts_from_income(income, currency_codes=None):
    """Flatten an upstream income (list or detail shape) into {condition field: value}."""
    partner = income.get("partner") if isinstance(income.get("partner"), dict) else {}
    return {
        "partner_name": _text(income.get("partner_name") or partner.get("name")),
        "partner_tax_number": normalize_tax_number(
            _text(income.get("partner_tax_number") or partner.get("tax_number"))
        ),
        "invoice_number": _text(income.get("invoice_number")),
        "note": _text(income.get("note")),
        "currency": _currency(income.get("currency"), currency_codes or {}),
        "vat_area": _text(income.get("vat_area")),
        "gross_amount": to_decimal(income.get("gross_amount")),
        "net_amount": to_decimal(income.get("net_amount")),
        "type": _income_type(income),
        "source": _text(income.get("source")) or "manual",
    }


def normalize_tax_number(text):
    """Drop dashes and spaces: the upstream stores "12345678-2-41" as "12345678241"."""
    return text.replace("-", "").replace(" ", "") if isinstance(text, str) else text


def _text(value):
    if isinstance(value, dict):
        value = value.get("name")
    if value is None or isinstance(value, bool):
        return None
    return value if isinstance(value, str) else str(value)


def _currency(value, codes):
    """Return the currency code: ids go through the catalogue, objects carry their name."""
    if isinstance(value, dict):
        code = codes.get(value.get("id")) or value.get("code") or value.get("name")
    elif isinstance(value, int) and not isinstance(value, bool):
        code = codes.get(value)
    elif isinstance(value, str) and value.isdigit():
        code = codes.get(int(value))
    else:
        code = value
    return code.upper() if isinstance(code, str) and code else None


def _income_type(income):
    value = income.get("type", income.get("income_type"))
    if isinstance(value, dict):
        value = value.get("id")
    return to_decimal(value)


# -- conditions -----------------------------------------------------------------------------------

def rule_matches(rule, facts):
    """Tell whether rule holds: "all" or "any" of its conditions; no conditions always holds."""
    conditions = rule.get("conditions") or []
    if not conditions:
        return True
    results = (condition_holds(condition, facts) for condition in conditions)
    return any(results) if rule.get("match") == "any" else all(results)


def condition_holds(condition, facts):
    """Evaluate one valid condition; every not_* op is the exact negation of its positive op."""
    field, op, value = condition["field"], condition["op"], condition.get("value")
    negate = op.startswith("not_")
    op = op.removeprefix("not_")
    if field in NUMERIC_FIELDS:
        result = _numeric(op, facts.get(field), value)
    else:
        result = _text_test(op, field, facts.get(field), value)
    return result != negate


_NUMERIC_TESTS = {
    "equals": operator.eq,
    "gt": operator.gt,
    "gte": operator.ge,
    "lt": operator.lt,
    "lte": operator.le,
}


def _numeric(op, fact, value):
    if fact is None:
        return False
    if op == "between":
        return to_decimal(value[0]) <= fact <= to_decimal(value[1])
    if op == "in":
        return any(fact == to_decimal(item) for item in value)
    return _NUMERIC_TESTS[op](fact, to_decimal(value))


_TEXT_TESTS = {
    "equals": operator.eq,
    "contains": operator.contains,
    "starts_with": str.startswith,
    "ends_with": str.endswith,
}


def _text_test(op, field, fact, value):
    text = fact or ""
    if op == "regex":
        # The pattern is not case-folded: that would turn escapes like \D into \d.
        return re.search(value, _fold(field, text, casefold=False), re.IGNORECASE) is not None
    if op == "in":
        return _fold(field, text) in {_fold(field, item) for item in value}
    return _TEXT_TESTS[op](_fold(field, text), _fold(field, value))


def _fold(field, text, casefold=True):
    if field == "partner_tax_number":
        text = normalize_tax_number(text)
    return text.casefold() if casefold else text


# -- what a matching policy does to the income's assignments --------------------------------------

AMOUNT_KEYS = ("net_amount", "vat_amount", "gross_amount")
# Where each "set" key lands on an assignment.
TARGET_TO_ASSIGNMENT = {
    "revenue_type": "revenue_type",
    "job_number": "job_number",
    "ledger_number": "ledger_number_id",
    "tags": "tags",
}


def base_assignments(income):
    """Return the income's assignments, or one mirroring its totals when it has none."""
    existing = [item for item in income.get("assignments") or [] if isinstance(item, dict)]
    if existing:
        return [_normalized(item) for item in existing]
    return [_normalized({key: income.get(key) for key in AMOUNT_KEYS})]


def _totals(amounts):
    """Fill a missing amount from the other two (gross = net + vat)."""
    net, vat, gross = (to_decimal(amounts.get(key)) for key in AMOUNT_KEYS)
    if gross is None:
        gross = (net or ZERO) + (vat or ZERO)
    if net is None:
        net = gross - (vat or ZERO)
    if vat is None:
        vat = gross - net
    return {"net_amount": net, "vat_amount": vat, "gross_amount": gross}


def _normalized(assignment):
    """Copy an assignment with ids for references and amounts as decimal strings."""
    result = {
        "revenue_type": None,
        "job_number": None,
        "ledger_number_id": None,
        "tags": [],
        "vat": None,
    }
    result.update(assignment)
    result["revenue_type"] = _id_of(result["revenue_type"])
    result["tags"] = [_id_of(tag) for tag in result["tags"] or []]
    result.update({key: money_text(value) for key, value in _totals(result).items()})
    return result


def _id_of(value):
    # Not app.upstream.responses.ref: the sandbox imports this engine, never the HTTP client.
    return value.get("id") if isinstance(value, dict) else value


def set_targets(assignment, values):
    """Copy assignment with every target values sets (null or absent leaves it as it is)."""
    result = dict(assignment)
    for key, target in TARGET_TO_ASSIGNMENT.items():
        if values.get(key) is not None:
            result[target] = values[key]
    if values.get("tags") is not None:
        result["tags"] = list(dict.fromkeys(values["tags"]))
    return result


def changed_fields(before, after):
    """Return {set key: (before, after)} for what differs; several values show as a list."""
    changes = {}
    for key, target in TARGET_TO_ASSIGNMENT.items():
        old, new = _summary(before, target), _summary(after, target)
        if old != new:
            changes[key] = (old, new)
    old_split = [item["gross_amount"] for item in before]
    new_split = [item["gross_amount"] for item in after]
    if old_split != new_split:
        changes["split"] = (old_split, new_split)
    return changes


def _summary(assignments, key):
    values = [item.get(key) for item in assignments]
    if not values:
        return None
    return values[0] if all(value == values[0] for value in values) else values


# -- splits ---------------------------------------------------------------------------------------

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def money(value):
    """Round a Decimal to cents, halves away from zero."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def money_text(value):
    """Format a Decimal amount the way the upstream sends amounts ("1270.00")."""
    rounded = money(value)
    return str(rounded if rounded else ZERO)


def distribute(total, weights):
    """Share total in proportion to weights; the last share takes the rounding remainder."""
    weight_sum = sum(weights, Decimal(0))
    if not weight_sum:
        return [ZERO] * (len(weights) - 1) + [total]
    shares = [money(total * weight / weight_sum) for weight in weights[:-1]]
    return shares + [total - sum(shares, ZERO)]


def split_assignments(base, actions):
    """Return the split assignments, or a Problem saying why the income needs review instead."""
    if any(item.get("vat") != base[0].get("vat") for item in base):
        return warning((), M.REVIEW_SPLIT_VAT)
    net = sum((to_decimal(item["net_amount"]) for item in base), ZERO)
    gross = sum((to_decimal(item["gross_amount"]) for item in base), ZERO)
    parts = actions["split"]
    grosses = part_grosses(parts, gross)
    if not isinstance(grosses, list):
        return grosses
    nets = distribute(net, grosses)
    template = set_targets(base[0], actions)
    return [
        _part_assignment(template, part, part_net, part_gross)
        for part, part_net, part_gross in zip(parts, nets, grosses, strict=True)
    ]


def part_grosses(parts, gross):
    """Return each part's gross amount, or a review Problem when amounts do not fit."""
    sign = -1 if gross < 0 else 1
    fixed = [_fixed(part, sign) for part in parts]
    fixed_sum = sum((amount for amount in fixed if amount is not None), ZERO)
    percents = [to_decimal(part["percent"]) for part in parts if _is_percent(part)]
    if not percents and fixed_sum != gross:
        return _mismatch(M.REVIEW_SPLIT_MISMATCH, fixed_sum, gross)
    if abs(fixed_sum) > abs(gross):
        return _mismatch(M.REVIEW_SPLIT_EXCEEDS, fixed_sum, gross)
    shares = iter(distribute(gross - fixed_sum, percents)) if percents else iter(())
    return [amount if amount is not None else next(shares) for amount in fixed]


def _is_percent(part):
    return part.get("percent") is not None


def _fixed(part, sign):
    return None if _is_percent(part) else money(to_decimal(part["amount"])) * sign


def _mismatch(message, parts, gross):
    return warning((), message, parts=money_text(parts), gross=money_text(gross))


def _part_assignment(template, part, net, gross):
    result = set_targets(template, part)
    result["net_amount"] = money_text(net)
    result["vat_amount"] = money_text(gross - net)
    result["gross_amount"] = money_text(gross)
    return result


# -- records named by string ----------------------------------------------------------------------

# Assignment key (and "set" key) -> record kind.
_ASSIGNMENT_REFS = {"revenue_type": REVENUE_TYPES, "ledger_number_id": LEDGER_NUMBERS}
_SET_REFS = {"revenue_type": REVENUE_TYPES, "ledger_number": LEDGER_NUMBERS}


def names_to_create(assignments):
    """Return {kind: sorted names} for the records assignments name instead of id."""
    return _collect(assignments, _ASSIGNMENT_REFS)


def names_in_config(config):
    """Return {kind: sorted names} for every record any policy or split part names by string."""
    found = []
    for policy in rules(config, "policies"):
        actions = policy.get("set") if isinstance(policy, dict) else None
        if isinstance(actions, dict):
            found.append(actions)
            found += [part for part in actions.get("split") or [] if isinstance(part, dict)]
    return _collect(found, _SET_REFS)


def _collect(items, refs):
    found = {}
    for item in items:
        for key, kind in refs.items():
            if isinstance(item.get(key), str):
                found.setdefault(kind, set()).add(item[key])
        tags = item.get("tags")
        for tag in tags if isinstance(tags, list) else []:
            if isinstance(tag, str):
                found.setdefault(TAGS, set()).add(tag)
    return {kind: sorted(names) for kind, names in sorted(found.items())}


def apply_names(outcome, resolve):
    """Return outcome's assignments with every name replaced by resolve(kind, name)'s id."""
    ids = {
        (kind, name): resolve(kind, name)
        for kind, names in names_to_create(outcome.assignments).items()
        for name in names
    }
    return [_resolved(item, ids) for item in outcome.assignments]


def _resolved(assignment, ids):
    result = dict(assignment)
    for key, kind in _ASSIGNMENT_REFS.items():
        if isinstance(result.get(key), str):
            result[key] = ids[(kind, result[key])]
    result["tags"] = list(
        dict.fromkeys(ids[(TAGS, tag)] if isinstance(tag, str) else tag for tag in result["tags"])
    )
    return result
