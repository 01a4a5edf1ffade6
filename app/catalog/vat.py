"""Company VAT categories (spec 2.8, 4.8): the form, and the calls that create and update them.

The type (cost or revenue) is chosen on creation and may be changed by an update; lists show
it read-only. Every write drops the cached VAT catalogue.
"""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import SelectField, StringField
from wtforms.validators import InputRequired, Regexp, ValidationError

from app.catalog.forms import REQUIRED, PageForm, name_field, options, strip
from app.forms.registry import VAT_AREAS
from app.numbers import InputError, format_number, parse_percent
from app.upstream import catalog

PATH = "/2/accounting/vat-categories/"
TYPES = (("cost", _l("Cost")), ("revenue", _l("Revenue")))
TYPE_LABELS = dict(TYPES)
AREA_LABELS = dict(VAT_AREAS)
FIELDS = ("name", "percent", "vat_area", "country", "type")


def _percent(form, field) -> None:
    try:
        value = parse_percent(field.data)
    except InputError as error:
        raise ValidationError(error.message) from None
    if value is None:
        raise ValidationError(_l("Enter a percentage between 0 and 100, e.g. 27 or 5,5."))
    field.parsed = value


class VatForm(PageForm):
    """Create or edit a VAT category."""

    name = name_field(_l("Name"))
    percent = StringField(_l("Rate (%)"), filters=[strip],
                          validators=[InputRequired(message=REQUIRED), _percent],
                          render_kw={"inputmode": "decimal", "autocomplete": "off"})
    vat_area = SelectField(_l("VAT area"), choices=options(VAT_AREAS), default="HU")
    country = StringField(_l("Country code"), filters=[lambda v: strip(v).upper() if v else v],
                          default="HU", description=_l("Two letters, e.g. HU"),
                          validators=[Regexp(r"^[A-Za-z]{2}$",
                                             message=_l("Enter a two-letter country code."))],
                          render_kw={"maxlength": 2, "autocomplete": "off"})
    type = SelectField(_l("Type"), choices=options(TYPES), default="cost",
                       description=_l("Cost categories appear on expenses, revenue categories "
                                      "on incomes."))

    def payload(self) -> dict:
        """The body for the API (percent as a number)."""
        return {"name": self.name.data, "percent": float(self.percent.parsed),
                "vat_area": self.vat_area.data, "country": self.country.data,
                "type": self.type.data}


def initial(record: dict) -> dict:
    """Form data of a stored category (percent written the locale's way)."""
    data = {key: record.get(key) for key in FIELDS}
    data["percent"] = format_number(record.get("percent"))
    return data


def find(api, category_id: int) -> dict | None:
    """One category from the (cached) list; the API has no single-category read."""
    found = _pick(catalog.get(api, "vat_categories"), category_id)
    if found is None:
        # Made elsewhere after the list was cached: look once more in a fresh list.
        catalog.invalidate(api.company_id, "vat_categories")
        found = _pick(catalog.get(api, "vat_categories"), category_id)
    return found


def _pick(items: list[dict], category_id: int) -> dict | None:
    return next((item for item in items if item.get("id") == category_id), None)


def create(api, body: dict) -> dict:
    """Create one category; the created category."""
    try:
        answer = api.post(PATH + "create/", json=body)
    finally:
        catalog.invalidate(api.company_id, "vat_categories")
    created = answer.get("created_vat_categories") if isinstance(answer, dict) else answer
    return created[0] if isinstance(created, list) and created else (answer or {})


def find_created(api, body: dict) -> dict | None:
    """A category matching a sent body (name, rate, type; area and country when sent).

    The API allows twins, so an identical category made earlier is indistinguishable.
    """
    catalog.invalidate(api.company_id, "vat_categories")
    wanted = {key: body.get(key) for key in ("vat_area", "country") if body.get(key)}
    for item in catalog.get(api, "vat_categories"):
        if (item.get("name") == body["name"] and item.get("type") == body["type"]
                and float(item.get("percent") or 0) == body["percent"]
                and all(item.get(key) == value for key, value in wanted.items())):
            return item
    return None


def update(api, category_id: int, body: dict) -> dict:
    """Update one category; the stored category."""
    try:
        return api.post(f"{PATH}update/{category_id}/", json=body)
    finally:
        catalog.invalidate(api.company_id, "vat_categories")
