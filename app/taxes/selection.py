"""The records a bulk page acts on (?ids=...) and the list page to return to."""
from __future__ import annotations

from flask import flash, request, url_for
from flask_babel import gettext as _

from app.nav import safe_next
from app.params import small_int
from app.templating import redirect_to

MAX_SELECTED = 500


def selected_ids() -> list[int]:
    """The ids sent as `ids` (query or form), in order, without repeats."""
    values = request.values.getlist("ids")
    ids = dict.fromkeys(i for i in map(small_int, values) if i is not None)
    return list(ids)[:MAX_SELECTED]


def back_url() -> str:
    """The list page the user came from (filters kept), or the plain list."""
    return safe_next(request.values.get("back")) or url_for(".index")


def nothing_selected():
    """Back to the list with a message: select records first."""
    flash(_("Select at least one record first."), "warning")
    return redirect_to(back_url())
