"""Tax numbers, EU VAT numbers and bank account numbers: checked, normalised and shown.

python-stdnum checks what it knows (the adószám's 8-digit base, EU VAT numbers, IBANs); the
Hungarian parts it has no module for are checked here: the adószám's VAT code and county code,
a person's tax identification number, and the GIRO check digits of a domestic bank account
number.

Every parser takes what a person types (with or without separators) and returns the form sent
upstream, or raises IdentifierError carrying a translated message that names the problem. The
show_* functions give the form with separators; a stored value they cannot read is shown as is.
"""
from __future__ import annotations

import re

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from stdnum import iban as stdnum_iban
from stdnum.eu import vat as stdnum_vat
from stdnum.exceptions import InvalidChecksum, InvalidComponent, InvalidLength, ValidationError
from stdnum.hu import anum

SEPARATORS = re.compile(r"[\s\-./]")
# The last two digits of an adószám: the county (02-20), Budapest and the large-taxpayer
# offices (22-44) and the office for priority cases (51).
COUNTY_CODES = frozenset({f"{n:02d}" for n in (*range(2, 21), *range(22, 45), 51)})
VAT_CODES = "12345"
GIRO_WEIGHTS = (9, 7, 3, 1)
TAX_NUMBER_HELP = _l("Hungarian: 8-1-2 digits, dashes optional. EU: with the country code, e.g. "
                     "DE129273398.")
EU_VAT_HELP = _l("With the country code, e.g. HU12345676.")
ACCOUNT_HELP = _l("16 or 24 digits (dashes optional), or an IBAN.")


class IdentifierError(ValueError):
    """An identifier refused; str(error) is the translated message for the field."""


def compact(text: str | None) -> str:
    """The text without spaces, dashes, dots or slashes, upper-cased."""
    return SEPARATORS.sub("", text or "").upper()


def hu_tax_number(text: str) -> str:
    """A Hungarian adószám (8-1-2) as the API keeps it: 11 digits without dashes."""
    number = compact(text)
    if not number.isdigit():
        raise IdentifierError(_("A Hungarian tax number holds digits only, e.g. 12345676-2-42."))
    if len(number) != 11:
        raise IdentifierError(_("A Hungarian tax number has 11 digits (8-1-2); this one has "
                                "%(count)d.", count=len(number)))
    if not anum.is_valid(number[:8]):
        raise IdentifierError(_("The check digit (the 8th digit) of this tax number is wrong."))
    if number[8] not in VAT_CODES:
        raise IdentifierError(_("The 9th digit of a tax number (the VAT code) is 1 to 5, not "
                                "%(digit)s.", digit=number[8]))
    if number[9:] not in COUNTY_CODES:
        raise IdentifierError(_("Unknown county code %(code)s (the last two digits of the tax "
                                "number).", code=number[9:]))
    return number


def personal_tax_id(text: str) -> str:
    """A person's tax identification number (adóazonosító jel): 10 digits, the first an 8."""
    number = compact(text)
    if not number.isdigit() or len(number) != 10:
        raise IdentifierError(_("A tax identification number has 10 digits, e.g. 8123456784."))
    if number[0] != "8":
        raise IdentifierError(_("A person's tax identification number starts with 8."))
    # stdnum has no module for it; the rule is in Act XX of 1996 (weights 1-9, modulo 11).
    if sum(int(d) * i for i, d in enumerate(number[:9], start=1)) % 11 != int(number[9]):
        raise IdentifierError(_("The check digit (the last digit) of this tax identification "
                                "number is wrong."))
    return number


def eu_vat(text: str) -> str:
    """An EU VAT number (country prefix and number) in its compact form."""
    number = compact(text)
    prefix = number[:2].lower()
    if prefix not in stdnum_vat.MEMBER_STATES:
        raise IdentifierError(_("An EU VAT number starts with the code of a member state, e.g. "
                                "HU12345676 or DE129273398."))
    try:
        return stdnum_vat.validate(number)
    except InvalidLength:
        raise IdentifierError(_("Wrong length for a %(country)s VAT number.",
                                country=prefix.upper())) from None
    except InvalidChecksum:
        raise IdentifierError(_("The check digit of this EU VAT number is wrong.")) from None
    except ValidationError:
        raise IdentifierError(_("This is not a valid %(country)s VAT number.",
                                country=prefix.upper())) from None


