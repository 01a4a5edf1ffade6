"""The upstream HTTP client: URLs, pooled sessions, headers, timeouts, retries.

The upstream HTTP client: headers, timeouts, retries, typed errors, pagination.

When to send a request again, and how long to wait first.

One pooled requests.Session per thread, shared by every client on that thread.

Building request URLs and query strings, and their loggable form.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from http.cookiejar import DefaultCookiePolicy
from importlib import metadata
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import requests
from requests.adapters import HTTPAdapter
from requests.auth import AuthBase
from requests.exceptions import SSLError
from urllib3.exceptions import NewConnectionError

from .errors import NeedsApiToken, Target, Unavailable, retry_after_seconds, unavailable
from .parallel import READS, Call, CallStats, once
from .responses import MalformedPage, Page, decode, parse_page, read_file, resource_from_path

log = logging.getLogger("app.upstream")

DEFAULT_COMPANY_HEADER = "Service-Company-Id"


@functools.cache  # reading the package metadata costs about 0.3 ms: once per process
def default_app_name() -> str:
    """``bookdesk/<installed version>`` for the X-Application header."""
    try:
        return f"bookdesk/{metadata.version('bookdesk')}"
    except metadata.PackageNotFoundError:
        return "bookdesk/dev"


class UpstreamClient:
    """One company's view of the upstream API, authenticated with one token.

    ``auth_scheme`` is "Token" for an API token, "Bearer" for an OAuth2 access token (one
    token for every company of the user: the company header alone picks the company).
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        company_id: int | str,
        *,
        company_header: str = DEFAULT_COMPANY_HEADER,
        connect_timeout: float = 3.05,
        read_timeout: float = 15,
        retries: int = 3,
        backoff: float = 0.3,
        max_retry_after: float = 5,
        app_name: str | None = None,
        stats: CallStats | None = None,
        catalog_ttl: float = 60,
        auth_scheme: str = "Token",
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.company_id = company_id
        self.company_header = company_header
        self.timeout = (connect_timeout, read_timeout)
        self.policy = RetryPolicy(retries, backoff, max_retry_after)
        self.app_name = app_name or default_app_name()
        self.stats = stats if stats is not None else CallStats()
        self.catalog_ttl = catalog_ttl
        self._token = token
        self.auth_scheme = auth_scheme
        self._reads: dict[str, Callable[[], Any]] = {}
        self._reads_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"UpstreamClient(base_url={self.base_url!r}, company_id={self.company_id!r})"

    def read_once(self, key: str, read: Callable[[], Any]) -> Any:
        """read()'s result, read once in this client's life (a request): another caller, in
        any thread, waits for that read and shares its answer, or its failure."""
        with self._reads_lock:
            shared = self._reads.setdefault(key, once(read))
        return shared()

    @property
    def scope(self) -> tuple[str, str, str]:
        """Cache scope (base URL, company, token fingerprint): who sees cached data."""
        fingerprint = hashlib.sha256(self._token.encode()).hexdigest()[:16]
        return self.base_url, str(self.company_id), fingerprint

    def reaches(self, path: str) -> bool:
        """Whether this client's token is taken on path: API tokens everywhere, OAuth2 Bearer
        tokens on /2/ only (the live API description lists Bearer for /2/ endpoints only)."""
        return self.auth_scheme != "Bearer" or path_only(path).startswith("/2/")

    def get(self, path: str, params: Mapping[str, Any] | None = None) -> Any:
        """GET and decode JSON; retried on transient failures."""
        return self.request("GET", path, params=params)

    def post(self, path: str, json: Any = None, data: Any = None, files: Any = None) -> Any:
        """POST JSON (or form data/files); never resent once it may have arrived."""
        return self.request("POST", path, json=json, data=data, files=files)

    def patch(self, path: str, json: Any = None) -> Any:
        """PATCH JSON; never resent once it may have arrived."""
        return self.request("PATCH", path, json=json)

    def delete(self, path: str, json: Any = None) -> Any:
        """DELETE; never resent once it may have arrived."""
        return self.request("DELETE", path, json=json)

    def page(self, path: str, params: Mapping[str, Any] | None = None, *, resource=None) -> Page:
        """GET one page of a list, whatever its envelope."""
        body = self.get(path, params)
        try:
            return parse_page(body, resource or resource_from_path(path))
        except MalformedPage as exc:
            raise Unavailable(
                f"malformed list body: {exc}", method="GET", path=path_only(path)
            ) from None

    def iter_pages(self, path: str, params=None, *, resource=None) -> Iterator[Page]:
        """Every page of a list, following ``next`` until it is null."""
        resource = resource or resource_from_path(path)
        page = self.page(path, params, resource=resource)
        seen = {page.next}
        yield page
        while page.next:
            page = self.page(page.next, resource=resource)
            if page.next in seen:
                raise Unavailable("pagination loops back", path=path_only(path))
            seen.add(page.next)
            yield page

    def iter_all(self, path: str, params=None, *, resource=None) -> Iterator[Any]:
        """Every record of a list, across all pages."""
        for page in self.iter_pages(path, params, resource=resource):
            yield from page.items

    def download(self, url: str) -> tuple[bytes, str]:
        """GET a signed file link, re-rooted at base_url: its bytes and content type."""
        full = join(self.base_url, url)
        relative = full[len(self.base_url):]
        target = Target("GET", path_only(relative), loggable(relative))
        # The link carries its own signature: the token must never travel with it.
        headers = {"Accept": "*/*", "User-Agent": self.app_name}
        if self.stats.request_id:
            headers["X-Request-Id"] = self.stats.request_id
        prepared = get_session().prepare_request(requests.Request("GET", full, headers=headers))
        # No redirects: the file must come from the configured upstream itself.
        response = self._send(prepared, target, stream=True, allow_redirects=False)
        return read_file(response, target, self._token)

    def request(self, method: str, path: str, *, params=None, json=None, data=None, files=None):
        """Send one logical request (with retries) and return the decoded body."""
        if not self.reaches(path):
            raise NeedsApiToken(method=method, path=path_only(path))
        url = join(self.base_url, path)
        params = clean_params(params)
        target = Target(
            method, path_only(url[len(self.base_url):]), loggable(url, params)
        )
        request = requests.Request(
            method, url, params=params, json=json, data=data, files=files,
            headers=self._headers(), auth=TokenAuth(self._token, self.auth_scheme),
        )
        # Prepared once so a retry resends the same bytes (files are read only once).
        prepared = get_session().prepare_request(request)
        return decode(self._send(prepared, target), target, self._token)

    def _headers(self) -> dict[str, str]:
        headers = {
            "Accept": "application/json",
            "User-Agent": self.app_name,
            "X-Application": self.app_name,
        }
        # No company (sign-in asks which company the token belongs to): send no header.
        if self.company_id not in (None, ""):
            headers[self.company_header] = str(self.company_id)
        if self.stats.request_id:
            headers["X-Request-Id"] = self.stats.request_id
        return headers

    def _send(self, prepared: requests.PreparedRequest, target: Target,
              **options: Any) -> requests.Response:
        attempt = 0
        while True:
            try:
                response = self._send_once(prepared, target, **options)
            except requests.RequestException as exc:
                delay = self.policy.after_exception(target.method, exc, attempt)
                if delay is None:
                    raise unavailable(exc, target) from None
            else:
                delay = self.policy.after_response(
                    target.method, response.status_code, response.headers, attempt
                )
                if delay is None:
                    return response
                response.close()
            time.sleep(delay)
            attempt += 1

    def _send_once(self, prepared: requests.PreparedRequest, target: Target,
                   **options: Any) -> requests.Response:
        session = get_session()
        settings = {**environment_settings(prepared.url),
                    "allow_redirects": target.method == "GET", **options}
        started = time.perf_counter()
        response = error = None
        try:
            response = session.send(prepared, timeout=self.timeout, **settings)
            return response
        except requests.RequestException as exc:
            error = type(exc).__name__
            raise
        finally:
            self._account(target, response, error, (time.perf_counter() - started) * 1000)

    def _account(self, target: Target, response, error: str | None, ms: float) -> None:
        status = response.status_code if response is not None else None
        upstream_id = response.headers.get("X-Request-Id") if response is not None else None
        self.stats.record(Call(target.method, target.path, status, ms, upstream_id, error))
        log.debug(
            "upstream %s %s -> %s in %.1f ms (request id %s, upstream id %s)",
            target.method, target.loggable, status or error, ms, self.stats.request_id,
            upstream_id,
        )




