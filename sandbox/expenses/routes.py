"""Expenses (spec 2.3, 3, 4.3): /2/ list, detail, create, update; deprecated /1/ list and detail."""
from __future__ import annotations

from flask import jsonify, request
from sqlalchemy import func, select
from sqlalchemy.orm import defer

from sandbox.bank.rules import payment_history
from sandbox.catalog.rules import company_row
from sandbox.core.auth import current_company, current_token, require_write
from sandbox.core.db import db
from sandbox.core.pagination import cursor_page, page_number_page
from sandbox.documents.rules import same_file_query
from sandbox.expenses.create import (
    attach_file,
    build_expense,
    checked_upload,
    form_data,
    json_uploads,
)
from sandbox.expenses.fields import Ctx
from sandbox.expenses.filters import conditions, v1_conditions
from sandbox.expenses.listing import page_results
from sandbox.expenses.live_filters import ordering
from sandbox.expenses.model import Expense, ExpenseFile
from sandbox.expenses.rules import HEADER_ORDER, editable_fields
from sandbox.expenses.serialize import detail_record, iso
from sandbox.expenses.update import apply_patch

# Fields the create request takes; excluding is an action on an existing expense, not a field.
CREATE_FIELDS = tuple(name for name in HEADER_ORDER if name != "excluded_from_accounting")


def _list_statement(where: list):
    # Lists never show these; not loading them keeps the hot path lean.
    return select(Expense).where(*where) \
        .options(defer(Expense.search_text), defer(Expense.custom_fields), defer(Expense.note))


def list_v2():
    """Cursor page: {next, previous, results: {expenses: [...], <lookup tables>}}.

    With ?page= or ?ordering= (live clients send both) the same envelope is numbered by page
    and sorted as asked, so a client paging with page gets that page."""
    order = ordering()
    stmt = _list_statement(conditions(request.args, db(), current_company()))
    if order is None and not request.args.get("page"):
        return jsonify(cursor_page(stmt, Expense.id, lambda rows: page_results(db(), rows)))
    stmt = stmt.order_by(*(order or [Expense.id.desc()]))
    return jsonify(page_number_page(stmt, lambda rows: page_results(db(), rows)))


def detail_v2(expense_id: int):
    """The detail record with editable_fields; ?fields=payment_history adds the payments."""
    return jsonify(_detail(company_row(Expense, expense_id), request.args.get("fields")))


def create():
    """Multipart create (spec) or live JSON upload; content must be PDF, JPEG, PNG or XML."""
    require_write()
    if request.is_json:
        return _create_uploads(request.get_json(silent=True))
    filename, data, kind = checked_upload(request.files.get("file"))
    ctx = Ctx(db(), current_company())
    expense = build_expense(ctx, form_data(request.form), CREATE_FIELDS)
    attach_file(expense, filename, data, kind)
    db().add(expense)
    db().flush()
    return jsonify(_detail(expense)), 201


def _create_uploads(body):
    """The live JSON upload: one expense per file, all or none; 201 {"processed": [ids]}."""
    uploads = json_uploads(body)
    ctx, source = Ctx(db(), current_company()), body.get("source")
    ids = []
    for filename, data, kind in uploads:
        expense = build_expense(ctx, {}, CREATE_FIELDS)
        if isinstance(source, str) and source.strip():
            expense.source = source.strip()[:40]
        attach_file(expense, filename, data, kind)
        db().add(expense)
        db().flush()
        ids.append(expense.id)
    return jsonify({"processed": ids}), 201


def artifact_search():
    """POST /2/expenses/artifact-search/: expenses whose file has this name and size."""
    name, size = same_file_query(request.get_json(silent=True))
    rows = db().execute(
        select(Expense.id, Expense.company_id, Expense.artifact_created_at)
        .join(ExpenseFile, ExpenseFile.expense_id == Expense.id)
        .where(Expense.company_id == current_company().id, Expense.artifact_filename == name,
               func.length(ExpenseFile.data) == size).order_by(Expense.id))
    return jsonify([{"expense_id": r.id, "company_id": r.company_id, "filename": name,
                     "size": size, "created_at": iso(r.artifact_created_at)} for r in rows])


def update(expense_id: int):
    """Partial update limited to editable_fields; answers the updated detail."""
    require_write()
    expense = company_row(Expense, expense_id)
    payload = request.get_json(silent=True)
    apply_patch(Ctx(db(), current_company()), expense, payload, current_token().user_name)
    db().flush()
    return jsonify(_detail(expense))


def list_v1():
    """Deprecated page-number list, replaced by /2/expenses: the filters and ordering its live
    description lists (filters.v1_conditions); other parameters are ignored."""
    order = ordering(strict=False) or [Expense.id.desc()]
    stmt = _list_statement(v1_conditions(request.args, current_company())).order_by(*order)
    page = page_number_page(stmt, lambda rows: page_results(db(), rows, lookups=False)["expenses"])
    return _deprecated(jsonify(page), "/2/expenses")


def detail_v1(expense_id: int):
    """Deprecated detail, replaced by /2/expenses/{id}/."""
    expense = company_row(Expense, expense_id)
    return _deprecated(jsonify(_detail(expense, request.args.get("fields"))),
                       f"/2/expenses/{expense_id}/")


def _deprecated(response, successor: str):
    response.headers["Deprecation"] = "true"
    response.headers["Link"] = f'<{successor}>; rel="successor-version"'
    return response




def _detail(expense: Expense, fields: str | None = None) -> dict:
    company = current_company()
    data = detail_record(expense, editable_fields(expense, company))
    # Unknown expansions are ignored, as upstream does.
    if "payment_history" in {part.strip() for part in (fields or "").split(",")}:
        data["payment_history"] = payment_history(db(), expense)
    return data
