"""Preview: the draft over the last N months of incomes, before anything is saved."""
from __future__ import annotations

from datetime import date

from flask import g, request

from app.htmx import render
from app.policies import has_errors
from app.policy_editor import bp
from app.policy_editor.preview import (
    DEFAULT_MONTHS,
    FILTERS,
    MONTH_CHOICES,
    fetch_incomes,
    months_ago,
    run_preview,
)
from app.policy_editor.state import load_state


@bp.get("/preview")
def preview():
    """What the draft would do to recent incomes (?months=, ?show= filter)."""
    months = request.args.get("months", DEFAULT_MONTHS, type=int)
    months = months if months in MONTH_CHOICES else DEFAULT_MONTHS
    show = request.args.get("show") if request.args.get("show") in FILTERS else "all"
    state = load_state(currencies=True)
    context = {"state": state, "months": months, "month_choices": MONTH_CHOICES, "show": show,
               "filters": FILTERS, "result": None, "blocked": has_errors(state.problems)}
    if not context["blocked"]:
        since = months_ago(date.today(), months)
        incomes, truncated = fetch_incomes(g.api, since)
        context["result"] = run_preview(state.config, incomes, state.catalogs, since)
        context["result"].truncated = truncated
    return render("policies/preview.html", "policies/_preview_results.html", **context)
