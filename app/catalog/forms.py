"""Page forms of the catalogue, partner and settings pages, the VAT category form, and the
upstream's refusal texts marked for translation.

PageForm is a FlaskForm with messages above it (`form_errors`), a one-time key for creates
(`form_key`, see app.once) and `place(error)` that puts an upstream ValidationError's
field messages on the inputs of the same name; everything else goes above the form.
PageForm.place() passes every upstream message through app.upstream.errors.upstream_text.
"""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, SelectField, StringField
from wtforms.validators import InputRequired, Length, Regexp, ValidationError

from app.forms.display import select_choices
from app.forms.registry import TOO_LONG, VAT_AREAS
from app.numbers import InputError, format_number, parse_percent
from app.store import idempotency
from app.upstream.errors import NOT_ACCEPTED, upstream_text

REQUIRED = _l("This field is required.")


class PageForm(FlaskForm):
    """A FlaskForm whose upstream refusals land on its own fields."""

    form_key = HiddenField()

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.form_errors: list[str] = []
        if not self.form_key.data:
            self.form_key.data = idempotency.new_key()

    def add_error(self, name: str, message: str) -> None:
        """A message on a field's input, or above the form when there is no such input."""
        if name in self and name not in ("csrf_token", "form_key"):
            self[name].errors = [*self[name].errors, message]
        else:
            self.form_errors.append(message)

    def place(self, error, aliases: dict[str, str] | None = None) -> None:
        """Distribute an upstream ValidationError: fields first, the rest above the form."""
        for message in error.non_field_errors:
            self.form_errors.append(upstream_text(message))
        for key, messages in error.field_errors.items():
            name = (aliases or {}).get(key, key)
            for message in messages:
                self.add_error(name, upstream_text(message))
        if not error.non_field_errors and not error.field_errors:
            self.form_errors.append(str(NOT_ACCEPTED))

    def has_errors(self) -> bool:
        """True when a field or the form itself carries a message."""
        return bool(self.form_errors or any(field.errors for field in self))


def name_field(label, max_length: int = 100) -> StringField:
    """A required, trimmed name input."""
    return StringField(label, filters=[strip],
                       validators=[InputRequired(message=REQUIRED),
                                   Length(max=max_length, message=TOO_LONG)],
                       render_kw={"maxlength": max_length, "autocomplete": "off"})


def strip(value):
    """Trim surrounding spaces of submitted text (None stays None)."""
    return value.strip() if isinstance(value, str) else value


def empty_to_none(value):
    """Trimmed text, or None for nothing at all (the API refuses empty strings)."""
    value = strip(value)
    return value or None


class NameForm(PageForm):
    """Create a tag or a type: just its name."""

    name = name_field(_l("Name"))


ORIGINS = (("", _l("All")), ("true", _l("External (created or edited through the API)")),
           ("false", _l("Internal")))


class TagFilterForm(FlaskForm):
    """The tag list's filters: name contains, external or not (GET, no CSRF)."""

    class Meta:
        csrf = False

    name = StringField(_l("Name contains"), filters=[strip])
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
        raise ValidationError(_l("Enter a percentage between 0 and 100, e.g. 27 or 5,5."))
    field.parsed = value


class VatForm(PageForm):
    """Create or edit a VAT category."""

    name = name_field(_l("Name"))
    percent = StringField(_l("Rate (%)"), filters=[strip],
                          validators=[InputRequired(message=REQUIRED), _percent],
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
