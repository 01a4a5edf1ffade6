"""VAT category pages: the list with the create form, and the edit form of one category."""
from __future__ import annotations

from flask import abort, flash, g, render_template, url_for
from flask_babel import gettext as _

from app.auth import company_blueprint
from app.catalog import vat
from app.once import Recovery, create_once
from app.templating import redirect_to
from app.upstream import RateLimited, Unavailable, ValidationError, catalog

bp = company_blueprint("vat_categories", __name__, url_prefix="/vat-categories")


@bp.get("/")
def index():
    """Every category with its type (read-only), and a form to add one."""
    return _list(vat.VatForm())


@bp.post("/new")
def create():
    """Create a category, once per rendered form; refusals stay on their fields."""
    form = vat.VatForm()
    if form.validate():
        try:
            done = create_once(form, "vat_categories.create",
                               lambda: vat.create(g.api, form.payload()),
                               lambda created: url_for(".index"),
                               lambda created: _("The VAT category “%(name)s” was created.",
                                                 name=created.get("name", form.name.data)),
                               _recovery(form.payload()))
        except ValidationError as exc:
            form.place(exc)
        else:
            if done is not None:
                return done
    return _list(form, getattr(form, "lost_status", 400))


def _recovery(body: dict) -> Recovery:
    """A lost create is found by name, rate, type (and area and country when given)."""
    def find(since) -> str | None:
        return url_for(".index") if vat.find_created(g.api, body) else None

    return Recovery(find, found=_("The accounting service answered late, but the VAT category "
                                  "“%(name)s” was created.", name=body["name"]))


@bp.route("/<int:vat_category_id>/edit", methods=["GET", "POST"])
def edit(vat_category_id: int):
    """Edit a category's name, rate, area, country and type."""
    record = vat.find(g.api, vat_category_id) or abort(404)
    form = vat.VatForm(data=vat.initial(record))
    if form.is_submitted():
        if form.validate() and _save(form, vat_category_id):
            flash(_("The VAT category “%(name)s” was saved.", name=form.name.data), "success")
            return redirect_to(url_for(".index"))
        return render_template("catalog/vat_edit.html", form=form, record=record), 400
    return render_template("catalog/vat_edit.html", form=form, record=record)


def _save(form, category_id: int) -> bool:
    try:
        vat.update(g.api, category_id, form.payload())
    except ValidationError as exc:
        form.place(exc)
        return False
    return True


def _list(form, status: int = 200):
    try:
        entries = catalog.get(g.api, "vat_categories")
    except (Unavailable, RateLimited):
        if status < 429:
            raise
        # The form above says the service is not answering; the list can wait, the input not.
        entries = []
    return render_template("catalog/vat.html", rows=entries, form=form,
                           type_labels=vat.TYPE_LABELS, area_labels=vat.AREA_LABELS), status
