"""Error pages: upstream errors and HTTP errors become friendly pages (or htmx messages).

Never a traceback, a token or an upstream body; always the request id.
  AuthenticationError -> that company's token is dropped, back to /login with a message
  PermissionDenied    -> 403 page saying what was refused (two-factor case told apart)
  NeedsApiToken       -> 403 page: an OAuth2 sign-in cannot open a page on /1/ paths
  NotFound            -> 404 page; on a list's page or cursor that is gone, its first page
  RateLimited         -> 429 "the accounting service asks us to slow down", with Retry-After
  Unavailable         -> 503 "the accounting service is not reachable, try again"
  ValidationError left unhandled by a view -> 400 page
htmx requests get a small message fragment swapped into the page's message area.
A write that got no answer is the view's to handle (lost_write_response): the page again with
what the user sent, and a message that it may already be saved.
Upstream 400 texts reach the page through upstream_text / upstream_messages only
(app/upstream/errors.py).
"""
from __future__ import annotations

import re
from urllib.parse import urlencode

from flask import Flask, current_app, flash, g, make_response, render_template, request, url_for
from flask_babel import _
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from app.auth.flow import here
from app.auth.session import company_entry, drop_company, keep_form
from app.forms.filters import PAGING, filter_args
from app.templating import is_htmx, redirect_to, retarget_to_messages
from app.upstream import errors as up
from app.upstream.parallel import PageTimedOut, current_stats

TITLES = {
    400: _l("The request could not be processed"),
    403: _l("Not allowed"),
    404: _l("Page not found"),
    405: _l("Not allowed"),
    413: _l("Too large"),
    429: _l("Too many requests"),
    500: _l("Something went wrong"),
    503: _l("The accounting service is not reachable"),
}
MESSAGES = {
    400: _l("The request could not be processed. Please check what you entered and try again."),
    403: _l("You do not have permission to do this."),
    404: _l("The page or record you asked for does not exist."),
    405: _l("This action is not available here."),
    413: _l("What you sent is too large: a file or a field is over the size Bookdesk accepts."),
    429: _l("Too many requests. Please wait a moment and try again."),
    500: _l("An unexpected error happened on our side. It has been logged."),
    503: _l("The accounting service is not reachable right now. Please try again in a moment."),
}
LOST_WRITE = _l("The accounting service did not confirm the request. Your change may already be "
                "saved: check the record, then send again if needed.")
LOST_TITLE = _l("The save was not confirmed")
# An unmatched URL under a company runs no company blueprint code, so g.company is not set.
COMPANY_PATH = re.compile(r"^/c/(\d+)(?:/|$)")


def init_app(app: Flask) -> None:
    """Register the handlers for upstream errors, CSRF failures and HTTP errors."""
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected_error)
    _register_upstream_handlers(app)


def error_response(status: int, message=None, title=None, keep_form: bool = False):
    """Render the error page (or, for htmx, the message fragment) with this status.
    keep_form: the upstream could not be asked, so a form's POST comes back to send again."""
    context = {"status": status, "title": title or TITLES.get(status, TITLES[500]),
               "message": message or MESSAGES.get(status, MESSAGES[500])}
    if is_htmx():
        response = make_response(render_template("errors/_message.html", **context), status)
        return retarget_to_messages(response)
    _company_from_url()
    kept = _kept_form() if keep_form else None
    return make_response(render_template("errors/error.html", kept=kept, **context), status)


def _kept_form() -> list[tuple[str, str]] | None:
    """What a form's POST sent, for the error page to send again, when the page's reads
    failed before any write reached the upstream; None when a write may have gone out, a
    chosen file would be lost on the way, or the form is the sign-in's (it holds a token)."""
    if request.method != "POST" or request.blueprint == "auth" or current_stats().may_have_stored:
        return None
    if any(upload.filename for upload in request.files.values()):
        return None
    return list(request.form.items(multi=True))


def lost_write_response(render, exc, message=LOST_WRITE, reload_url: str | None = None):
    """A write the upstream did not answer (Unavailable) or asked to wait with (RateLimited).

    render(text) gives the page again with the user's input and text on top; status 503 (429,
    nothing saved, when rate limited) with Retry-After. htmx gets the message alone in the
    message area, so the page (and what was typed) stays as it was. POST/PATCH are never retried,
    so a lost answer may hide a stored write: the user checks before sending again.
    """
    limited = isinstance(exc, up.RateLimited)
    retry_after = up.waited_for(exc)
    text = lost_write_text(exc, message)
    status = 429 if limited else 503
    if is_htmx():
        title = TITLES[429] if limited else LOST_TITLE
        response = retarget_to_messages(make_response(render_template(
            "errors/_message.html", status=status, title=title, message=text,
            reload_url=reload_url), status))
    else:
        response = make_response(render(text), status)
    if retry_after:
        response.headers["Retry-After"] = str(retry_after)
    return response


def lost_write_text(exc, message=LOST_WRITE) -> str:
    """What a write with no answer says: the wait when rate limited (nothing saved), else
    message (it may already be saved)."""
    return not_saved_slow_down(exc) if isinstance(exc, up.RateLimited) else str(message)


def not_saved_slow_down(exc) -> str:
    """A write the upstream asked to wait with (RateLimited): nothing was saved; how long."""
    seconds = max(up.waited_for(exc), 1)
    return _("The accounting service asked us to slow down, so this was not saved. Send it again "
             "in %(seconds)s seconds.", seconds=seconds)


