"""Fetching an artifact's signed, token-free link through the upstream client's pooled session.

Stand-in for an `UpstreamClient.download(url)` (the client only decodes JSON): the link is
re-rooted at the configured upstream like every `next` link, sent without the token, counted in
the request's upstream calls and turned into the client's typed errors.
"""
from __future__ import annotations

import time

from app.upstream import urls
from app.upstream.accounting import Call
from app.upstream.errors import Unavailable
from app.upstream.responses import Target, error_from, unavailable
from app.upstream.session import get_session

MAX_BYTES = 20 * 1024 * 1024


def download(api, url: str) -> bytes:
    """The bytes behind a signed link; typed upstream errors on failure."""
    full = urls.join(api.base_url, url)
    relative = full[len(api.base_url):]
    target = Target("GET", urls.path_only(relative), urls.loggable(relative))
    started, status, error = time.perf_counter(), None, None
    try:
        response = get_session().get(full, timeout=api.timeout, stream=True,
                                     allow_redirects=False, headers=_headers(api))
        status = response.status_code
        if status != 200:
            raise error_from(response, target, "")
        return _read(response, target)
    except OSError as exc:  # requests' errors derive from OSError
        error = type(exc).__name__
        raise unavailable(exc, target) from None
    finally:
        ms = (time.perf_counter() - started) * 1000
        api.stats.record(Call("GET", target.path, status, ms, None, error))


def _headers(api) -> dict[str, str]:
    headers = {"Accept": "*/*", "User-Agent": api.app_name}
    if api.stats.request_id:
        headers["X-Request-Id"] = api.stats.request_id
    return headers


def _read(response, target: Target) -> bytes:
    content = response.raw.read(MAX_BYTES + 1, decode_content=True)
    response.close()
    if len(content) > MAX_BYTES:
        raise Unavailable("artifact larger than the proxy allows", method="GET",
                          path=target.path)
    return content
