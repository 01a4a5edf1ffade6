"""Incomes (spec 2.2, 4.2): list, detail, create, update. Rules live in the incomes_* modules."""
from __future__ import annotations

from flask import jsonify, request

from sandbox.catalog.rules import json_object
from sandbox.core.auth import current_company, require_write
from sandbox.core.pagination import page_number_page
from sandbox.incomes.create import create_income
from sandbox.incomes.detail import detail_json, load_income, parse_expand
from sandbox.incomes.filters import income_query
from sandbox.incomes.image import read_payload
from sandbox.incomes.listing import list_results
from sandbox.incomes.update import update_income


def income_list():
    """GET /1/incomes: page envelope, results = {incomes, lookup tables} (filters: see module
    incomes_filters)."""
    company = current_company()
    stmt = income_query(company)
    return jsonify(page_number_page(stmt, lambda rows: list_results(rows, company)))


def income_detail(income_id: int):
    """GET /1/incomes/{id}/ with ?fields=accounting,items,payment_history."""
    company = current_company()
    income = load_income(income_id, company)
    return jsonify(detail_json(income, company, parse_expand(request.args.get("fields"))))


def income_create():
    """POST /2/incomes/create/: one transaction; answers the detail record with 201."""
    require_write()
    company = current_company()
    data, image = read_payload()
    income = create_income(data, image, company)
    return jsonify(detail_json(load_income(income.id, company), company)), 201


def income_update(income_id: int):
    """PATCH /2/incomes/{id}/update/: answers the same shape as the detail."""
    require_write()
    company = current_company()
    income = load_income(income_id, company)
    update_income(income, json_object(), company)
    expand = parse_expand(request.args.get("fields"))
    return jsonify(detail_json(income, company, expand))
