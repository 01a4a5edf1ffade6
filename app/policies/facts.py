"""facts_from_income(): the flat values conditions compare, from any upstream income shape."""

from .numbers import to_decimal


def facts_from_income(income, currency_codes=None):
    """Flatten an upstream income (list or detail shape) into {condition field: value}."""
    partner = income.get("partner") if isinstance(income.get("partner"), dict) else {}
    return {
        "partner_name": _text(income.get("partner_name") or partner.get("name")),
        "partner_tax_number": normalize_tax_number(
            _text(income.get("partner_tax_number") or partner.get("tax_number"))
        ),
        "invoice_number": _text(income.get("invoice_number")),
        "note": _text(income.get("note")),
        "currency": _currency(income.get("currency"), currency_codes or {}),
        "vat_area": _text(income.get("vat_area")),
        "gross_amount": to_decimal(income.get("gross_amount")),
        "net_amount": to_decimal(income.get("net_amount")),
        "type": _income_type(income),
        "source": _text(income.get("source")) or "manual",
    }


def normalize_tax_number(text):
    """Drop dashes and spaces: the upstream stores "12345678-2-41" as "12345678241"."""
    return text.replace("-", "").replace(" ", "") if isinstance(text, str) else text


def _text(value):
    if isinstance(value, dict):
        value = value.get("name")
    if value is None or isinstance(value, bool):
        return None
    return value if isinstance(value, str) else str(value)


def _currency(value, codes):
    """Return the currency code: ids go through the catalogue, objects carry their name."""
    if isinstance(value, dict):
        code = codes.get(value.get("id")) or value.get("code") or value.get("name")
    elif isinstance(value, int) and not isinstance(value, bool):
        code = codes.get(value)
    elif isinstance(value, str) and value.isdigit():
        code = codes.get(int(value))
    else:
        code = value
    return code.upper() if isinstance(code, str) and code else None


def _income_type(income):
    value = income.get("type", income.get("income_type"))
    if isinstance(value, dict):
        value = value.get("id")
    return to_decimal(value)