RETRY_STATUSES = frozenset({429, 502, 503, 504})


def never_sent(exc: BaseException) -> bool:
    """True when the request failed before any byte could reach the server."""
    if isinstance(exc, requests.ConnectTimeout):
        return True
    if isinstance(exc, requests.ConnectionError) and not isinstance(exc, SSLError):
        # requests wraps urllib3's MaxRetryError; its reason tells a refused connect apart.
        reason = getattr(exc.args[0], "reason", None) if exc.args else None
        return isinstance(reason, NewConnectionError)
    return False


def transient(exc: BaseException) -> bool:
    """True for failures a GET may simply try again."""
    if isinstance(exc, SSLError):
        return False
    return isinstance(
        exc, requests.ConnectionError | requests.Timeout | requests.exceptions.ChunkedEncodingError
    )


@dataclass(frozen=True)
class RetryPolicy:
    """Retry budget: ``retries`` extra attempts, exponential backoff with jitter."""

    retries: int = 3
    backoff: float = 0.3
    max_retry_after: float = 5.0

    def backoff_delay(self, attempt: int) -> float:
        """Delay before retry number ``attempt + 1``: half to full of backoff * 2**attempt."""
        base = min(self.backoff * (2**attempt), self.max_retry_after)
        return random.uniform(base / 2, base)

    def after_exception(self, method: str, exc: BaseException, attempt: int) -> float | None:
        """Seconds to wait before trying again after ``exc``, or None to give up."""
        if attempt >= self.retries:
            return None
        # A read that timed out is not asked again: a slow upstream only grows slower, and
        # each try would add a whole read timeout to the page's wait.
        if never_sent(exc) or (method in READS and transient(exc)
                               and not isinstance(exc, requests.ReadTimeout)):
            return self.backoff_delay(attempt)
        return None

    def after_response(
        self, method: str, status: int, headers: Mapping[str, str], attempt: int
    ) -> float | None:
        """Seconds to wait before trying again after a response, or None to keep it."""
        if attempt >= self.retries or method not in READS or status not in RETRY_STATUSES:
            return None
        asked = retry_after_seconds(headers)
        if asked is None:
            return self.backoff_delay(attempt)
        # Waiting less than asked only earns another refusal: past the cap, give up now.
        return asked if asked <= self.max_retry_after else None




