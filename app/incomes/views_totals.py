"""The live totals of a form with amounts: VAT and gross computed, disagreements flagged.

The income and expense forms post themselves here (htmx, on input) and get the answer of
app.forms.totals_page.live as an HX-Trigger event that static/js/forms.js applies to the inputs.
Nothing is sent upstream; the catalogues come from the cache.
"""
from __future__ import annotations

from flask import g, make_response, request

from app.forms.totals_page import live
from app.htmx import trigger
from app.incomes import bp
from app.upstream import catalog

CATALOGS = ("currencies", "vat_categories")


@bp.post("/totals")
def totals():
    """Computed VAT / gross and field messages for the posted form (no body; HX-Trigger)."""
    catalogs = catalog.get_many(g.api, CATALOGS)
    response = make_response("", 200)
    trigger(response, "totals", live(request.form, catalogs))
    return response
