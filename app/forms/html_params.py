"""WTForms' attribute writer, redone without markupsafe's formatter.

`wtforms.widgets.core.html_params` writes each attribute with `Markup('{k}="{v}"').format()`,
markupsafe's pure-Python escaping formatter: about 15 µs an attribute, so one input cost
0.1 ms and the income filter form 3 ms. This writes the same bytes (tests compare the two on
generated input) with f-strings and `escape`. Every WTForms widget looks `html_params` up at
call time, in the module or on `Input`, so installing it there covers all of them.
"""
from __future__ import annotations

from markupsafe import Markup, escape
from wtforms.widgets import core

ORIGINAL = core.html_params
QUOTE = '"'


def html_params(**kwargs) -> Markup:
    """Attributes sorted by name; True writes the bare name, False nothing, values escaped."""
    params = []
    for key, value in sorted(kwargs.items()):
        name = escape(core.clean_key(key))
        if value is True:
            params.append(str(name))
        elif value is not False:
            # A Markup value is not escaped again: its quotes still must not end the attribute.
            params.append(f'{name}="{str(escape(value)).replace(QUOTE, "&quot;")}"')
    # Every name and value above went through escape().
    return Markup(" ".join(params))  # noqa: S704  # nosec B704


def install() -> None:
    """Make every WTForms widget write attributes with html_params above (idempotent)."""
    core.html_params = html_params
    core.Input.html_params = staticmethod(html_params)
