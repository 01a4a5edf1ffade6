"""Refusal texts the accounting service sends for these records, marked for translation.

PageForm.place() passes every upstream message through gettext; the texts below are known
msgids, so Hungarian users read them in Hungarian. Unknown texts are shown as sent.
"""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

KNOWN = (
    _l("This field may not be blank."),
    _l("A tag with this name already exists."),
    _l("A type with this name already exists."),
    _l("A partner with this tax number already exists."),
    _l("A partner with this name and no tax number already exists."),
    _l("At least one of is_customer and is_vendor must be true."),
    _l("Ensure this value is between 0 and 100."),
    _l("Enter a two-letter ISO country code."),
    _l("A valid number is required."),
)
