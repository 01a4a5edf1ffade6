"""What the expenses area does, apart from the request: the reads each page makes side by side,
excluding from accounting, the list's “changed since” answers, and the bulk actions.

Bulk approve, unapprove, check and uncheck on the list are one upstream call each. The list's
form posts the ticked ids, the action and a one-time form key (a double submit sends once). The
answer of the bulk action becomes one translated summary above the list. A 403 is remembered
for this token (as the settings page does), so the list then shows the controls disabled with
the reason.
"""
from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.auth import WRITE, refusal, remember_refusal
from app.forms import base_reads, catalogs_of
from app.forms.filters import small_int
from app.numbers import as_utc
from app.templating import record_number
from app.upstream import UpstreamError, ValidationError, catalog
from app.upstream import expenses as upstream
from app.upstream import parallel as page_budget
from app.upstream.errors import upstream_messages, upstream_text

DETAIL_CATALOGS = ("currencies", "ledger_numbers", "vat_categories", "tags", "accounts")
FORM_CATALOGS = ("currencies", "ledger_numbers", "vat_categories", "tags", "expense_types",
                 "accounts")
# The detail's one read carries its payments too (an expansion, not a second call).
DETAIL_FIELDS = "payment_history"
EXCLUDED = "excluded_from_accounting"
BULK_PURPOSE = "expense-bulk"
MAX_IDS = 500
DONE = {"approve": _l("%(num)s approved"), "unapprove": _l("%(num)s unapproved"),
        "check": _l("%(num)s checked"), "uncheck": _l("%(num)s unchecked")}
READ_ONLY = _l("The accounting service does not let your token approve or check expenses (a "
               "viewer, for example, cannot change records). Nothing was changed.")


def list_page(api, params: dict):
    """One page of expenses plus the currency codes (cached), read side by side."""
    return catalog.page_with_codes(upstream.list_page, api, params)


def load(api, expense_id: int) -> tuple[dict, dict, dict]:
    """(expense, settings, catalogs) of the detail: one round of reads side by side (one
    catalogue per task) within the page's deadline."""
    found = page_budget.read({**base_reads(api, DETAIL_CATALOGS), "expense": partial(
        upstream.get, api, expense_id, fields=DETAIL_FIELDS)})
    return found["expense"], found["settings"], catalogs_of(found, DETAIL_CATALOGS)


def can_exclude(expense: dict) -> bool:
    """The action is offered while the API lets the flag change and it is not set yet."""
    return EXCLUDED in (expense.get("editable_fields") or []) and not expense.get(EXCLUDED)


def can_include(expense: dict) -> bool:
    """Taking it back is offered while the API lets the flag change and it is set."""
    return EXCLUDED in (expense.get("editable_fields") or []) and bool(expense.get(EXCLUDED))


def refusal_text(error: ValidationError) -> str:
    """The API's own words for a refused change (translated where Bookdesk knows them)."""
    excluded = error.field_errors.get(EXCLUDED)
    messages = [upstream_text(m) for m in excluded] if excluded else upstream_messages(error)
    return " ".join(messages) or _(
        "The accounting service refused the change.")


def needs_resync(error: ValidationError, params: dict) -> bool:
    """True for the 400 that says updated_since is too old (a full reload is needed)."""
    # Known by its field, not its words: the API's wording (Hungarian by default) is not the
    # contract. A moment not in the past cannot be too old; its refusal is a field error.
    since = as_utc(params.get("updated_since"))
    return "updated_since" in error.field_errors and since is not None and \
        since < datetime.now(UTC)


def selected_ids(values: list[str]) -> list[int]:
    """The posted expense ids, each once, in order; anything not an id is left out."""
    ids = (small_int(value) for value in values[:MAX_IDS])
    return list(dict.fromkeys(i for i in ids if i))


def summary(action: str, answer: dict, names: dict | None = None) -> tuple[str, bool]:
    """("3 approved; 1 failed: K-2026-00012 — reason", whether any failed) from the upstream
    answer; a failed expense is named by its filing number from names, else as #id."""
    done = DONE[action] % {"num": len(answer.get("success_ids") or [])}
    reasons = _reasons(answer)
    failed = failed_of(answer)
    if not failed:
        return str(done), False
    listed = "; ".join(_failure(_name(i, names), reasons.get(i, [])) for i in failed)
    return _("%(done)s; %(num)s failed: %(list)s", done=done, num=len(failed),
             list=listed), True


def failed_of(answer: dict) -> list:
    """The ids a bulk answer names as failed."""
    return answer.get("failed_ids") or list(_reasons(answer))


def _reasons(answer: dict) -> dict:
    return {item.get("id"): item.get("errors") or [] for item in answer.get("errors") or []}


def filing_numbers(api, ids: list) -> dict:
    """id -> filing number of a few expenses, in one read; empty when there are none to read
    or the read fails (the summary then names them by id)."""
    wanted = [i for i in ids if isinstance(i, int)]
    if not wanted:
        return {}
    try:
        page = upstream.list_page(api, {"ids": ",".join(map(str, wanted)),
                                        "page_size": len(wanted)})
    except UpstreamError:
        return {}
    return {item.get("id"): item["filing_number"] for item in page.items
            if item.get("filing_number")}


def _name(expense_id, names: dict | None) -> str:
    return record_number({"id": expense_id, "filing_number": (names or {}).get(expense_id)},
                         "filing_number")


def _failure(name: str, reasons: list) -> str:
    """"K-2026-00012 — reason, reason" in the page's language, or the name alone when the
    upstream gave no reason."""
    if not reasons:
        return name
    return f"{name} — {', '.join(map(upstream_text, reasons))}"


def remember_read_only() -> None:
    """Note that the upstream refused this token a bulk action."""
    remember_refusal(WRITE)


def read_only() -> bool:
    """True when the upstream already refused this token a bulk action."""
    return refusal(WRITE) is not None


