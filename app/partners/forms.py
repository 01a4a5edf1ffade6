"""The partner form (spec 2.4, 4.4) and the bodies it sends.

Text the user left empty is sent as null (the API refuses empty strings and reads null as
"clear"). An edit sends only what changed since the form was rendered, so a partner whose
updates are limited is not sent fields the user never touched.
"""
from __future__ import annotations

import json

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, HiddenField, StringField
from wtforms.validators import Length, Optional, Regexp

from app import identifiers
from app.forms.base import PageForm, empty_to_none, name_field
from app.forms.registry import TOO_LONG

EMAIL = Regexp(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", message=_l("Enter a valid e-mail address."))
# name -> (label, max length, extra validators, help)
TEXT_FIELDS = {
    "tax_number": (_l("Tax number"), 40, (), identifiers.TAX_NUMBER_HELP),
    "eu_tax_number": (_l("EU VAT number"), 40, (), identifiers.EU_VAT_HELP),
    "country": (_l("Country code"), 2, (Regexp(r"^[A-Za-z]{2}$",
                                               message=_l("Enter a two-letter country code.")),),
                _l("Two letters, e.g. HU")),
    "zip_code": (_l("Postcode"), 20, (), None),
    "city": (_l("City"), 100, (), None),
    "address": (_l("Address"), 200, (), None),
    "email": (_l("E-mail"), 200, (EMAIL,), None),
    "phone": (_l("Phone"), 50, (), None),
    "default_account_number": (_l("Default bank account number"), 60, (),
                               identifiers.ACCOUNT_HELP),
    "default_account_name": (_l("Default bank account name"), 200, (), None),
}
# Checked and normalised to the form the API keeps (app/identifiers.py).
IDENTIFIERS = {"tax_number": identifiers.tax_number, "eu_tax_number": identifiers.eu_vat,
               "default_account_number": identifiers.bank_account}
FLAGS = ("is_customer", "is_vendor")
FIELDS = ("name", *TEXT_FIELDS, *FLAGS)
ROLES_MSG = _l("Choose at least one: customer, vendor or both.")


def _text_field(label, max_length: int, validators: tuple, help_text) -> StringField:
    return StringField(label, filters=[empty_to_none], description=help_text or "",
                       validators=[Optional(), Length(max=max_length, message=TOO_LONG),
                                   *validators],
                       render_kw={"maxlength": max_length})


class PartnerForm(PageForm):
    """Create or edit a partner; `base_state` holds the values the edit form was rendered with."""

    name = name_field(_l("Name"), max_length=200)
    is_customer = BooleanField(_l("Customer"))
    is_vendor = BooleanField(_l("Vendor"))
    base_state = HiddenField()
    stored: dict = {}
    normalised: dict = {}  # identifiers as the API keeps them; the fields keep what was typed

    def validate(self, extra_validators=None) -> bool:
        """The field checks, then the one rule the API has across fields: a role is chosen."""
        ok = super().validate(extra_validators)
        ok = self._check_identifiers() and ok
        if not (self.is_customer.data or self.is_vendor.data):
            self.is_customer.errors = [*self.is_customer.errors, str(ROLES_MSG)]
            ok = False
        return ok

    def _check_identifiers(self) -> bool:
        """Each typed identifier checked and normalised; the stored record's one (`stored`,
        set by the edit view) sent back unchanged is kept, so an old record stays editable."""
        ok, self.normalised = True, {}
        for name, check in IDENTIFIERS.items():
            field, kept = self[name], self.stored.get(name)
            if not field.data or field.errors:
                continue
            if kept and identifiers.compact(kept) == identifiers.compact(field.data):
                self.normalised[name] = kept
                continue
            try:
                self.normalised[name] = check(field.data)
            except identifiers.IdentifierError as exc:
                field.errors = [*field.errors, str(exc)]
                ok = False
        return ok

    def values(self) -> dict:
        """Every field as the API takes it: text or null, booleans."""
        values = {key: self.normalised.get(key, self[key].data) or None
                  for key in ("name", *TEXT_FIELDS)}
        if values.get("country"):
            values["country"] = values["country"].upper()
        values.update({flag: bool(self[flag].data) for flag in FLAGS})
        return values

    def changes(self) -> dict:
        """What differs from the rendered values (all of them when no snapshot came back)."""
        base = snapshot_from(self.base_state.data)
        return {key: value for key, value in self.values().items()
                if base is None or key not in base or base[key] != value}

    def role_errors(self) -> list[str]:
        """Messages about the customer/vendor roles, each once."""
        return list(dict.fromkeys([*self.is_customer.errors, *self.is_vendor.errors]))


for _name, _spec in TEXT_FIELDS.items():
    setattr(PartnerForm, _name, _text_field(*_spec))


def initial(record: dict) -> dict:
    """Form data from a partner record, with the snapshot the edit is compared against."""
    data = {key: record.get(key) for key in FIELDS}
    data.update({flag: bool(record.get(flag)) for flag in FLAGS})
    data["base_state"] = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for name, show in (("tax_number", identifiers.show_tax_number),
                       ("default_account_number", identifiers.show_bank_account)):
        data[name] = show(data[name]) if data[name] else data[name]
    return data


def snapshot_from(raw: str | None) -> dict | None:
    """The rendered values stored in the form, or None when absent or unreadable."""
    try:
        stored = json.loads(raw or "")
    except ValueError:
        return None
    return stored if isinstance(stored, dict) else None
