"""From a posted RuleForm back to a rule dict, merged into the dicts it came from.

Keys the editor does not know stay where they were, and a value the user did not change keeps
its stored form (2000000 stays an integer, a tag named by name stays a name).
"""
from __future__ import annotations

from app.numbers import InputError, parse_amount, parse_number, to_decimal
from app.policies import NUMERIC_FIELDS
from app.policy_editor.formdata import REF_KEYS
from app.policy_editor.ruleform import NEW_TAG, orig_of

LIST_SEPARATOR = ";"


def rule_from_form(form, original: dict, section: str, catalogs) -> dict:
    """The rule the form describes, built on top of original."""
    rule = dict(original)
    rule["name"] = (form.name.data or "").strip()
    _put_default(rule, original, "enabled", bool(form.enabled.data), True)
    _put_default(rule, original, "match", form.match.data or "all", "all")
    rule["conditions"] = [condition_from(entry.form) for entry in form.conditions]
    if section == "policies":
        old = original.get("set") if isinstance(original.get("set"), dict) else {}
        rule["set"] = actions_from(form, old, catalogs)
    return rule


def _put_default(rule, original, key, value, default) -> None:
    if key in original or value != default:
        rule[key] = value


def condition_from(row) -> dict:
    """One condition, merged into its stored row."""
    orig = orig_of(row.orig)
    field, op = row.field.data, row.op.data
    value = condition_value(field, op, row.value.data, row.value2.data)
    result = {**orig, "field": field, "op": op, "value": value}
    if (orig.get("field"), orig.get("op")) == (field, op) and \
            _same_value(field, orig.get("value"), value):
        result["value"] = orig.get("value")
    return result


def condition_value(field, op, text, text2):
    """Read a condition's value: two for between, a semicolon list for "in"."""
    if op == "between":
        return [scalar(field, text), scalar(field, text2)]
    if op == "in":
        items = (item for item in (text or "").split(LIST_SEPARATOR) if item.strip())
        return [scalar(field, item) for item in items]
    if op == "regex":
        return text or ""
    return scalar(field, text)


def scalar(field, text):
    """A number for amounts and the income type (kept as typed when it is not one), else text."""
    text = (text or "").strip()
    return number(text, reader(field)) if field in NUMERIC_FIELDS else text


def reader(field: str):
    """How a value of a numeric field (or a split part's "amount"/"percent") is read."""
    if field == "type":
        return lambda text: parse_number(text, places=0)
    if field == "percent":
        return parse_number
    return parse_amount


def number(text: str, read=parse_amount):
    """1 234,50 -> 1234.5; whole numbers as int; what is refused stays text (input_errors says
    why, and the rule is not applied)."""
    try:
        value = read(text)
    except InputError:
        return text
    if value is None:
        return text
    return int(value) if value == value.to_integral_value() else float(value)


def input_errors(form) -> dict[str, str]:
    """Messages for numbers that cannot be read as typed, by form key ("conditions-0-value")."""
    errors = {}
    for index, entry in enumerate(form.conditions):
        row = entry.form
        if row.field.data in NUMERIC_FIELDS and row.op.data != "regex":
            texts = {"value": row.value.data, "value2": row.value2.data if
                     row.op.data == "between" else ""}
            for name, text in texts.items():
                _refusal(errors, f"conditions-{index}-{name}", text, reader(row.field.data),
                         row.op.data == "in")
    for index, entry in enumerate(form.split if form.use_split.data else []):
        read = reader("amount" if entry.form.kind.data == "amount" else "percent")
        _refusal(errors, f"split-{index}-share", entry.form.share.data, read)
    return errors


def _refusal(errors: dict, key: str, text, read, listed: bool = False) -> None:
    items = (text or "").split(LIST_SEPARATOR) if listed else [text]
    for item in items:
        try:
            read(item)
        except InputError as error:
            errors[key] = str(error)
            return


def _same_value(field, old, new) -> bool:
    if isinstance(old, list) or isinstance(new, list):
        return isinstance(old, list) and isinstance(new, list) and len(old) == len(new) and \
            all(_same_value(field, a, b) for a, b in zip(old, new, strict=True))
    if field in NUMERIC_FIELDS:
        return to_decimal(old) is not None and to_decimal(old) == to_decimal(new)
    return old == new


def actions_from(form, old: dict, catalogs) -> dict:
    """What a policy sets, merged into its stored "set"."""
    result = targets_from(form, old, catalogs)
    split = [part_from(entry.form, catalogs) for entry in form.split] \
        if form.use_split.data else None
    _put(result, old, "split", split)
    return result


def targets_from(form, old: dict, catalogs) -> dict:
    """Revenue type, ledger number, job number and tags of a policy or a split part."""
    result = dict(old)
    for key in REF_KEYS:
        _put(result, old, key, ref_from(form[key].data, old.get(key), catalogs.for_target(key)))
    _put(result, old, "job_number", (form.job_number.data or "").strip() or None)
    tags = tags_from(form.tags.data or [], form.new_tags.data, old.get("tags"), catalogs.tags)
    _put(result, old, "tags", tags)
    return result


def _put(result: dict, old: dict, key: str, value) -> None:
    """Set a value; an empty one removes the key (unless it was stored as null)."""
    if value is not None:
        result[key] = value
    elif not (key in old and old[key] is None):
        result.pop(key, None)


def ref_from(text, old, catalog):
    """A reference as typed; the stored one when the text still shows it."""
    if old is not None and (text or "").strip() == catalog.label(old):
        return old
    return catalog.parse(text)


def tags_from(selected, new_text, old, catalog):
    """Ticked tags plus new names; the stored list when it names the same tags."""
    values = [_tag_value(token) for token in selected]
    values += [catalog.parse(name) for name in (new_text or "").split(",") if name.strip()]
    values = list(dict.fromkeys(value for value in values if value is not None))
    if isinstance(old, list) and {catalog.key(v) for v in old} == {catalog.key(v) for v in values}:
        return old
    return values or None


def _tag_value(token: str):
    if token.startswith(NEW_TAG):
        return token[len(NEW_TAG):]
    return int(token) if token.isdecimal() and len(token) <= 18 else token


def part_from(row, catalogs) -> dict:
    """One split part, merged into its stored row."""
    orig = orig_of(row.orig)
    kind = row.kind.data if row.kind.data in ("percent", "amount") else "percent"
    other = "amount" if kind == "percent" else "percent"
    result = targets_from(row, orig, catalogs)
    share = number((row.share.data or "").strip(), reader(kind))
    same = to_decimal(orig.get(kind)) is not None and to_decimal(orig.get(kind)) == \
        to_decimal(share)
    result[kind] = orig.get(kind) if same else share
    result.pop(other, None)
    return result
