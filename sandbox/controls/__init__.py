"""Sandbox-only controls under /_sandbox/: test companies, tokens, logs, faults, state."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The controls blueprint and its route table: (methods, rule, view) per operation."""
    # Views import other resources' models and rules, so they load when the app is built.
    from sandbox.controls import bank, expenses, imports, incomes, records, service

    bp = blueprint("sandbox_controls", __name__, (
        ("POST", "/_sandbox/companies/", service.create_company),
        ("GET", "/_sandbox/requests/", service.list_requests),
        ("DELETE", "/_sandbox/requests/", service.clear_requests),
        ("GET", "/_sandbox/faults/", service.list_faults),
        ("POST", "/_sandbox/faults/", service.add_fault),
        ("DELETE", "/_sandbox/faults/", service.clear_faults),
        ("GET", "/_sandbox/health/", service.health),
        ("PATCH", "/_sandbox/tokens/", service.change_token),
        ("POST", "/_sandbox/documents/", records.add_document),
        ("PATCH", "/_sandbox/partners/<int:partner_id>/", records.change_partner),
        ("POST", "/_sandbox/<any('taxes', 'salaries'):records>/sync/", records.sync_records),
        ("POST", "/_sandbox/incomes/", incomes.make_income),
        ("PATCH", "/_sandbox/incomes/<int:income_id>/", incomes.change_income_state),
        ("POST", "/_sandbox/incomes/<int:income_id>/state/", incomes.change_income_state),
        ("POST", "/_sandbox/bank/accounts/", bank.create_bank_account),
        ("POST", "/_sandbox/bank/settle/", bank.settle_expense),
        ("POST", "/_sandbox/bank/transactions/", bank.record_transaction),
        ("POST", "/_sandbox/expenses/", expenses.create_expense),
        ("PATCH", "/_sandbox/expenses/<int:expense_id>/", expenses.change_expense_state),
        ("POST", "/_sandbox/expenses/<int:expense_id>/state/", expenses.change_expense_state),
        ("PUT", "/_sandbox/artifacts/url-ttl/", expenses.change_url_ttl),
        ("POST", "/_sandbox/import-income/", imports.import_income),
        ("GET", "/_sandbox/incomes/<int:income_id>/policy-trace/", imports.policy_trace),
    ))
    return bp
