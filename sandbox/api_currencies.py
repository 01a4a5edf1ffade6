"""The currency catalogue (spec 2.7, 4.9): a plain list of id / ISO code pairs."""
from __future__ import annotations

from flask import Blueprint, jsonify
from sqlalchemy import select

from .db import db
from .models import Currency

bp = Blueprint("currencies", __name__)


@bp.get("/2/currencies/")
def currency_list():
    """GET /2/currencies/: [{id, code, name}] ordered by id."""
    rows = db().scalars(select(Currency).order_by(Currency.id))
    return jsonify([{"id": c.id, "code": c.code, "name": c.name} for c in rows])