POOL_CONNECTIONS = 4
POOL_MAXSIZE = 4

_local = threading.local()


def get_session() -> requests.Session:
    """The calling thread's session, created on first use."""
    session = getattr(_local, "session", None)
    if session is None:
        session = _local.session = _new_session()
    return session


def _new_session() -> requests.Session:
    session = requests.Session()
    # The session is shared by clients of different users: never carry cookies between them.
    session.cookies.set_policy(DefaultCookiePolicy(allowed_domains=[]))
    # Retries are ours (per method); urllib3 must not resend anything on its own.
    adapter = HTTPAdapter(
        pool_connections=POOL_CONNECTIONS, pool_maxsize=POOL_MAXSIZE, max_retries=0
    )
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


@functools.lru_cache(maxsize=64)
def _origin_settings(origin: str) -> dict:
    return get_session().merge_environment_settings(origin, {}, None, None, None)


def environment_settings(url: str) -> dict:
    """Proxies and CA bundle for a URL from the environment, read once per origin (requests
    walks every environment variable twice per call otherwise; they do not change while the
    process runs). Proxy choice depends only on scheme, host and port."""
    parts = urlsplit(url)
    settings = _origin_settings(f"{parts.scheme}://{parts.netloc}/")
    return {**settings, "proxies": dict(settings["proxies"])}


class TokenAuth(AuthBase):
    """Sets ``Authorization: Token <token>`` (or ``Bearer``); its repr never shows the token."""

    def __init__(self, token: str, scheme: str = "Token") -> None:
        self._token = token
        self._scheme = scheme

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        request.headers["Authorization"] = f"{self._scheme} {self._token}"
        return request

    def __repr__(self) -> str:
        return "TokenAuth(***)"




_SECRET_PARAM = re.compile(
    r"token|secret|password|passwd|signature|^sig$|key|auth|credential", re.I
)


def join(base_url: str, path: str) -> str:
    """Absolute URL for ``path`` under ``base_url``; absolute links are re-rooted there."""
    base = base_url.rstrip("/")
    parts = urlsplit(path)
    if parts.scheme or parts.netloc:
        # A link from the upstream (``next``) goes back to the configured origin only:
        # the token never travels to a host or scheme the upstream names.
        path = _relative_to(base, parts.path) + (f"?{parts.query}" if parts.query else "")
    return f"{base}/{path.lstrip('/')}"


def _relative_to(base: str, path: str) -> str:
    prefix = urlsplit(base).path.rstrip("/")
    if prefix and (path == prefix or path.startswith(prefix + "/")):
        return path[len(prefix):]
    return path


def clean_params(params: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Params as the API reads them: booleans as true/false, dates ISO 8601, None dropped."""
    if not params:
        return None
    return {key: _value(value) for key, value in params.items() if value is not None}


def _value(value: Any) -> Any:
    if isinstance(value, list | tuple | set):
        return [_value(item) for item in value]
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def loggable(url_or_path: str, params: Mapping[str, Any] | None = None) -> str:
    """Path and query for logs, with values of secret-looking parameters masked."""
    parts = urlsplit(url_or_path)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    for key, value in (params or {}).items():
        values = value if isinstance(value, list | tuple) else [value]
        pairs.extend((key, str(v)) for v in values if v is not None)
    masked = [(k, "***" if _SECRET_PARAM.search(k) else v) for k, v in pairs]
    return parts.path + (f"?{urlencode(masked)}" if masked else "")


def path_only(url_or_path: str) -> str:
    """The path of a URL or of a path with a query string."""
    return urlsplit(url_or_path).path
