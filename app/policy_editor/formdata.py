"""From a rule dict to a filled RuleForm: texts for values, labels for references, tag options."""
from __future__ import annotations

import json

from app.numbers import format_number, to_decimal
from app.policies import NUMERIC_FIELDS
from app.policy_editor.refs import is_id
from app.policy_editor.ruleform import NEW_TAG, RuleForm, keep_unknown_choice, orig_text

REF_KEYS = ("revenue_type", "ledger_number")


def build_form(rule: dict, catalogs) -> RuleForm:
    """A RuleForm showing rule, with tag options and reference notes filled in."""
    form = RuleForm(data=rule_data(rule, catalogs))
    actions = _actions(rule)
    _prepare_targets(form, actions, catalogs)
    for entry, condition in zip(form.conditions, rule.get("conditions") or [], strict=False):
        keep_unknown_choice(entry.form.field, condition.get("field"))
        keep_unknown_choice(entry.form.op, condition.get("op"))
    for entry, part in zip(form.split, actions.get("split") or [], strict=False):
        _prepare_targets(entry.form, part, catalogs)
    return form


def _actions(rule: dict) -> dict:
    found = rule.get("set")
    return found if isinstance(found, dict) else {}


def rule_data(rule: dict, catalogs) -> dict:
    """The form data of a rule."""
    actions = _actions(rule)
    split = actions.get("split")
    return {"name": str(rule.get("name") or ""),
            "enabled": rule.get("enabled", True) is not False,
            "match": rule.get("match") if rule.get("match") in ("all", "any") else "all",
            "conditions": [condition_data(c) for c in rule.get("conditions") or []],
            **targets_data(actions, catalogs),
            "use_split": split is not None,
            "split": [part_data(part, catalogs) for part in split or []]}


def condition_data(condition: dict) -> dict:
    """One condition row: between as two values, "in" as a semicolon list."""
    op, value = condition.get("op"), condition.get("value")
    text = number_text if condition.get("field") in NUMERIC_FIELDS else value_text
    first, second = text(value), ""
    if op == "between" and isinstance(value, list):
        first, second = (text(item) for item in (list(value) + [None, None])[:2])
    elif op == "in" and isinstance(value, list):
        first = "; ".join(text(item) for item in value)
    return {"orig": orig_text(condition), "field": condition.get("field") or "",
            "op": op or "", "value": first, "value2": second}


def part_data(part: dict, catalogs) -> dict:
    """One split part row."""
    kind = "amount" if part.get("amount") is not None and part.get("percent") is None \
        else "percent"
    return {"orig": orig_text(part), "kind": kind, "share": number_text(part.get(kind)),
            **targets_data(part, catalogs)}


def targets_data(values: dict, catalogs) -> dict:
    """Revenue type, ledger number, job number and tags as the form shows them."""
    data = {key: catalogs.for_target(key).label(values.get(key)) for key in REF_KEYS}
    data["job_number"] = value_text(values.get("job_number"))
    data["tags"] = tag_tokens(values.get("tags"), catalogs.tags)
    data["new_tags"] = ""
    return data


def value_text(value) -> str:
    """A stored value as an input shows it."""
    if value is None:
        return ""
    if isinstance(value, float):
        return format(to_decimal(value), "f")
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def number_text(value) -> str:
    """A stored number as the page's locale writes it in an input (1234,5 on a Hungarian page);
    text (a number stored as a string, or text kept as typed) as it is."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value_text(value)
    return format_number(to_decimal(value), grouping=False)


def tag_tokens(tags, catalog) -> list[str]:
    """Picker values of a tag list: ids as text, names of records to create as "n:<name>"."""
    tokens = []
    for tag in tags if isinstance(tags, list) else []:
        found = tag if is_id(tag) else catalog.find(str(tag))
        tokens.append(str(found) if found is not None else NEW_TAG + str(tag))
    return tokens


def _prepare_targets(form, values: dict, catalogs) -> None:
    for key in REF_KEYS:
        ref = catalogs.for_target(key)
        form[key].ref_status = ref.status(ref.parse(form[key].data))
    form.tags.options = tag_options(form.tags.data or [], catalogs.tags)


def tag_options(selected: list[str], catalog) -> list[dict]:
    """Picker options: the catalogue, then unknown ids and new names the rule already uses."""
    options = [{"value": str(i), "label": label, "status": "existing"}
               for i, label in catalog.options()]
    known = {option["value"] for option in options}
    for token in selected:
        if token in known:
            continue
        new = token.startswith(NEW_TAG)
        label = token[len(NEW_TAG):] if new else f"#{token}"
        options.append({"value": token, "label": label, "status": "new" if new else "missing"})
    for option in options:
        option["checked"] = option["value"] in selected
    return options
