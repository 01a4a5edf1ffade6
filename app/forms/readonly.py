"""Why a field is read-only, as far as the record says (booked, processed, synced, settings)."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

MANUAL_SOURCES = ("manual", "api", None, "")
SETTING_SWITCHES = {"accounting_id": "enable_accounting_id",
                    "vat_period_type": "enable_vat_period",
                    "vat_period_started_at": "enable_vat_period"}
ADVANCED_ONLY = ("vat_ledger_number_id", "company_vat_category_id", "vat_ledger_number",
                 "company_vat_category")


def record_state(record: dict) -> str | None:
    """booked, processed, checked or None: the strongest lock the record reports."""
    status = record.get("accounting_status")
    if status == "booked" or record.get("booked"):
        return "booked"
    if status == "processed" or record.get("processed"):
        return "processed"
    if record.get("checked"):
        return "checked"
    return None


def readonly_reason(record: dict, name: str, company: dict | None = None) -> str:
    """The reason shown under a read-only field."""
    switch = SETTING_SWITCHES.get(name)
    if switch and company is not None and not company.get(switch):
        return _("Switched off in the company settings.")
    if name in ADVANCED_ONLY and company is not None and not company.get("advanced_accounting"):
        return _("Applies under advanced accounting only.")
    return record_reason(record)


def record_reason(record: dict) -> str:
    """The record-wide reason: its accounting state, else its source, else its type."""
    state = record_state(record)
    if state == "booked":
        return _("Booked: no longer editable.")
    if state == "processed":
        return _("Processed in the accounting: no longer editable.")
    if state == "checked":
        return _("Checked: no longer editable.")
    source = record.get("source")
    if source not in MANUAL_SOURCES:
        return _("Synced from %(source)s: kept as the integration sent it.", source=source)
    return _("Not editable on this kind of document.")


def lock_summary(record: dict) -> str | None:
    """One sentence for the top of a form when the record is locked (wholly or partly), else None.

    A lock that leaves fields in the record's editable_fields only freezes some of them.
    """
    state, source = record_state(record), record.get("source")
    if not state and source in MANUAL_SOURCES:
        return None
    if not record.get("editable_fields"):
        return record_reason(record)
    if state == "booked":
        return _("Booked: some fields can no longer change.")
    if state == "processed":
        return _("Processed in the accounting: some fields can no longer change.")
    if state == "checked":
        return _("Checked: some fields can no longer change.")
    return _("Synced from %(source)s: some fields are kept as the integration sent them.",
             source=source)


def truthy(value: Any) -> bool:
    """A filled value: not None, not empty text, not an empty list."""
    return value not in (None, "", [], {})
