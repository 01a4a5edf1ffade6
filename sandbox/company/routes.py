"""Company info and settings (spec 2.1, 4.1)."""
from __future__ import annotations

from flask import jsonify

from app.policies.validate import validate
from sandbox.catalog.rules import NOT_JSON_OBJECT, json_object
from sandbox.company.model import Company
from sandbox.core.auth import current_company, require_admin
from sandbox.core.errors import ApiError, validation_error
from sandbox.core.values import BOOL_MSG

BOOLEAN_SETTINGS = ("enable_vat_period", "enable_accounting_id")


def company_json(company: Company) -> dict:
    """The company object of spec 2.1."""
    return {
        "id": company.id,
        "name": company.name,
        "tax_account_number": company.tax_account_number,
        "default_currency_name": company.default_currency.code,
        "expense_email": company.expense_email,
        "document_email": company.document_email,
        "advanced_accounting": company.advanced_accounting,
        "enable_accounting_id": company.enable_accounting_id,
        "enable_vat_period": company.enable_vat_period,
        "income_policies": company.income_policies,
    }


def company_info():
    """GET /2/company-info/."""
    return jsonify(company_json(current_company()))


def company_update(company_id: int):
    """PATCH settings: income_policies (object or null), enable_vat_period, enable_accounting_id."""
    company = current_company()
    if company_id != company.id:
        raise ApiError(403, "Company ID does not match")
    require_admin()
    _apply_settings(company, json_object(NOT_JSON_OBJECT))
    return jsonify(company_json(company))


def _apply_settings(company: Company, data: dict) -> None:
    errors = {}
    for key in BOOLEAN_SETTINGS:
        if key in data:
            if not isinstance(data[key], bool):
                errors[key] = [BOOL_MSG]
            else:
                setattr(company, key, data[key])
    if "income_policies" in data:
        value = data["income_policies"]
        if value is not None and not isinstance(value, dict):
            errors["income_policies"] = ["Must be an object or null."]
        else:
            company.income_policies = _validated_policies(value)
    if errors:
        raise validation_error(errors)


def _validated_policies(value: dict | None) -> dict | None:
    """Stored as given; the engine's schema problems of level error are refused."""
    if value is None:
        return None
    problems = [p for p in validate(value) if getattr(p, "level", "error") == "error"]
    if problems:
        raise validation_error({"income_policies": [
            f"{'/'.join(map(str, p.path))}: {p.message % p.params}" for p in problems]})
    return value
