"""What the incomes area does, apart from the request: the reads each page makes side by side,
the stornos that reverse a document, cancelling, and creating an accounting document (its
fields, storno pre-fill, the checked invoice image and the one-time send).

A create is sent at most once per rendered form (app.once): the form carries a one-time key;
the first submit claims it, a second one waits for the first and lands on the same result.
"""
from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from functools import partial

from flask import g
from flask_babel import gettext as _

from app import totals
from app.files import MAX_BYTES, content_type, refusal, sniff
from app.forms import ITEM_FIELDS, catalogs_of, company_settings
from app.forms.check import default_currency_id
from app.forms.registry import ref_id
from app.forms.totals import Rules, form_rules, vat_of
from app.incomes.present import can_storno, cancel_state, is_storno
from app.numbers import (
    amount_places,
    api_text,
    at_rate,
    company_today,
    format_amount,
    to_decimal,
)
from app.upstream import Page, catalog
from app.upstream import incomes as upstream
from app.upstream import parallel as page_budget
from app.upstream.responses import page_of

DETAIL_CATALOGS = ("currencies", "ledger_numbers", "vat_categories")
FORM_CATALOGS = ("currencies", "ledger_numbers", "vat_categories", "tags", "revenue_types")
# Editing also offers "paid through", chosen from the company's bank accounts.
EDIT_CATALOGS = (*FORM_CATALOGS, "accounts")
PURPOSE = "incomes.create"
BASE_FIELDS = (
    "invoice_number", "issued_at", "fulfilled_at", "due_at", "payment_method", "vat_area",
    "secondary_id", "partner_id", "partner_name", "partner_tax_number", "partner_zip_code",
    "partner_city", "partner_address", "partner_country", "partner_account_number",
    "currency", "exchange_rate", "exchange_date", "net_amount", "vat_amount", "gross_amount",
    "ledger_number_id", "accounting_period_start", "accounting_period_end",
)
LABEL_FIELDS = ("tags", "simple_tags", "note", "referred_invoice_number")
COPIED = ("partner_id", "partner_name", "partner_tax_number", "partner_zip_code", "partner_city",
          "partner_address", "partner_country", "partner_account_number", "currency",
          "exchange_rate", "exchange_date", "payment_method", "vat_area", "ledger_number_id",
          # A storno reverses the supply of the original's day: its VAT falls in that period.
          "fulfilled_at")
NEGATED = ("net_amount", "vat_amount", "gross_amount")


def list_page(api, params: dict):
    """One page of incomes plus the currency codes (cached), read side by side; the not-void
    filter, which no API filter expresses, is read through and paged here."""
    if not params.get(upstream.NOT_VOID):
        return catalog.page_with_codes(upstream.list_page, api, params)
    # Read in the request, not in a worker, so that its pages are read side by side.
    return not_void_page(api, params), catalog.names(api, "currencies", "code")


class TooManyToSift(Exception):
    """The not-void filter finds more than ROW_LIMIT incomes (the argument): it is not read
    through."""


def not_void_page(api, params: dict) -> Page:
    """One page of the not-void filter: every income it finds less the void ones, in the
    order asked, paged here, with the partner and tag names of every page read."""
    lookups: dict[str, dict] = {}

    def keeping_lookups(client, page_params: dict) -> Page:
        page = upstream.list_page(client, page_params)
        for name, table in page.lookups.items():
            lookups.setdefault(name, {}).update(table)
        return page
    records = totals.read_filter(api, "incomes", params, keeping_lookups)
    if records is None:
        raise TooManyToSift(totals.ROW_LIMIT)
    return page_of(ordered(records, params.get("ordering") or "-issued_at"),
                   int(params.get("page") or 1), int(params.get("page_size") or 50),
                   lookups=lookups, whole=records)