def tax_number(text: str) -> str:
    """A partner's tax number: Hungarian (digits), EU (member-state prefix) or foreign.

    A foreign number outside the EU is kept as typed, since no check is known for it; it is told
    apart by its two-letter country prefix.
    """
    number = compact(text)
    if number[:1].isdigit() or not number:
        return hu_tax_number(number)
    if number[:2].lower() in stdnum_vat.MEMBER_STATES:
        return eu_vat(number)
    return text.strip()


def giro_valid(digits: str) -> bool:
    """True when the last digit is the GIRO check digit of the ones before (9,7,3,1 weights)."""
    total = sum(int(d) * GIRO_WEIGHTS[i % 4] for i, d in enumerate(digits[:-1]))
    return (10 - total % 10) % 10 == int(digits[-1])


def hu_bank_account(text: str) -> str:
    """A Hungarian bank account number (16 or 24 digits) as 8-8 or 8-8-8 digit groups."""
    number = compact(text)
    if not number.isdigit():
        raise IdentifierError(_("Enter the bank account number as digits (12345678-12345678) or as "
                                "an IBAN (HU42 1177 ...)."))
    if len(number) not in (16, 24):
        raise IdentifierError(_("A Hungarian bank account number has 16 or 24 digits; this one "
                                "has %(count)d.", count=len(number)))
    # The first 8 digits carry the bank's check digit, the rest (8 or 16) the account's.
    if not giro_valid(number[:8]):
        raise IdentifierError(_("The check digit of the first 8 digits (the bank and branch) "
                                "is wrong."))
    if not giro_valid(number[8:]):
        raise IdentifierError(_("The check digit of the bank account number (its last digit) is "
                                "wrong."))
    return show_bank_account(number)


def iban(text: str) -> str:
    """An IBAN in its compact form; a Hungarian one also passes the domestic check digits."""
    number = compact(text)
    try:
        number = stdnum_iban.validate(number)
    except InvalidChecksum:
        raise IdentifierError(_("The check digits of this IBAN are wrong.")) from None
    except InvalidComponent:
        raise IdentifierError(_("Unknown country code %(code)s at the start of the IBAN.",
                                code=number[:2])) from None
    except ValidationError:
        raise IdentifierError(_("Wrong length or form for an IBAN of %(code)s.",
                                code=number[:2])) from None
    if number.startswith("HU"):
        hu_bank_account(number[4:])
    return number


def bank_account(text: str) -> str:
    """A bank account: an IBAN when it starts with letters, else a Hungarian account number."""
    number = compact(text)
    return iban(number) if number[:2].isalpha() else hu_bank_account(number)


def domestic_account(text: str) -> str:
    """A Hungarian bank account number (16 or 24 digits), typed as digits or as a Hungarian
    IBAN (whose last 24 digits it is); a foreign IBAN is refused: taxes and salaries are paid
    to Hungarian accounts, which the accounting service takes as digits only."""
    number = compact(text)
    if not number[:2].isalpha():
        return hu_bank_account(number)
    if not number.upper().startswith("HU"):
        raise IdentifierError(_("The accounting service takes a Hungarian bank account here: "
                                "enter its 16 or 24 digits, or its IBAN starting with HU."))
    return hu_bank_account(iban(number)[4:])


def show_tax_number(value) -> str:
    """A stored tax number with its dashes (12345676-2-42); anything else as it is."""
    text = "" if value is None else str(value)
    number = compact(text)
    if len(number) == 11 and number.isdigit():
        return f"{number[:8]}-{number[8]}-{number[9:]}"
    return text


def show_bank_account(value) -> str:
    """A stored account number in 8-digit groups, or an IBAN in groups of four."""
    text = "" if value is None else str(value)
    number = compact(text)
    if number.isdigit() and len(number) in (16, 24):
        return "-".join(number[i:i + 8] for i in range(0, len(number), 8))
    if number[:2].isalpha() and stdnum_iban.is_valid(number):
        return stdnum_iban.format(number)
    return text

