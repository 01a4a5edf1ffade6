"""New accounting document (and storno): one submit creates everything or nothing, once."""
from __future__ import annotations

from flask import flash, g, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from app.forms import build_new_form
from app.htmx import redirect_to
from app.incomes import bp, create, upstream
from app.incomes.images import read_image
from app.store import idempotency
from app.upstream import RateLimited, Unavailable, ValidationError


def _form(settings: dict, catalogs: dict, initial: dict):
    return build_new_form(catalogs, initial=initial, company=settings,
                          fields=create.new_fields(settings),
                          item_fields=create.item_fields(),
                          search_url=url_for(".partner_options"))


def _initial(settings: dict, catalogs: dict) -> tuple[dict, dict | None]:
    storno_of = request.args.get("storno_of", "")
    if not storno_of.isdigit():
        return create.defaults(settings, catalogs), None
    original = upstream.get_income(g.api, int(storno_of), settings)
    return create.storno_initial(original, settings, catalogs), original


@bp.route("/new", methods=["GET", "POST"])
def new():
    """The create form; a valid submit is sent once and lands on the new document."""
    settings, catalogs = upstream.settings_and_catalogs(g.api, upstream.FORM_CATALOGS)
    initial, original = _initial(settings, catalogs)
    form = _form(settings, catalogs, initial)
    key = request.form.get("form_key") or idempotency.new_key()
    image_errors: list[str] = []
    if request.method == "POST" and not form.table_op():
        image, image_errors = read_image(request.files.get("invoice_image"))
        if form.check() and not image_errors:
            done = _submit(form, key, image)
            if done is not None:
                return done
    status = 200
    if request.method == "POST":
        status = 400 if image_errors and form.status() == 200 else form.status()
    return render_template("incomes/new.html", form=form, form_key=key, original=original,
                           image_errors=image_errors, settings=settings), status


def _submit(form, key: str, image):
    """Claim the key, create, remember the result; a repeat lands where the first did."""
    try:
        claim = idempotency.claim(key, g.company_id, create.PURPOSE)
    except idempotency.KeyMismatchError:
        form.form_errors.append(_("This form has expired. Reload the page and try again."))
        return None
    if not claim.first:
        claim = create.wait_for_first(key)
    return _create(form, key, image) if claim.first else _earlier(claim)


def _create(form, key: str, image):
    """Send the create once; on a refusal release the key so the form can be sent again."""
    try:
        created = create.send(create.payload(form), image)
    except ValidationError as exc:
        idempotency.fail(key)
        _show_refusal(form, exc)
        return None
    except (Unavailable, RateLimited):
        idempotency.fail(key)
        form.upstream_failed(_("The accounting service did not answer in time. The document "
                               "may or may not have been created: sending the form again is "
                               "safe, a second copy is refused by its invoice number."))
        return None
    except Exception:
        idempotency.fail(key)
        raise
    target = url_for(".detail", income_id=created["id"], created=1)
    idempotency.finish(key, {"id": created["id"], "url": target})
    flash(_("The accounting document %(number)s was created.",
            number=created.get("invoice_number")), "success")
    return redirect_to(target)


def _earlier(claim):
    if claim.done and claim.result:
        flash(_("This form was already sent; here is the document it created."), "info")
        return redirect_to(claim.result["url"])
    return render_template("incomes/pending.html"), 409


def _show_refusal(form, exc: ValidationError) -> None:
    form.apply_upstream(exc)
    existing = exc.extra.get("existing_income_id")
    if existing:
        link = Markup('{} <a href="{}">{}</a>').format(
            _("An income with this invoice number already exists."),
            url_for(".detail", income_id=existing), _("Open it"))
        if "invoice_number" in form._fields:
            form["invoice_number"].errors = [link]
