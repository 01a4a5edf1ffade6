"""Field parsers for tax and salary bodies, and the tax codes they may name."""
from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from sandbox.core.values import (
    BLANK_MSG,
    STRING_MSG,
    checked,
    choice_msg,
    parse_iso_date,
    parse_money,
    too_long_msg,
)
from sandbox.core.values import parse_rate as read_rate
from sandbox.taxes.model import PAID_STATUSES

MONTH = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$")
ACCOUNT = re.compile(r"^(\d{8})-?(\d{8})(?:-?(\d{8}))?$")
TAX_NUMBER = re.compile(r"^\d{10}$")
MONTH_FORMAT = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD, YYYY-MM."
# The month before and the month after are derived from it: both must be dates too.
MONTH_RANGE = "Ensure this month is between 0001-02 and 9999-11."


def parse_month(raw) -> tuple[date | None, list[str]]:
    """A payment month from YYYY-MM or any date in it; stored as its first day."""
    match = MONTH.match(raw) if isinstance(raw, str) else None
    if not match:
        return None, [MONTH_FORMAT]
    try:
        date(int(match[1]), int(match[2]), int(match[3] or 1))
    except ValueError:
        return None, [MONTH_FORMAT]
    if (match[1], match[2]) in (("0001", "01"), ("9999", "12")):
        return None, [MONTH_RANGE]
    return date(int(match[1]), int(match[2]), 1), []


def parse_rate(raw) -> tuple[Decimal | None, list[str]]:
    """A positive exchange rate (decimal string or number), six decimals at most."""
    return checked(read_rate, raw)


def parse_date(raw) -> tuple[date | None, list[str]]:
    """An ISO date (YYYY-MM-DD) or null."""
    return checked(parse_iso_date, raw)


def parse_amount(raw) -> tuple[Decimal | None, list[str]]:
    """A non-negative amount with at most two decimal places."""
    value, problems = checked(parse_money, raw)
    if value is not None and value < 0:
        return None, ["Ensure this value is greater than or equal to 0."]
    return value, problems


def parse_paid_status(raw) -> tuple[int | None, list[str]]:
    """1 not paid, 2 paid, 3 partially paid."""
    if isinstance(raw, bool) or raw not in PAID_STATUSES:
        return None, [choice_msg(raw)]
    return raw, []


def parse_code(raw) -> tuple[str | None, list[str]]:
    """A known tax code, or null."""
    if raw is None:
        return None, []
    if str(raw) not in TAX_CODES or isinstance(raw, bool):
        return None, [choice_msg(raw)]
    return str(raw), []


def parse_text(raw, max_length: int) -> tuple[str | None, list[str]]:
    """Text that may be null but not blank."""
    if raw is None:
        return None, []
    if not isinstance(raw, str):
        return None, [STRING_MSG]
    if not raw.strip():
        return None, [BLANK_MSG]
    if len(raw.strip()) > max_length:
        return None, [too_long_msg(max_length)]
    return raw.strip(), []


def parse_account(raw) -> tuple[str | None, list[str]]:
    """A Hungarian bank account number (8-8 or 8-8-8 digits), stored with dashes."""
    if raw is None:
        return None, []
    match = ACCOUNT.match(raw.replace(" ", "")) if isinstance(raw, str) else None
    if not match:
        return None, ["Enter a valid bank account number (8-8 or 8-8-8 digits)."]
    return "-".join(group for group in match.groups() if group), []


def parse_tax_number(raw) -> tuple[str | None, list[str]]:
    """An employee's ten-digit tax identification number."""
    cleaned = raw.replace(" ", "").replace("-", "") if isinstance(raw, str) else None
    if not cleaned or not TAX_NUMBER.match(cleaned):
        return None, ["Enter a valid tax identification number (10 digits)."]
    return cleaned, []


def parse_tag_ids(raw, known: set[int]) -> tuple[list[int] | None, list[str]]:
    """A list of the company's tag ids."""
    if not isinstance(raw, list) or not all(isinstance(i, int) and not isinstance(i, bool)
                                            for i in raw):
        return None, ["Expected a list of tag ids."]
    missing = [i for i in raw if i not in known]
    if missing:
        return None, [f'Invalid pk "{missing[0]}" - object does not exist.']
    return list(dict.fromkeys(raw)), []


# Code -> (name, budget account number); from NAV's published list of accounts by tax code.
TAX_CODES = {
    "101": ("Társasági adó", "10032000-01076019"),
    "103": ("Személyi jövedelemadó (SZJA)", "10032000-06056353"),
    "104": ("Általános forgalmi adó (ÁFA)", "10032000-01076868"),
    "115": ("Egyszerűsített vállalkozói adó (EVA)", "10032000-01076033"),
    "119": ("Rehabilitációs hozzájárulás", "10032000-06056281"),
    "124": ("Egészségbiztosítási Alapot megillető bevételek", "10032000-06056229"),
    "125": ("Társadalombiztosítási járulék (Nyugdíjbiztosítási Alap)", "10032000-06056236"),
    "138": ("Késedelmi pótlék", "10032000-01076985"),
    "182": ("Szakképzési hozzájárulás", "10032000-06056061"),
}

MANUAL = "manual"
# Integration labels a synced record may carry (tax authority account, payroll software).
INTEGRATION_SOURCES = ("nav", "kulcs-ber", "nexon", "novitax")
SOURCES = (MANUAL, *INTEGRATION_SOURCES)


def code_json(code: str) -> dict:
    """One entry of the tax code list."""
    name, account_number = TAX_CODES[code]
    return {"code": code, "name": name, "account_number": account_number}
