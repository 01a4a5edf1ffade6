"""The consent page: a demo user signs in by choosing their name, then allows or denies.

Hungarian by default, English for a browser that prefers it (or `ui_locales=en`).

The sandbox has no passwords; choosing a user is the sign-in. The form posts back to the
authorization URL itself, so the client's query (client_id, redirect_uri, state, PKCE challenge)
travels with the decision.
"""
from __future__ import annotations

from flask import render_template_string, request

from sandbox.core.db import db
from sandbox.oauth.model import User

TEXTS = {
    "hu": {"title": "Bejelentkezés a sandboxba",
           "asks": "az Ön nevében szeretné használni a könyvelési API-t: a cégei listáját és, "
                   "a cégfejléccel, a cégek adatait.",
           "who": "Ki Ön?", "none": "Ebben a sandboxban nincs bemutató felhasználó.",
           "allow": "Engedélyezem", "deny": "Elutasítom", "no_user": "Válassza ki, ki Ön."},
    "en": {"title": "Sign in to the sandbox",
           "asks": "asks to use the accounting API on your behalf: the list of your companies "
                   "and, with the company header, their data.",
           "who": "Who are you?", "none": "No demo users exist in this sandbox.",
           "allow": "Allow", "deny": "Deny", "no_user": "Choose who you are."},
}

PAGE = """<!doctype html>
<html lang="{{ lang }}">
<head><meta charset="utf-8"><title>{{ t.title }}</title></head>
<body>
<main>
  <h1>{{ t.title }}</h1>
  <p><strong>{{ client_name }}</strong> {{ t.asks }}</p>
  {% if error %}<p role="alert">{{ t.no_user }}</p>{% endif %}
  <form method="post" action="{{ action }}">
    <fieldset>
      <legend>{{ t.who }}</legend>
      {% for user in users %}
      <label><input type="radio" name="user" value="{{ user.id }}"
             {% if user.email == hint %}checked{% endif %}>
        {{ user.full_name }} &lt;{{ user.email }}&gt;
        ({{ user.memberships | map(attribute="company.name") | join(", ") }})</label><br>
      {% else %}
      <p>{{ t.none }}</p>
      {% endfor %}
    </fieldset>
    <button type="submit" name="decision" value="allow">{{ t.allow }}</button>
    <button type="submit" name="decision" value="deny">{{ t.deny }}</button>
  </form>
</main>
</body>
</html>"""


def render(grant, error: bool = False, status: int = 200):
    """The consent page for a validated authorization request (Hungarian unless the browser
    prefers English, or `ui_locales=en`)."""
    lang = _language()
    users = db().query(User).order_by(User.last_name, User.first_name, User.id).all()
    html = render_template_string(
        PAGE, t=TEXTS[lang], lang=lang, users=users, error=error,
        client_name=grant.client.client_name or grant.client.client_id,
        action=request.script_root + request.full_path, hint=request.args.get("login_hint", ""))
    return html, status, {"Content-Type": "text/html; charset=utf-8",
                          "Content-Language": lang, "Cache-Control": "no-store"}


def _language() -> str:
    asked = request.args.get("ui_locales", "").split()
    if asked and asked[0][:2] in TEXTS:
        return asked[0][:2]
    return request.accept_languages.best_match(list(TEXTS), "hu")


def chosen_user() -> User | None:
    """The user picked on the form, if it names one that exists."""
    raw = request.form.get("user", "")
    return db().get(User, int(raw)) if raw.isdecimal() else None


def allowed() -> bool:
    """Whether the user pressed Allow."""
    return request.form.get("decision") == "allow"
