"""The fast attribute writer writes exactly what WTForms' own does, and every widget uses it."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup
from wtforms import Form, SelectField, StringField, TextAreaField
from wtforms.widgets import core

from app.forms import html_params as fast

KEYS = st.from_regex(r"(data_|aria_|hx-)?[a-z][a-z_-]{0,12}", fullmatch=True)
VALUES = st.one_of(st.booleans(), st.integers(), st.text(max_size=30),
                   st.text(max_size=30).map(Markup), st.none())


@given(st.dictionaries(KEYS, VALUES, max_size=8))
def test_same_output_as_wtforms_for_any_attributes(attrs):
    assert fast.html_params(**attrs) == fast.ORIGINAL(**attrs)


def test_quotes_and_markup_cannot_break_out_of_an_attribute():
    written = fast.html_params(title='"><script>x</script>', data_x=Markup('a"b'),
                               class_="c", disabled=True, hidden=False)
    assert written == ('class="c" data-x="a&quot;b" disabled '
                       'title="&#34;&gt;&lt;script&gt;x&lt;/script&gt;"')
    assert isinstance(written, Markup)


class _Form(Form):
    name = StringField("Name")
    kind = SelectField("Kind", choices=[("a", "A & B"), ("b", '"B"')])
    note = TextAreaField("Note")


@pytest.mark.usefixtures("app")
def test_the_app_installs_it_for_every_widget(monkeypatch):
    assert core.html_params is fast.html_params
    assert core.Input.html_params is fast.html_params
    calls = []
    monkeypatch.setattr(core, "html_params", lambda **kw: calls.append(kw) or Markup(""))
    monkeypatch.setattr(core.Input, "html_params", staticmethod(core.html_params))
    form = _Form(data={"name": "x", "kind": "b"})
    form.name(), form.kind(), form.note()
    assert len(calls) >= 3
