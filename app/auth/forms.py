"""The sign-in forms."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, PasswordField, StringField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from app.forms.filters import MAX_ID
from app.forms.registry import TOO_LONG


class LoginForm(FlaskForm):
    """API token (never echoed back), the user's name, optional company id."""

    token = PasswordField(
        _l("API token"),
        validators=[DataRequired(_l("Enter the API token.")),
                    Length(max=512, message=TOO_LONG)],
        description=_l("Created by an administrator in the accounting service under "
                       "Settings → API Tokens. Bookdesk keeps it on the server only."),
        render_kw={"autocomplete": "off", "spellcheck": "false"},
    )
    name = StringField(
        _l("Your name"),
        validators=[DataRequired(_l("Enter your name.")), Length(max=120, message=TOO_LONG)],
        description=_l("Shown in the history of changes you make."),
        render_kw={"autocomplete": "name"},
    )
    company_id = IntegerField(
        _l("Company ID (optional)"),
        validators=[Optional(), NumberRange(min=1, max=MAX_ID,
                                            message=_l("Enter a positive number."))],
        description=_l("Leave empty to use the company the token belongs to."),
        render_kw={"inputmode": "numeric"},
    )
    next = HiddenField()


class DemoLoginForm(FlaskForm):
    """One-click demo sign-in: the user key only, the token is looked up on the server."""

    user = HiddenField(validators=[DataRequired()])
    next = HiddenField()


class OAuthLoginForm(FlaskForm):
    """The button that starts the OAuth2 sign-in (CSRF only)."""