def ordered(records: list[dict], ordering: str) -> list[dict]:
    """Records in the API's order for `ordering` ("-" descending), ties by id; an empty value
    is the smallest (first ascending, last descending), as the API's list puts it."""
    name = ordering.lstrip("-")

    def key(record: dict):
        value = record.get(name)
        if name == "gross_amount":
            value = to_decimal(value)
        if value is None:
            return (False, "", record.get("id"))
        return (True, value, record.get("id"))
    return sorted(records, key=key, reverse=ordering.startswith("-"))


def page_reads(api, income_id: int, names=DETAIL_CATALOGS) -> dict:
    """An income page's independent reads: "record" (settings, income) and each catalogue."""
    return {"record": partial(settings_and_income, api, income_id),
            **{name: partial(catalog.get, api, name) for name in names}}


def settings_and_income(api, income_id: int) -> tuple[dict, dict]:
    """The company settings (cached) and the income detail the settings ask for."""
    settings = company_settings(api)
    return settings, get_income(api, income_id, settings)


def expansions(settings: dict) -> str:
    """fields= for the detail: items and payments always, accounting when the company uses it."""
    parts = ["items", "payment_history"]
    if settings.get("enable_accounting_id") or settings.get("enable_vat_period"):
        parts.append("accounting")
    return ",".join(parts)


def get_income(api, income_id: int, settings: dict) -> dict:
    """The income detail with the expansions the company needs."""
    return upstream.get(api, income_id, fields=expansions(settings))


def find_by_number(api, number: str) -> list[dict]:
    """Accounting documents with exactly this invoice number (a storno's originals)."""
    page = upstream.list_page(api, {"invoice_number": number, "type": 2, "page_size": 5})
    return [item for item in page.items if item.get("invoice_number") == number]


def cancelled_numbers(items: list[dict]) -> set[str]:
    """The numbers of the cancelled accounting documents among incomes (a storno may name)."""
    return {item.get("invoice_number") for item in items if upstream.reversible(item)} - {None}


def reversed_numbers(api, items: list[dict]) -> set[str]:
    """Which of these incomes' numbers a storno document names (read only when one of them is
    a cancelled accounting document, the only kind a storno cancels)."""
    wanted = cancelled_numbers(items)
    return upstream.storno_references(api) & wanted if wanted else set()


def export_pages(api, params: dict):
    """The list's pages for its export, each carrying the numbers a storno names (read once,
    when the first cancelled accounting document comes), so a row says reversed or cancelled
    as the list does. The not-void filter is read here, before the download starts (it may
    be refused as too large), and comes as one page in the list's own order."""
    if not params.get(upstream.NOT_VOID):
        return _export_pages(api, params)
    page = not_void_page(api, {**params, "page": 1, "page_size": totals.ROW_LIMIT})
    return [replace(page, lookups={**page.lookups, "reversed": reversed_numbers(api, page.items)})]


def _export_pages(api, params: dict):
    named = None
    for page in upstream.iter_pages(api, params):
        if named is None and cancelled_numbers(page.items):
            named = upstream.storno_references(api)
        yield replace(page, lookups={**page.lookups, "reversed": named or set()})


def load(income_id: int, names=DETAIL_CATALOGS) -> tuple[dict, dict, dict]:
    """(income, settings, catalogs) read side by side; catalogues late by the deadline: {}."""
    found = page_budget.read(page_reads(g.api, income_id, names), optional=names)
    settings, income = found["record"]
    return income, settings, catalogs_of(found, names)


def state_of(income: dict) -> str | None:
    """How the income is cancelled now: 'reversed' (by a storno), 'cancelled', or None."""
    return cancel_state(income, reversed_numbers(g.api, [income]))


def can_cancel(income: dict, state: str | None) -> bool:
    """Cancel or revoke here: only where the API allows it, and never reviving a reversal."""
    return "is_cancelled" in (income.get("editable_fields") or []) and state != "reversed"


