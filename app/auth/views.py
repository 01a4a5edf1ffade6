"""Sign-in (API token or OAuth2), demo sign-in and sign-out, and the sign-in form refused over
the failure limits (routes in app/auth/__init__.py)."""
from __future__ import annotations

import time
from functools import partial

from flask import (
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import _, get_locale, ngettext
from flask_babel import lazy_gettext as _l
from flask_limiter import RequestLimit

from app.auth import session as sessions
from app.auth.flow import probe_writes, record_failure
from app.auth.forms import DemoLoginForm, LoginForm, OAuthLoginForm
from app.auth.session import (
    add_companies,
    add_company,
    companies,
    companies_in_order,
    end_session,
    grants,
    take_kept_form,
)
from app.nav import safe_next
from app.upstream import company as company_api
from app.upstream import errors as up
from app.upstream import make_client, run_parallel

DEMO_ROLE_LABELS = {
    "admin": _l("Administrator"),
    "bookkeeper": _l("Bookkeeper"),
    "viewer": _l("Viewer (read only)"),
    "no_2fa": _l("Administrator without two-factor authentication"),
}


def home():
    """The first signed-in company's overview, or the sign-in page."""
    entries = companies_in_order()
    if not entries:
        return redirect(url_for("auth.login"))
    return redirect(url_for("dashboard.index", company_id=int(entries[0][0])))


def login():
    """Show the sign-in form; on POST validate the token with the upstream and sign in."""
    form = LoginForm()
    if request.method == "GET":
        form.company_id.data = request.args.get("company_id", type=int)
        form.next.data = safe_next(request.args.get("next"))
        form.name.data = session.get("user_name")
    elif form.validate_on_submit():
        done = _sign_in(form, form.token.data.strip(), form.company_id.data, form.name.data)
        if done is not None:
            return done
    status = 200 if request.method == "GET" else getattr(form, "status", 400)
    return login_page(form, status)


def demo_login():
    """One-click demo sign-in: the server looks the token up by the user's key."""
    demo = DemoLoginForm()
    users = current_app.config.get("DEMO_USERS") or {}
    if not current_app.config.get("DEMO") or not demo.validate_on_submit() \
            or demo.user.data not in users:
        flash(_("This demo user is not available."), "error")
        return redirect(url_for("auth.login"), code=303)
    user = users[demo.user.data]
    form = LoginForm(formdata=None, name=user["name"], company_id=user.get("company_id"),
                     next=demo.next.data)
    done = _sign_in(form, user["token"], user.get("company_id"), user["name"])
    return done if done is not None else login_page(form, getattr(form, "status", 400))


def logout():
    """Delete the server-side session record entirely, keeping only the language choice."""
    lang = session.get("lang")
    for grant in grants():
        sessions.revoke(grant)
    end_session()
    if lang:
        session["lang"] = lang
    flash(_("You have signed out."), "info")
    return redirect(url_for("auth.login"), code=303)


def send_again():
    """After signing in again: the form that met the refused token, to send once more."""
    kept = take_kept_form(g.company_id)
    if kept is None:
        return redirect(url_for("dashboard.index"), code=303)
    return render_template("auth/send_again.html", kept=kept)


def login_page(form: LoginForm, status: int):
    """The sign-in page with this form, answered with status."""
    demo_users = current_app.config.get("DEMO_USERS") if current_app.config.get("DEMO") else {}
    oauth_form = OAuthLoginForm() if sessions.enabled() else None
    response = make_response(render_template(
        "auth/login.html", form=form, demo_form=DemoLoginForm(), demo_users=demo_users,
        role_labels=DEMO_ROLE_LABELS, oauth_form=oauth_form, signed_in=companies()), status)
    if oauth_form is not None:
        response.headers["Content-Security-Policy"] = sessions.login_csp()
    return response


def oauth_login():
    """Send the browser to the authorization server (authorization code with PKCE)."""
    if not sessions.enabled() or not OAuthLoginForm().validate_on_submit():
        flash(_("The sign-in with the accounting service is not available."), "error")
        return redirect(url_for("auth.login"), code=303)
    return sessions.start(url_for("auth.oauth_callback", _external=True), str(get_locale()))


def oauth_callback():
    """Redeem the code, read the user's companies and sign them all in under one grant."""
    token = sessions.finish() if sessions.enabled() else None
    if token is None:
        flash(_("The sign-in with the accounting service did not complete. "
                "Please try again."), "error")
        return redirect(url_for("auth.login"), code=303)
    client = make_client(None, token["access_token"], "Bearer")
    try:
        user, found = _profile_and_companies(client)
    except up.UpstreamError:
        flash(_("The accounting service is not reachable right now. "
                "Please try again in a moment."), "error")
        return redirect(url_for("auth.login"), code=303)
    if not found:
        flash(_("Your user has no companies in the accounting service."), "warning")
        return redirect(url_for("auth.login"), code=303)
    _sign_in_companies(sessions.save_grant(token), user, found)
    flash(ngettext("Signed in to %(num)s company", "Signed in to %(num)s companies",
                   len(found)), "success")
    return redirect(url_for("practice.index"), code=303)


def _profile_and_companies(client) -> tuple[dict, list[dict]]:
    """The signed-in user and their companies, read side by side (client without a company)."""
    found = run_parallel({"user": partial(company_api.user_profile, client),
                          "companies": partial(company_api.companies, client)})
    return found["user"], found["companies"]


def _sign_in_companies(grant: str, user: dict, found: list[dict]) -> None:
    name = f"{user.get('last_name', '')} {user.get('first_name', '')}".strip()
    account = f"oauth:{user.get('email') or name}"
    add_companies({item["id"]: {"grant": grant, "account": account, "company_name": item["name"]}
                   for item in found}, name or user.get("email", ""))


def refused(limit: RequestLimit):
    """The sign-in form again with why it was refused; nothing was asked of the upstream."""
    form = LoginForm()
    wait = max(int(limit.reset_at - time.time()), 1)
    form.form_errors.append(_("Too many failed sign-ins. For your security, wait %(seconds)s "
                              "seconds before trying again.", seconds=wait))
    response = login_page(form, 429)
    response.headers["Retry-After"] = str(wait)
    return response


def _sign_in(form: LoginForm, token: str, company_id: int | None, name: str):
    """Check the token against the upstream; sign in and redirect, or put errors on the form."""
    name = (name or "").strip()
    try:
        info = _company_info(token, company_id)
    except up.UpstreamError as exc:
        _explain(form, exc, company_id)
        return None
    if company_id is not None and int(info.get("id", -1)) != int(company_id):
        record_failure()
        form.company_id.errors = [_("This token does not belong to company %(id)s.", id=company_id)]
        return None
    add_company(int(info["id"]), token, info.get("name") or str(info["id"]), name)
    probe_writes(int(info["id"]), token)
    flash(_("Signed in to %(company)s", company=info.get("name")), "success")
    target = safe_next(form.next.data) or url_for("dashboard.index", company_id=info["id"])
    return redirect(target, code=303)


def _company_info(token: str, company_id: int | None) -> dict:
    # No company given: no company header, so the token's own company answers.
    return company_api.info(make_client(company_id, token))


def _explain(form: LoginForm, exc: Exception, company_id: int | None) -> None:
    """Turn an upstream error into a message on the right field (the token is never echoed)."""
    form.status = 400
    if isinstance(exc, up.AuthenticationError | up.PermissionDenied):
        record_failure()
    if isinstance(exc, up.AuthenticationError):
        form.token.errors = [_("The accounting service did not accept this token. Check that "
                               "it was copied completely and has not been deleted.")]
    elif isinstance(exc, up.PermissionDenied) and exc.two_factor:
        form.form_errors.append(_(
            "This company requires two-factor authentication, and the user this token belongs "
            "to has not enabled it. Enable two-factor authentication in the accounting service, "
            "then sign in again."))
        form.status = 403
    elif isinstance(exc, up.PermissionDenied) and company_id is not None:
        form.company_id.errors = [_("This token does not belong to company %(id)s.", id=company_id)]
        form.status = 403
    elif isinstance(exc, up.PermissionDenied):
        form.token.errors = [_("This token may not read the company's data.")]
        form.status = 403
    else:
        form.form_errors.append(_("The accounting service is not reachable right now. "
                                  "Please try again in a moment."))
        form.status = 503
