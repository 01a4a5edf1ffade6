"""New accounting document (and storno): one submit creates everything or nothing, once."""
from __future__ import annotations

from functools import partial

from flask import g, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from app.forms import build_new_form
from app.incomes import bp, create, upstream
from app.incomes.images import read_image
from app.once import (
    EXPIRED,
    ExpiredKey,
    LostAnswer,
    Recovery,
    Sent,
    rate_limited_message,
    repeat_response,
    send_once,
)
from app.params import arg_id
from app.store import idempotency
from app.upstream import RateLimited, ValidationError


def _form(settings: dict, catalogs: dict, initial: dict):
    return build_new_form(catalogs, initial=initial, company=settings,
                          fields=create.new_fields(settings),
                          item_fields=create.item_fields(),
                          search_url=url_for(".partner_options"),
                          totals_url=url_for(".totals"))


def _initial(settings: dict, catalogs: dict) -> tuple[dict, dict | None]:
    storno_of = arg_id(request.args, "storno_of")
    if storno_of is None:
        return create.defaults(settings, catalogs), None
    original = upstream.get_income(g.api, storno_of, settings)
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
        status = 429 if getattr(form, "rate_limited", False) else status
    return render_template("incomes/new.html", form=form, form_key=key, original=original,
                           image_errors=image_errors, settings=settings), status


def _submit(form, key: str, image):
    """Create once; a repeat lands where the first did, a refusal stays on the form."""
    try:
        return send_once(key, create.PURPOSE, partial(_create, form, image), repeat=_earlier,
                         recover=_recovery(form))
    except ExpiredKey:
        form.form_errors.append(str(EXPIRED))
    except ValidationError as exc:
        _show_refusal(form, exc)
    except LostAnswer as exc:
        form.upstream_failed(str(exc))
    except RateLimited as exc:
        form.upstream_failed(rate_limited_message(exc))
        form.rate_limited = True
    return None


def _recovery(form) -> Recovery:
    """A lost create is found by its invoice number (unique per company, matched exactly)."""
    number = create.payload(form).get("invoice_number") or ""

    def find(since) -> str | None:
        found = upstream.find_by_number(g.api, number) if number else []
        return url_for(".detail", income_id=found[0]["id"]) if found else None

    def existing(exc: ValidationError) -> str | None:
        income_id = exc.extra.get("existing_income_id")
        return url_for(".detail", income_id=income_id) if income_id else None

    return Recovery(find, existing, found=_(
        "The accounting service answered late, but the accounting document was created."),
        not_created=_("The accounting service did not answer in time, and the document was not "
                      "created. It is safe to send the form again."),
        unconfirmed=_("The accounting service did not answer in time, and it is not yet known "
                      "whether the document was created. Send the form again in a moment: "
                      "Bookdesk checks first, and a second copy is refused by its invoice "
                      "number."))


def _create(form, image) -> Sent:
    created = create.send(create.payload(form), image)
    return Sent(url_for(".detail", income_id=created["id"], created=1),
                _("The accounting document %(number)s was created.",
                  number=created.get("invoice_number")))


def _earlier(claim):
    return repeat_response(claim, _("This form was already sent; here is the document it "
                                    "created."),
                           pending=lambda: (render_template("incomes/pending.html"), 409))


def _show_refusal(form, exc: ValidationError) -> None:
    form.apply_upstream(exc)
    existing = exc.extra.get("existing_income_id")
    if existing:
        link = Markup('{} <a href="{}">{}</a>').format(
            _("An income with this invoice number already exists."),
            url_for(".detail", income_id=existing), _("Open it"))
        if "invoice_number" in form._fields:
            form["invoice_number"].errors = [link]
