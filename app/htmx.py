"""htmx helpers: tell htmx requests apart, render a page or its fragment, redirect either way."""
from __future__ import annotations

from flask import make_response, redirect, render_template, request

MESSAGES_TARGET = "#messages"


def is_htmx() -> bool:
    """True for an htmx request that wants a fragment (not a history restore)."""
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


def htmx_target() -> str | None:
    """The id of the element the htmx request will swap into, if any."""
    return request.headers.get("HX-Target") if is_htmx() else None


def render(page_template: str, fragment_template: str, **context) -> str:
    """Render the fragment for htmx requests and the full page otherwise.

    The page normally `{% include %}`s the fragment, so both show the same markup.
    """
    return render_template(fragment_template if is_htmx() else page_template, **context)


def redirect_to(location: str, code: int = 303):
    """Redirect a normal request, or tell htmx to load `location` as a full page."""
    if is_htmx():
        response = make_response("", 204)
        response.headers["HX-Redirect"] = location
        return response
    return redirect(location, code=code)


def retarget_to_messages(response, swap: str = "innerHTML"):
    """Make htmx put this response into the page's message area instead of its own target."""
    response.headers["HX-Retarget"] = MESSAGES_TARGET
    response.headers["HX-Reswap"] = swap
    return response


def trigger(response, event: str, detail=None):
    """Ask htmx to fire `event` on the page after this response (HX-Trigger)."""
    import json

    response.headers["HX-Trigger"] = json.dumps({event: detail}) if detail is not None else event
    return response
