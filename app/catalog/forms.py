"""The catalogue pages' forms (on PageForm, app/forms/base.py): a name, the tag filter, the
VAT category form, and the upstream's refusal texts marked for translation."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField, StringField
from wtforms.validators import InputRequired, Regexp, ValidationError

from app.forms.base import PageForm, name_field, strip
from app.forms.display import select_choices
from app.forms.registry import VAT_AREAS
from app.forms.tables import REQUIRED_MSG
from app.numbers import InputError, format_number, parse_percent, percent_hint


class NameForm(PageForm):
    """Create a tag or a type: just its name."""

    name = name_field(_l("Name"))


ORIGINS = (("", _l("All")), ("true", _l("External (created or edited through the API)")),
           ("false", _l("Internal")))


class TagFilterForm(FlaskForm):
    """The tag list's filters: name contains, external or not (GET, no CSRF)."""

    class Meta:
        csrf = False

    # Its own id: the page's create form has a field called name too.
    name = StringField(_l("Name contains"), filters=[strip], id="filter-name")
    is_external = SelectField(_l("Origin"), choices=select_choices(ORIGINS), default="")


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
        raise ValidationError(percent_hint())
    field.parsed = value


class VatForm(PageForm):
    """Create or edit a VAT category."""

    name = name_field(_l("Name"))
    percent = StringField(_l("Rate (%)"), filters=[strip],
                          validators=[InputRequired(message=REQUIRED_MSG), _percent],
                          render_kw={"inputmode": "decimal", "autocomplete": "off"})
    vat_area = SelectField(_l("VAT area"), choices=select_choices(VAT_AREAS), default="HU")
    country = StringField(_l("Country code"), filters=[lambda v: strip(v).upper() if v else v],
                          default="HU", description=_l("Two letters, e.g. HU"),
                          validators=[Regexp(r"^[A-Za-z]{2}$",
                                             message=_l("Enter a two-letter country code."))],
                          render_kw={"maxlength": 2, "autocomplete": "off"})
    type = SelectField(_l("Type"), choices=select_choices(TYPES), default="cost",
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