def extras(income: dict, originals: bool = True, named: bool = False) -> dict:
    """The page's secondary reads side by side within its deadline: stornos naming the income
    (for a live accounting document too, when named), and for a storno its originals; each
    is left out when late. Only reads that are needed are made (a late one was needed)."""
    tasks = {}
    if cancelled_numbers([income]):
        tasks["stornos"] = partial(reversed_numbers, g.api, [income])
    if named and can_storno(income):
        tasks["named"] = partial(upstream.storno_references, g.api)
    if originals and is_storno(income) and income.get("referred_invoice_number"):
        tasks["originals"] = partial(find_by_number, g.api,
                                     income["referred_invoice_number"])
    found = page_budget.read(tasks, optional=tasks)
    if "stornos" not in tasks:
        found["stornos"] = set()
    return found


def storno_pending(found: dict, income: dict) -> bool:
    """Whether a live storno names this live accounting document, which the API has not
    cancelled (the storno came first, or came from an integration): it still counts as
    unpaid and overdue, and a second storno would reverse it twice."""
    return income.get("invoice_number") in found.get("named", ())


def reversed_already(api, number: str | None) -> bool:
    """Whether a live storno already reverses the document numbered `number`."""
    return bool(number) and number in upstream.storno_references(api)


def cancel_context(found: dict, income: dict) -> dict:
    """cancel_state and can_cancel for a page; no cancel button when the stornos were late."""
    if "stornos" not in found:
        return {"cancel_state": cancel_state(income, set()), "can_cancel": False}
    state = cancel_state(income, found["stornos"])
    return {"cancel_state": state, "can_cancel": can_cancel(income, state)}


def new_fields(settings: dict) -> tuple[str, ...]:
    """The create form's fields: accounting ID and VAT period only when the company uses them."""
    extra = ("accounting_id",) if settings.get("enable_accounting_id") else ()
    if settings.get("enable_vat_period"):
        extra += ("vat_period_type", "vat_period_started_at")
    return BASE_FIELDS + extra + LABEL_FIELDS


def item_fields() -> tuple[str, ...]:
    """Line item columns."""
    return ITEM_FIELDS


def defaults(settings: dict, catalogs: dict) -> dict:
    """A blank document: today, the company's currency, Hungarian VAT area, transfer."""
    today = company_today().isoformat()
    return {"issued_at": today, "fulfilled_at": today, "vat_area": "HU",
            "payment_method": "transfer", "currency": default_currency_id(settings, catalogs),
            "assignments": [{}]}


def storno_initial(original: dict, settings: dict, catalogs: dict) -> dict:
    """A storno of `original`: same partner, categories and fulfilment date, amounts negated,
    issued today."""
    initial = defaults(settings, catalogs)
    initial.update({key: original.get(key) for key in COPIED if original.get(key) is not None})
    initial["currency"] = ref_id(original.get("currency")) or initial["currency"]
    initial.update({key: _negate(original.get(key)) for key in NEGATED})
    initial["referred_invoice_number"] = original.get("invoice_number")
    initial["assignments"] = [
        {**{k: row.get(k) for k in ("revenue_type", "vat", "tags", "job_number",
                                     "ledger_number_id")},
         **{k: _negate(row.get(k)) for k in NEGATED}}
        for row in original.get("assignments") or []] or [{}]
    return initial


def _negate(value) -> str | None:
    number = to_decimal(value)
    return None if number is None else api_text(-number, places=None)


def payload(form) -> dict:
    """The create body: form fields, header totals from the rows when left empty, storno type."""
    body = form.create_payload()
    rows = form.rows.get("assignments") or []
    for key in NEGATED:
        amounts = [row.get(key) for row in rows]
        if key not in body and amounts and all(a is not None for a in amounts):
            body[key] = api_text(sum(amounts, Decimal(0)))
    body["income_type"] = 2
    if body.get("referred_invoice_number"):
        body["invoice_type"] = 1
    return body


def items_problems(form) -> dict[str, str]:
    """Header totals the line items contradict: their net (quantity × unit price, as the API
    derives it) and VAT (forms.totals.vat_of, whole forints for HUF), each line rounded to its
    unit, give or take one unit a line (an invoice may round per line or per VAT rate)."""
    items = form.rows.get("items") or []
    if not items:
        return {}
    rules = form_rules(form)
    return _contradicted(_header_totals(payload(form)), item_sums(items, rules), rules,
                         len(items))


