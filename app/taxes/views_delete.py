"""Bulk delete: a confirmation page listing the selected records, then one delete request."""
from __future__ import annotations

from flask import flash, g, render_template, request
from flask_babel import gettext as _
from flask_babel import ngettext

from app.taxes import present, upstream
from app.taxes.kinds import Kind
from app.taxes.selection import back_url, nothing_selected, selected_ids
from app.templating import redirect_to


def delete(kind: Kind):
    """GET: what would be deleted, with its total. POST: delete it (the upstream answers 204)."""
    ids = selected_ids()
    if not ids:
        return nothing_selected()
    found = upstream.read(g.api, kind)
    records = present.selected(found["listing"], kind, ids)
    if not records:
        flash(_("The selected records no longer exist."), "warning")
        return redirect_to(back_url())
    if request.method == "GET":
        return render_template("taxes/delete.html", records=records, back=back_url(),
                               currency=found["currency"], total=present.total(records))
    upstream.delete(g.api, kind, [record["id"] for record in records])
    flash(ngettext("%(num)d record was deleted.", "%(num)d records were deleted.",
                   len(records)), "success")
    return redirect_to(back_url())
