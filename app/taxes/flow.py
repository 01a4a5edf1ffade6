"""What the taxes area does: the create and edit grids, the rules checked before sending, the
upstream's refusals put on the rows, and finding what a create with a lost answer stored.

Create grid: inputs named `rows-<index>-<field>`; rows with nothing beyond a month and a
payment state are left out. Taxes never carry a currency (spec 4.5); salaries hold one tax
identification number per payment month, checked against the grid and the records there.

Edit grid: inputs named `r-<id>-<field>`. A record synced from an integration takes only tag
changes (spec 4.5): its other fields are shown as text with the reason. Only changed fields are
sent; tags whole, because the upstream replaces them whole.

Refusals: a list body holds one error object per item sent, in order (DRF's ListSerializer); an
object body speaks about the request as a whole.

Recovery (app.once.Recovery): the upstream stores a grid's rows in one transaction, so either
every row sent is in the listing or none is: the rows are matched one to one (month, amount,
code or name and account number, description, and the tax number for salaries) and anything
short of all of them counts as not created. A record typed identically before the send cannot
be told apart from one the lost send made.
"""
from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from datetime import date
from functools import partial

from flask_babel import gettext as _

from app.forms import company_settings
from app.identifiers import compact
from app.numbers import AMOUNT_PLACES, api_text, company_today, format_number, to_decimal
from app.taxes.forms import Row, keep_unchanged, read_row
from app.taxes.present import TAG_FIELDS, Kind, column, is_synced
from app.templating import source_label
from app.upstream import ValidationError, catalog, run_parallel
from app.upstream import taxes as taxes_api
from app.upstream.errors import upstream_messages, upstream_text
from app.vat.service import MONTHLY, period_of


def listing(api, kind: Kind, params: dict | None = None) -> dict:
    """The monthly listing with every month's records (fields=taxes / fields=salaries)."""
    return taxes_api.monthly(api, kind.name, params)


def currency_code(api) -> str | None:
    """The company's currency (taxes and salaries are in it), from the cached settings."""
    return company_settings(api).get("default_currency_name")


def tag_catalog(api) -> list[dict]:
    """The company's tags (cached catalogue)."""
    return catalog.get(api, "tags")


def read(api, kind: Kind, params: dict | None = None, *, tags: bool = False) -> dict:
    """Listing, currency and (optionally) the tag catalogue, read side by side."""
    tasks = {"listing": partial(listing, api, kind, params),
             "currency": partial(currency_code, api)}
    if tags:
        tasks["tags"] = partial(tag_catalog, api)
    return run_parallel(tasks)


def records_in_months(api, kind: Kind, months: list[str]) -> list[dict]:
    """Every record of the payment months from the first to the last of `months` (YYYY-MM...)."""
    months = sorted(str(month)[:7] for month in months)
    first = date.fromisoformat(months[0] + "-01")
    last = period_of(MONTHLY, date.fromisoformat(months[-1] + "-01")).end
    return taxes_api.monthly_records(api, kind.name, {"from_date": first.isoformat(),
                                                      "to_date": last.isoformat()})


def form_data(api) -> dict:
    """The tag catalogue and the company currency for a grid, read side by side."""
    return run_parallel({"tags": partial(tag_catalog, api),
                         "currency": partial(currency_code, api)})


IDENTITY = ("name", "account_number")


def required(row: Row, names: tuple[str, ...]) -> None:
    """Each of `names` the row can edit must have a value."""
    for name in names:
        if name in row.fields and row.final(name) in (None, "") and name not in row.errors:
            row.error(name, _("This field is required."))


def identity(row: Row) -> None:
    """A tax code, or a name with an account number: never both kinds, never neither."""
    code = row.final("code")
    named = [name for name in IDENTITY if row.final(name)]
    if code and named:
        row.error("code" if "code" in row.fields else named[0],
                  _("Give either a tax code or a name with a bank account number, not both."))
        return
    if code:
        return
    message = (_("Required when no tax code is given.") if "code" in row.fields
               else _("This field is required."))
    for name in IDENTITY:
        if not row.final(name) and name not in row.errors:
            row.error(name, message)


def one_per_month(rows: list[Row], existing: list[dict]) -> None:
    """Salaries: one tax identification number per payment month, across grid and records."""
    edited = {str(row.record["id"]) for row in rows if row.record}
    taken = {_slot(record.get("month"), record.get("tax_number")): record.get("id")
             for record in existing if str(record.get("id")) not in edited}
    for row in rows:
        if "month" in row.errors or "tax_number" in row.errors:
            continue
        slot = _slot(row.final("month"), row.final("tax_number"))
        if slot[0] and slot[1] and slot in taken:
            row.error("tax_number", _("This tax identification number already has a salary in "
                                      "this payment month."))
        elif slot[0] and slot[1]:
            taken[slot] = row.key


def _slot(month, tax_number) -> tuple[str, str]:
    return str(month or "")[:7], compact(tax_number)


ROW_KEYS = ("non_field_errors", "detail")