def stored_items_problems(income: dict, body: dict, rules: Rules) -> dict[str, str]:
    """Header totals an edit would set against the document's stored line items, which the
    edit form cannot change. Refused only when the stored header agreed with its items: a
    stored contradiction is mended where the items are, not held against this edit."""
    items = income.get("items") or []
    if not items or not {"net_amount", "vat_amount", "gross_amount"} & body.keys():
        return {}
    sums = _stored_sums(items)
    before = _contradicted(_header_totals(income), sums, rules, len(items))
    after = {**income, **body}
    if "vat_amount" not in body:  # the service derives VAT from net and gross
        after.pop("vat_amount", None)
    found = _contradicted(_header_totals(after), sums, rules, len(items))
    return {name: message for name, message in found.items() if name not in before}


def _stored_sums(items: list[dict]) -> dict[str, Decimal]:
    """The stored lines' own net and VAT sums (a total is left out when a line lacks it)."""
    sums = {}
    for name in ("net_amount", "vat_amount"):
        amounts = [to_decimal(row.get(name)) for row in items]
        if None not in amounts:
            sums[name] = sum(amounts, Decimal(0))
    return sums


def _contradicted(headers: dict, sums: dict, rules: Rules, lines: int) -> dict[str, str]:
    """{total: message} for each header total off its lines' sum by more than a unit a line."""
    units = {"net_amount": Decimal(1).scaleb(-amount_places(rules.currency)),
             "vat_amount": rules.unit}
    found = {}
    for name, total in sums.items():
        header = headers.get(name)
        if header is not None and abs(header - total) > units[name] * lines:
            found[name] = _item_sum_message(name, format_amount(total, rules.currency))
    return found


def _header_totals(body: dict) -> dict[str, Decimal | None]:
    """The document's net and VAT as sent (the VAT as gross less net when it is not)."""
    net, vat, gross = (to_decimal(body.get(name)) for name in
                       ("net_amount", "vat_amount", "gross_amount"))
    if vat is None and None not in (net, gross):
        vat = gross - net
    return {"net_amount": net, "vat_amount": vat}


def item_sums(items: list[dict], rules: Rules) -> dict[str, Decimal]:
    """The line items' net, each line rounded half up to the currency's unit, and (when every
    line names its rate) VAT, each line's as the form's totals work it out (vat_of)."""
    nets = [at_rate(_given(row.get("unit_price"), 0), _given(row.get("quantity"), 1),
                    rules.currency) for row in items]
    sums = {"net_amount": sum(nets, Decimal(0))}
    rates = [row.get("vat_percent") for row in items]
    if None not in rates:  # the API's default rate is not documented: no VAT sum without it
        sums["vat_amount"] = sum((vat_of(net, to_decimal(rate), rules.unit)
                                  for net, rate in zip(nets, rates, strict=True)), Decimal(0))
    return sums


def _item_sum_message(name: str, shown: str) -> str:
    if name == "net_amount":
        return _("The line items add up to a net of %(sum)s.", sum=shown)
    return _("The line items add up to a VAT of %(sum)s.", sum=shown)


def _given(value, default) -> Decimal:
    return Decimal(default) if value is None else value


def send(body: dict, image: tuple[str, bytes, str] | None) -> dict:
    """POST the create (with the image, when there is one)."""
    return upstream.create(g.api, body, image)


def read_image(upload) -> tuple[tuple[str, bytes, str] | None, list[str]]:
    """(filename, bytes, content type) of an uploaded file, or the reason it is refused."""
    if upload is None or not upload.filename:
        return None, []
    content = upload.read(MAX_BYTES + 1)
    reason = refusal(upload.filename, content)
    if reason:
        return None, [reason]
    return (upload.filename, content, content_type(sniff(content))), []

