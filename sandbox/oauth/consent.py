"""The consent page: a demo user signs in by choosing their name, then allows or denies.

The sandbox has no passwords; choosing a user is the sign-in. The form posts back to the
authorization URL itself, so the client's query (client_id, redirect_uri, state, PKCE challenge)
travels with the decision.
"""
from __future__ import annotations

from flask import render_template_string, request

from sandbox.core.db import db
from sandbox.oauth.model import User

PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in to the sandbox</title></head>
<body>
<main>
  <h1>Sign in to the sandbox</h1>
  <p><strong>{{ client_name }}</strong> asks to use the accounting API on your behalf:
     your companies and, with the company header, their data.</p>
  {% if error %}<p role="alert">{{ error }}</p>{% endif %}
  <form method="post" action="{{ action }}">
    <fieldset>
      <legend>Who are you?</legend>
      {% for user in users %}
      <label><input type="radio" name="user" value="{{ user.id }}"
             {% if user.email == hint %}checked{% endif %}>
        {{ user.full_name }} &lt;{{ user.email }}&gt;
        ({{ user.memberships | map(attribute="company.name") | join(", ") }})</label><br>
      {% else %}
      <p>No demo users exist in this sandbox.</p>
      {% endfor %}
    </fieldset>
    <button type="submit" name="decision" value="allow">Allow</button>
    <button type="submit" name="decision" value="deny">Deny</button>
  </form>
</main>
</body>
</html>"""


def render(grant, error: str = "", status: int = 200):
    """The consent page for a validated authorization request."""
    users = db().query(User).order_by(User.last_name, User.first_name, User.id).all()
    html = render_template_string(
        PAGE, client_name=grant.client.client_name or grant.client.client_id, users=users,
        action=request.full_path, hint=request.args.get("login_hint", ""), error=error)
    return html, status, {"Content-Type": "text/html; charset=utf-8",
                          "Cache-Control": "no-store"}


def chosen_user() -> User | None:
    """The user picked on the form, if it names one that exists."""
    raw = request.form.get("user", "")
    return db().get(User, int(raw)) if raw.isdecimal() else None


def allowed() -> bool:
    """Whether the user pressed Allow."""
    return request.form.get("decision") == "allow"