def place(exc: ValidationError, sent: list[Row]) -> list[str]:
    """Put per-item messages on their rows; return the messages for above the grid."""
    body = exc.body
    if isinstance(body, list) and len(body) == len(sent):
        for row, problems in zip(sent, body, strict=True):
            _place_item(row, problems)
        if any(row.has_errors for row in sent):
            return []
    return upstream_messages(exc) or [_("The accounting service did not accept the data sent.")]


def _place_item(row: Row, problems) -> None:
    if not isinstance(problems, dict):
        row.general.extend(_texts(problems))
        return
    for key, value in problems.items():
        texts = _texts(value)
        if key in ROW_KEYS:
            row.general.extend(texts)
        elif key in row.fields:
            row.errors.setdefault(key, []).extend(texts)
        elif texts and not key.startswith("existing_"):
            row.general.extend(f"{column(key)}: {text}" for text in texts)


def _texts(value) -> list[str]:
    if isinstance(value, str):
        return [upstream_text(value)]
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    if isinstance(value, dict):
        return [f"{key}: {text}" for key, item in value.items() for text in _texts(item)]
    return []


NEW_ROWS = 5
MORE_ROWS = 5
MAX_ROWS = 200
_ROW_KEY = re.compile(r"^rows-(\d+)-")


def new_prefix(index) -> str:
    """The input name prefix of a create grid's row."""
    return f"rows-{index}-"


def blank_rows(kind: Kind, count: int = NEW_ROWS, start: int = 0) -> list[Row]:
    """Empty rows for this month, not paid."""
    month = company_today().isoformat()[:7]
    return [Row(str(start + n), kind.fields, raw={"month": month, "paid_status": "1"})
            for n in range(count)]


def template_row(kind: Kind) -> Row:
    """The blank row the page's <template> holds; its key is replaced when a row is added."""
    row = blank_rows(kind, 1)[0]
    row.key = "__index__"
    return row


def read_rows(form, kind: Kind) -> list[Row]:
    """Every row the form sent, in index order (at most MAX_ROWS)."""
    indices = sorted({int(m[1]) for key in form if (m := _ROW_KEY.match(key))})
    return [read_row(form, new_prefix(index), str(index), kind.fields)
            for index in indices[:MAX_ROWS]]


def check_new(rows: list[Row], kind: Kind, listing: Callable[[], list[dict]]) -> list[str]:
    """The local rules on the filled rows (salaries also against the months' records, which
    listing() gives: read once for this check and the twins).

    Messages land on the rows; the list returned is for above the grid.
    """
    if not rows:
        return [_("Fill in at least one row.")]
    for row in rows:
        required(row, ("month", "amount", "tax_number"))
        identity(row)
    if kind.is_salary and not any(row.has_errors for row in rows):
        one_per_month(rows, listing())
    return []


def with_more_rows(rows: list[Row], kind: Kind) -> list[Row]:
    """The rows as sent plus MORE_ROWS blank ones (adding rows without JavaScript)."""
    start = max((int(row.key) for row in rows), default=-1) + 1
    return rows + blank_rows(kind, MORE_ROWS, start)


def payload(row: Row) -> dict:
    """The create item of a row: only what was given, amounts as decimal strings."""
    item = {}
    for name, value in row.values.items():
        if value in (None, "") or (name in TAG_FIELDS and not value):
            continue
        item[name] = api_text(value) if name == "amount" else value
    return item


def created_count(body: dict, kind: Kind) -> int:
    """How many records the create answer lists."""
    return len(taxes_api.records(body, kind.name))


NAME_FIELDS = ("name", "account_number")


def edit_prefix(record_id) -> str:
    """The input name prefix of an edit grid's row (a record)."""
    return f"r-{record_id}-"


def editable(record: dict, kind: Kind) -> tuple[str, ...]:
    """The grid columns this record accepts, as the upstream's editable_fields say."""
    allowed = record.get("editable_fields")
    if allowed is None:
        allowed = ("tags",) if is_synced(record) else kind.fields
    return tuple(name for name in kind.fields if name in allowed)


def reason(record: dict, kind: Kind) -> str | None:
    """Why some of the record's fields are read-only, or None."""
    if is_synced(record):
        return _("Synced from %(source)s: only its tags can be changed here.",
                 source=source_label(record.get("source")))
    if len(editable(record, kind)) < len(kind.fields):
        return _("The accounting service allows changing only some fields of this record.")
    return None


def stored(record: dict) -> dict:
    """The record's values as the grid parses them (a coded tax has no own name/account)."""
    values = {name: record.get(name) or None for name in
              ("code", "name", "account_number", "description", "tax_number", "due_at")}
    if values["code"]:
        values.update(name=None, account_number=None)
    values["month"] = str(record.get("month") or "")[:7] + "-01"
    values["amount"] = to_decimal(record.get("amount"))
    values["paid_status"] = record.get("paid_status") or 1
    values.update({name: list(record.get(name) or []) for name in TAG_FIELDS})
    return values


