"""Expenses (spec 2.3, 3, 4.3): /2/ list, detail, create, update; deprecated /1/ list and detail."""
from __future__ import annotations

from flask import jsonify, request
from sqlalchemy import select
from sqlalchemy.orm import defer

from sandbox.core.auth import current_company, current_token, require_write
from sandbox.core.db import db
from sandbox.core.errors import not_found
from sandbox.core.pagination import cursor_page, page_number_page
from sandbox.expenses.create import attach_file, build_expense, checked_upload, form_data
from sandbox.expenses.fields import MAX_ID, Ctx
from sandbox.expenses.filters import conditions
from sandbox.expenses.listing import page_results
from sandbox.expenses.model import Expense
from sandbox.expenses.rules import HEADER_ORDER, editable_fields
from sandbox.expenses.serialize import detail_record
from sandbox.expenses.update import apply_patch

# Fields the create request takes; excluding is an action on an existing expense, not a field.
CREATE_FIELDS = tuple(name for name in HEADER_ORDER if name != "excluded_from_accounting")


def _list_statement():
    # Lists never show these; not loading them keeps the hot path lean.
    return select(Expense).where(*conditions(request.args, db(), current_company())) \
        .options(defer(Expense.search_text), defer(Expense.custom_fields), defer(Expense.note))


def list_v2():
    """Cursor page: {next, previous, results: {expenses: [...], <lookup tables>}}."""
    return jsonify(cursor_page(_list_statement(), Expense.id,
                               lambda rows: page_results(db(), rows)))


def detail_v2(expense_id: int):
    """The detail record with editable_fields."""
    return jsonify(_detail(_expense(expense_id)))


def create():
    """Multipart create; the file's content must really be PDF, JPEG, PNG or XML."""
    require_write()
    filename, data, kind = checked_upload(request.files.get("file"))
    ctx = Ctx(db(), current_company())
    expense = build_expense(ctx, form_data(request.form), CREATE_FIELDS)
    attach_file(expense, filename, data, kind)
    db().add(expense)
    db().flush()
    return jsonify(_detail(expense)), 201


def update(expense_id: int):
    """Partial update limited to editable_fields; answers the updated detail."""
    require_write()
    expense = _expense(expense_id)
    payload = request.get_json(silent=True)
    apply_patch(Ctx(db(), current_company()), expense, payload, current_token().user_name)
    db().flush()
    return jsonify(_detail(expense))


def list_v1():
    """Deprecated page-number list (same filters), replaced by /2/expenses."""
    page = page_number_page(_list_statement().order_by(Expense.id.desc()),
                            lambda rows: page_results(db(), rows, lookups=False)["expenses"])
    return _deprecated(jsonify(page), "/2/expenses")


def detail_v1(expense_id: int):
    """Deprecated detail, replaced by /2/expenses/{id}/."""
    return _deprecated(jsonify(_detail(_expense(expense_id))), f"/2/expenses/{expense_id}/")


def _deprecated(response, successor: str):
    response.headers["Deprecation"] = "true"
    response.headers["Link"] = f'<{successor}>; rel="successor-version"'
    return response


def _expense(expense_id: int) -> Expense:
    expense = db().get(Expense, expense_id) if expense_id <= MAX_ID else None
    if expense is None or expense.company_id != current_company().id:
        raise not_found()
    return expense


def _detail(expense: Expense) -> dict:
    company = current_company()
    return detail_record(expense, editable_fields(expense, company))
