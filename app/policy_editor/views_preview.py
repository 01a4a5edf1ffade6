"""Preview: the draft over the last N months of incomes, before anything is saved."""
from __future__ import annotations

from datetime import date
from functools import partial

from flask import g, request

from app.params import arg_int
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
from app.policy_editor.stored import editor_data, editor_tasks
from app.templating import render
from app.upstream import run_parallel


@bp.get("/preview")
def preview():
    """What the draft would do to recent incomes (?months=, ?show= filter)."""
    months = arg_int(request.args, "months", DEFAULT_MONTHS)
    months = months if months in MONTH_CHOICES else DEFAULT_MONTHS
    show = request.args.get("show") if request.args.get("show") in FILTERS else "all"
    since = months_ago(date.today(), months)
    found = _read_side_by_side(since)
    (incomes, truncated), state = found.pop("incomes"), load_state(data=editor_data(found))
    context = {"state": state, "months": months, "month_choices": MONTH_CHOICES, "show": show,
               "filters": FILTERS, "result": None, "blocked": has_errors(state.problems)}
    if not context["blocked"]:
        context["result"] = run_preview(state.config, incomes, state.catalogs, since)
        context["result"].truncated = truncated
    return render("policies/preview.html", "policies/_preview_results.html", **context)


def _read_side_by_side(since: date) -> dict:
    """The incomes do not depend on the stored configuration: one round trip for both."""
    tasks = editor_tasks(g.api, currencies=True)
    tasks["incomes"] = partial(fetch_incomes, g.api, since)
    return run_parallel(tasks)
