"""The currency catalogue (spec 2.7, 4.9): ids and ISO codes, the company's own marked."""
from __future__ import annotations

from functools import partial

from flask import g, render_template

from app.auth import company_blueprint
from app.forms import company_settings
from app.upstream import catalog, run_parallel

bp = company_blueprint("currencies", __name__, url_prefix="/currencies")


@bp.get("/")
def index():
    """Every currency the API knows, with the id its payloads use."""
    data = run_parallel({"currencies": partial(catalog.get, g.api, "currencies"),
                         "company": partial(company_settings, g.api)})
    return render_template("catalog/currencies.html", rows=data["currencies"],
                           default_code=data["company"].get("default_currency_name"))