def _company_from_url() -> None:
    """Give the error page the URL's company when this session is signed in to it."""
    match = COMPANY_PATH.match(request.path)
    if g.get("company") is not None or match is None:
        return
    entry = company_entry(int(match.group(1)))
    if entry is None:
        return
    g.company_id = int(match.group(1))
    g.company = {"id": g.company_id, "name": entry["company_name"],
                 "user_name": entry["user_name"]}


def _csrf_error(exc: CSRFError):
    return error_response(400, _("This form has expired or was sent from elsewhere. Reload the "
                                 "page and try again."), _("The form has expired"))


def _http_error(exc: HTTPException):
    if exc.code is None or exc.code < 400:
        return exc
    if isinstance(exc, InternalServerError):
        return _unexpected_error(exc.original_exception or exc)
    if exc.response is not None:  # a page of its own (e.g. the throttled sign-in form)
        return exc.response
    # Our own refusals (app/forms/filters.py) say what was wrong; werkzeug's English text is
    # not shown.
    return error_response(exc.code, getattr(exc, "message", None),
                          title=TITLES.get(exc.code, exc.name))


def _unexpected_error(exc: Exception):
    if isinstance(exc, HTTPException):
        return _http_error(exc)
    current_app.logger.exception("Unhandled error on %s %s", request.method, request.path)
    return error_response(500)


def _register_upstream_handlers(app: Flask) -> None:
    app.register_error_handler(up.AuthenticationError, _upstream_authentication)
    app.register_error_handler(up.PermissionDenied, _upstream_permission)
    app.register_error_handler(up.NeedsApiToken, _needs_api_token)
    app.register_error_handler(up.NotFound, _upstream_not_found)
    app.register_error_handler(up.RateLimited, _upstream_rate_limited)
    app.register_error_handler(up.Unavailable, _upstream_unavailable)
    app.register_error_handler(up.ValidationError, _upstream_validation)
    app.register_error_handler(up.FilterIgnored, _filter_ignored)
    app.register_error_handler(PageTimedOut, _page_timed_out)


def _upstream_not_found(_exc):
    # A page past the list's end, or a cursor the API no longer reads (an old link, a list that
    # shrank), opens the same filter's first page rather than a dead end.
    listing = (request.endpoint or "").endswith(".index") and request.method == "GET"
    if not listing or not any(request.args.get(key) for key in PAGING):
        return error_response(404)
    query = urlencode(list(filter_args(request.args).items(multi=True)))
    flash(_("That page of the list no longer exists, so its first page is shown."), "info")
    return redirect_to(f"{request.path}?{query}" if query else request.path)


def _page_timed_out(exc):
    if _waiting_out_a_rate_limit():
        # The reads were waiting out the service's "slow down", not a slow answer: say so.
        return _busy(0)
    return error_response(503, _("The accounting service did not send this record in time. "
                                 "Reload the page to try again."),
                          _("The record could not be loaded in time"), keep_form=True)


def _waiting_out_a_rate_limit() -> bool:
    """Whether a call's latest try was refused with 429 (it was waiting to try again); a call
    that got through on a later try does not count."""
    latest = {(call.method, call.path): call.status for call in current_stats().calls}
    return 429 in latest.values()


def _upstream_authentication(exc):
    company_id = g.get("company_id")
    name = (g.get("company") or {}).get("name") or company_id
    kept = None if company_id is None or is_htmx() else _kept_form()
    if kept:  # before the company is dropped: it names the user who may send it again
        keep_form(company_id, request.full_path.rstrip("?"), here(), kept)
    if company_id is not None:
        drop_company(company_id)
    flash(_("The accounting service no longer accepts the token for %(company)s. "
            "Please sign in again.", company=name), "warning")
    target = url_for("resend.index", company_id=company_id) if kept else here()
    return redirect_to(url_for("auth.login", company_id=company_id, next=target))


def _upstream_permission(exc):
    if getattr(exc, "two_factor", False):
        return error_response(403, _(
            "The company requires two-factor authentication, and the user this token belongs "
            "to has not enabled it. Enable two-factor authentication in the accounting service, "
            "then try again."), _("Two-factor authentication required"))
    return error_response(403, _(
        "The accounting service refused this action for your token. Your role in this company "
        "may not allow it (for example, a viewer cannot change records)."))


def _needs_api_token(exc):
    return error_response(403, _(
        "This page needs an API token for this company: the accounting service takes the "
        "OAuth sign-in on part of its API only. Add the company with its API token on the "
        "sign-in page."), _("An API token is needed"))


def _upstream_unavailable(exc):
    response = error_response(503, keep_form=True)
    if seconds := up.waited_for(exc):
        response.headers["Retry-After"] = str(seconds)
    return response


def _upstream_rate_limited(exc):
    return _busy(up.waited_for(exc))


def _busy(retry_after: int):
    """The 429 page: the service asked to wait, retry_after seconds when it said (0: not)."""
    message = _("The accounting service is receiving too many requests and asked us to wait. "
                "Please try again in %(seconds)s seconds.", seconds=retry_after) if retry_after \
        else _("The accounting service is receiving too many requests and asked us to wait. "
               "Please try again in a moment.")
    response = error_response(429, message, _("The accounting service is busy"), keep_form=True)
    if retry_after:
        response.headers["Retry-After"] = str(retry_after)
    return response


def _upstream_validation(exc):
    return error_response(400, _("The accounting service did not accept the data sent."))


def _filter_ignored(exc):
    # A page's own read (a dashboard figure, a checklist count) came back unfiltered: its
    # figures would be wrong, and no filter of the user's is to blame.
    return error_response(502, _(
        "The accounting service listed records outside the filter “%(filter)s” that this page "
        "reads, so the page is not shown: its figures would be wrong.",
        filter=exc.label),
        _("The accounting service's answer could not be used"))
