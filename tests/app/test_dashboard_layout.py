"""Layout building blocks other areas use: nav registry, render_field, htmx helpers."""
from __future__ import annotations

import re

from flask import render_template_string
from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired

from app.auth import company_blueprint
from app.nav import ENTRIES
from app.templating import render
from tests.app.conftest import sign_in

# The top-level navigation as designed, in its order (written out here, not read from app/nav.py).
TOP_LEVEL = ["Overview", "Incomes", "Review", "Expenses", "Bank", "Partners", "Taxes",
             "Salaries", "VAT summary", "Month-end", "Catalogues", "Settings"]


def _area(app, name):
    bp = company_blueprint(name, __name__, url_prefix=f"/{name}")

    @bp.get("/")
    def index():
        return render("base.html", "_flashes.html")

    app.register_blueprint(bp)
    return bp


def _nav_labels(html):
    nav_html = html.split('class="mainnav"')[1].split("</nav>")[0]
    return re.findall(r'class="mainnav__link"[^>]*>\s*([^<]+?)\s*<', nav_html)


def test_navigation_follows_the_one_list_in_its_order(app, company):
    client = app.test_client()
    sign_in(client, company)
    html = client.get(f"/c/{company.id}/incomes/").get_data(as_text=True)
    in_the_list = []
    for entry in ENTRIES:
        label = str(entry.group or entry.label)
        if label not in in_the_list:
            in_the_list.append(label)
    assert in_the_list == TOP_LEVEL
    assert _nav_labels(html) == TOP_LEVEL
    assert f'href="/c/{company.id}/incomes/" aria-current="page"' in html


def test_navigation_is_built_once_per_page_and_still_marks_the_page_and_follows_the_language(
        app, company, monkeypatch):
    import app.nav as nav

    built = []
    real = nav._build_entries
    monkeypatch.setattr(nav, "_build_entries", lambda: built.append(1) or real())
    client = app.test_client()
    sign_in(client, company)
    base = f"/c/{company.id}"
    for path in ("/incomes/", "/incomes/", "/expenses/", "/incomes/"):
        html = client.get(base + path).get_data(as_text=True)
        assert f'href="{base}{path}" aria-current="page"' in html
    assert len(built) == 2
    client.get("/lang/hu")
    assert "Bevételek" in client.get(base + "/incomes/").get_data(as_text=True)
    assert len(built) == 2


def test_grouped_entries_share_one_menu(app, company):
    client = app.test_client()
    sign_in(client, company)
    html = client.get(f"/c/{company.id}/").get_data(as_text=True)
    assert html.count("Catalogues") == 1
    assert "Tags" in html and "Currencies" in html and "VAT categories" in html
    settings = html.split('<summary class="mainnav__link">Settings</summary>')[1].split("</ul>")[0]
    assert f'href="/c/{company.id}/settings/"' in settings and "Company settings" in settings
    assert f'href="/c/{company.id}/policies/"' in settings and "Income policies" in settings


def test_htmx_request_gets_the_fragment_and_a_normal_one_the_page(app, company):
    _area(app, "frag")
    client = app.test_client()
    sign_in(client, company)
    page = client.get(f"/c/{company.id}/frag/").get_data(as_text=True)
    fragment = client.get(f"/c/{company.id}/frag/", headers={"HX-Request": "true"})
    assert "<html" in page
    assert "<html" not in fragment.get_data(as_text=True)
    assert "HX-Request" in fragment.headers["Vary"]


def test_htmx_request_without_sign_in_redirects_the_whole_page(client, company):
    response = client.get(f"/c/{company.id}/", headers={"HX-Request": "true",
                                                         "HX-Current-URL": "http://x/c/1/?a=b"})
    assert response.headers["HX-Redirect"].startswith(f"/login?company_id={company.id}&next=")


class _Form(FlaskForm):
    class Meta:
        csrf = False

    title = StringField("Title", validators=[DataRequired()], description="Shown on lists")
    kind = SelectField("Kind", choices=[SelectChoice("a", "Alpha"), SelectChoice("b", "Beta")])
    done = BooleanField("Done")


MACRO = """{% from "macros/forms.html" import render_field, form_errors %}
{{ form_errors(form, ['Above the form']) }}
{{ render_field(form.title, placeholder='Name it') }}
{{ render_field(form.kind, readonly=true, reason='Booked: no longer editable') }}
{{ render_field(form.done) }}"""


def test_render_field_shows_label_input_help_errors_and_read_only_reason(app):
    with app.test_request_context(method="POST", data={"title": "", "kind": "b"}):
        form = _Form()
        form.validate()
        html = render_template_string(MACRO, form=form)
    assert '<label class="field__label" for="title">Title</label>' in html
    assert 'aria-invalid="true"' in html and 'aria-describedby="title-error title-help"' in html
    assert 'placeholder="Name it"' in html and "Shown on lists" in html
    assert 'id="title-error"' in html
    assert "Beta" in html and "Booked: no longer editable" in html and 'name="kind"' not in html
    assert 'type="checkbox"' in html and "Above the form" in html
