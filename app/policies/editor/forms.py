"""The editor's forms: the WTForms form of one rule, filling it from a rule dict, reading a
posted one back into the dicts it came from; and the policy file upload.

Reading back, keys the editor does not know stay where they were, and a value the user did not
change keeps its stored form (2000000 stays an integer, a tag named by name stays a name).
"""
from __future__ import annotations

import json

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)

from app.forms.display import option_value, select_choices
from app.numbers import InputError, format_number, parse_amount, parse_number, to_decimal
from app.policies.labels import (
    FIELD_LABELS,
    FIELDS,
    NUMERIC_FIELDS,
    OP_LABELS,
    OPS,
    PART_KINDS,
    is_id,
)

# -- the forms ------------------------------------------------------------------------------------

NEW_TAG = "n:"


def _ref_field(label, help_text):
    return StringField(label, description=help_text, render_kw={"autocomplete": "off"})


class ConditionForm(Form):
    """One condition row; orig carries the row as stored, so unknown keys survive."""

    orig = HiddenField()
    field = SelectField(_l("Field"),
                        choices=select_choices((f, FIELD_LABELS[f]) for f in FIELDS))
    op = SelectField(_l("Comparison"), choices=select_choices((op, OP_LABELS[op]) for op in OPS))
    value = StringField(_l("Value"))
    value2 = StringField(_l("and"))


class PartForm(Form):
    """One part of a split."""

    orig = HiddenField()
    kind = SelectField(_l("Share as"), choices=select_choices(PART_KINDS.items()))
    share = StringField(_l("Share"), render_kw={"inputmode": "decimal"})
    revenue_type = _ref_field(_l("Revenue type"), None)
    ledger_number = _ref_field(_l("Ledger number"), None)
    job_number = StringField(_l("Job number"))
    tags = SelectMultipleField(_l("Tags"), choices=[], validate_choice=False)
    new_tags = StringField(_l("New tags"))


class RuleForm(Form):
    """A policy or an ignore rule."""

    name = StringField(_l("Name"), description=_l("Shown in the list, the preview and the "
                                                  "history. Give each rule its own name."))
    enabled = BooleanField(_l("Active"))
    match = RadioField(_l("Which conditions must hold"),
                       choices=select_choices([("all", _l("All of them")),
                                               ("any", _l("Any one of them"))]))
    conditions = FieldList(FormField(ConditionForm))
    revenue_type = _ref_field(_l("Revenue type"), _l(
        "Pick one from the list or type a new name: the new one is created when a policy "
        "first applies."))
    ledger_number = _ref_field(_l("Ledger number"), _l("Code or name; a new one is created "
                                                       "when the policy first applies."))
    job_number = StringField(_l("Job number"))
    tags = SelectMultipleField(_l("Tags"), choices=[], validate_choice=False)
    new_tags = StringField(_l("New tags"), description=_l("Separate several with commas."))
    use_split = BooleanField(_l("Split the income into several assignments"))
    split = FieldList(FormField(PartForm))


def orig_of(field) -> dict:
    """The stored row a form row came from ({} for a new row or unreadable data)."""
    try:
        value = json.loads(field.data or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def orig_text(row: dict) -> str:
    """A row as the hidden orig field carries it."""
    return json.dumps(row, ensure_ascii=False, separators=(",", ":"))


def keep_unknown_choice(select, value) -> None:
    """Offer a value Bookdesk does not know (from an imported file) so it is not lost."""
    if value and value not in {option_value(choice) for choice in select.choices}:
        select.choices = select_choices([*select.choices, (value, value)])
        select.data = value


class ImportForm(FlaskForm):
    """Upload of a policy file."""

    file = FileField(_l("Policy file (JSON)"), validators=[FileRequired(_l("Choose a file."))],
                     description=_l("A file exported from Bookdesk, or written by hand in the "
                                    "same format."),
                     render_kw={"accept": ".json,application/json"})


# -- from a rule to a filled form -----------------------------------------------------------------

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


# -- from a posted form back to a rule ------------------------------------------------------------

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
    """One condition, merged into its stored row. A row posted back as it was shown is the
    stored one: a text holding a ";" or edge spaces would not read back the same."""
    orig = orig_of(row.orig)
    field, op = row.field.data, row.op.data
    if orig and _as_shown(orig, field, op, row.value.data, row.value2.data):
        return orig
    value = condition_value(field, op, row.value.data, row.value2.data)
    result = {**orig, "field": field, "op": op, "value": value}
    if (orig.get("field"), orig.get("op")) == (field, op) and \
            _same_value(field, orig.get("value"), value):
        result["value"] = orig.get("value")
    return result


def _as_shown(orig: dict, field, op, text, text2) -> bool:
    shown = condition_data(orig)
    return (shown["field"], shown["op"], shown["value"], shown["value2"]) == (
        field, op, text or "", text2 or "")


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


# A share is kept as a JSON number: six decimals keep every typed digit through a float.
SHARE_PLACES = 6


def reader(field: str):
    """How a value of a numeric field (or a split part's "amount"/"percent") is read."""
    if field == "type":
        return lambda text: parse_number(text, places=0)
    if field == "percent":
        return lambda text: parse_number(text, places=SHARE_PLACES)
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
