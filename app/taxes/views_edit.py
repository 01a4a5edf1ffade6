"""Bulk edit of the selected records: one grid, one update request with only the changes."""
from __future__ import annotations

from flask import flash, g, render_template, request
from flask_babel import gettext as _
from flask_babel import ngettext

from app.taxes import edit as grid
from app.taxes import present, refusals, upstream
from app.taxes.kinds import Kind
from app.taxes.selection import back_url, nothing_selected, selected_ids
from app.templating import redirect_to
from app.upstream import ValidationError


def edit(kind: Kind):
    """GET: the selected records' grid. POST: check, send the changed rows, back to the list."""
    ids = selected_ids()
    if not ids:
        return nothing_selected()
    found = upstream.read(g.api, kind, tags=True)
    records = present.selected(found["listing"], kind, ids)
    if not records:
        flash(_("The selected records no longer exist."), "warning")
        return redirect_to(back_url())
    if request.method == "GET":
        return _page(kind, grid.rows_for(records, kind), found)
    rows = grid.rows_for(records, kind, request.form)
    grid.check(rows, kind, upstream.records(found["listing"], kind))
    if any(row.has_errors for row in rows):
        return _page(kind, rows, found, status=400)
    return _save(kind, rows, found)


def _save(kind: Kind, rows: list, found: dict):
    changed = [(row, item) for row in rows if (item := grid.changes(row))]
    if not changed:
        flash(_("Nothing was changed."), "info")
        return redirect_to(back_url())
    try:
        upstream.update(g.api, kind, [item for _row, item in changed])
    except ValidationError as exc:
        problems = refusals.place(exc, [row for row, _item in changed])
        return _page(kind, rows, found, problems, 400)
    flash(ngettext("%(num)d record was saved.", "%(num)d records were saved.", len(changed)),
          "success")
    return redirect_to(back_url())


def _page(kind: Kind, rows: list, found: dict, problems=(), status: int = 200):
    return render_template("taxes/edit.html", rows=rows, problems=list(problems),
                           tags=found["tags"], currency=found["currency"], back=back_url(),
                           prefix=grid.prefix), status