def initial(record: dict) -> dict:
    """What the grid's inputs show for a record."""
    values = stored(record)
    raw = {key: "" if value is None else str(value) for key, value in values.items()}
    raw["month"] = values["month"][:7]
    amount = to_decimal(values["amount"])
    if amount is not None:  # whole forints as typed; a fraction with its two decimals
        raw["amount"] = format_number(amount, places=AMOUNT_PLACES if amount % 1 else None,
                                      grouping=False)
    raw.update({name: [str(i) for i in values[name]] for name in TAG_FIELDS})
    return raw


def rows_for(records: list[dict], kind: Kind, form=None) -> list[Row]:
    """One row per record: its stored values, or (with `form`) what was submitted."""
    rows = []
    for record in records:
        fields = editable(record, kind)
        row = (read_row(form, edit_prefix(record["id"]), str(record["id"]), fields) if form
               else Row(str(record["id"]), fields))
        row.raw = {**initial(record), **row.raw}
        row.record, row.stored, row.reason = record, stored(record), reason(record, kind)
        keep_unchanged(row)
        rows.append(row)
    return rows


def check_edited(rows: list[Row], kind: Kind, every_record: list[dict]) -> None:
    """The local rules on the rows that may change more than tags."""
    for row in rows:
        if is_synced(row.record):
            continue
        required(row, ("month", "amount", "tax_number"))
        if set(NAME_FIELDS) & set(row.fields):
            identity(row)
    if kind.is_salary:
        one_per_month(rows, every_record)


def changes(row: Row) -> dict | None:
    """The update item of a row: id plus the changed fields, or None when nothing changed."""
    before, item = row.stored, {}
    for name in (name for name in row.fields if name in row.values):
        new, old = row.values[name], before.get(name)
        if name in TAG_FIELDS:
            if set(new or []) != set(old or []):
                item[name] = new or []
        elif new != old:
            item[name] = api_text(new) if name == "amount" else new
    _one_identity(item, row)
    return {"id": row.record["id"], **item} if item else None


def _one_identity(item: dict, row: Row) -> None:
    # The upstream refuses code together with name or account_number, even as null.
    if row.final("code"):
        for name in NAME_FIELDS:
            item.pop(name, None)
    elif any(item.get(name) for name in NAME_FIELDS):
        item.pop("code", None)


MATCHED = ("code", "name", "account_number", "description", "tax_number")


def all_stored(api, kind: Kind, items: list[dict], known: frozenset[int] = frozenset()) -> bool:
    """Tell whether every item sent is in the listing of its months, each record used once;
    the known ones (twins stored before the send, see twins) are not it."""
    left = [record for record in records_in_months(api, kind, [item["month"] for item in items])
            if record.get("id") not in known]
    for item in items:
        hit = next((record for record in left if _same(item, record)), None)
        if hit is None:
            return False
        left.remove(hit)
    return True


def twins(items: list[dict], stored: list[dict]) -> frozenset[int]:
    """The ids of stored records (the months' listing, read before the send) a lost send of
    these items could be taken for: the API takes a second record with the same values."""
    return frozenset(r["id"] for r in stored if any(_same(item, r) for item in items))


def every_row_exists(exc: ValidationError, count: int) -> bool:
    """Tell whether a refused resend names an existing salary for each of its rows."""
    body = exc.body if isinstance(exc.body, list) else [exc.extra]
    return len(body) == count and all(
        isinstance(item, dict) and item.get("existing_salary_id") for item in body)


def _same(item: dict, record: dict) -> bool:
    if str(record.get("month") or "")[:7] != str(item["month"])[:7]:
        return False
    if to_decimal(record.get("amount")) != to_decimal(item.get("amount")):
        return False
    # With a code the API fills in the name and account number itself.
    keys = [k for k in MATCHED if k in item and not (item.get("code") and k in ("name",
                                                                              "account_number"))]
    return all(_text(k, record.get(k)) == _text(k, item.get(k)) for k in keys)


def _text(key: str, value) -> str:
    text = str(value or "").strip()
    return compact(text) if key in ("tax_number", "account_number") else text


def copied_rows(api, kind: Kind, month: date) -> list[Row]:
    """The records of the month before `month` as create rows for `month`, for review: the
    same values, not paid, a due date one month later (the day kept where the month has it);
    none where the month before is outside the years a period may have."""
    previous = period_of(MONTHLY, month).shifted(-1)
    if previous is None:
        return []
    rows = []
    for index, record in enumerate(records_in_months(api, kind, [previous.key])):
        raw = initial(record)
        raw.update(month=month.isoformat()[:7], paid_status="1",
                   due_at=_next_month(raw.get("due_at")))
        rows.append(Row(str(index), kind.fields, raw=raw))
    return rows


def _next_month(day: str | None) -> str:
    try:
        found = date.fromisoformat(str(day or "")[:10])
    except ValueError:
        return ""
    year, month = (found.year + 1, 1) if found.month == 12 else (found.year, found.month + 1)
    return found.replace(year=year, month=month,
                         day=min(found.day, calendar.monthrange(year, month)[1])).isoformat()
