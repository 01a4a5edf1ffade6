"""The upstream HTTP client: headers, timeouts, retries, typed errors, pagination."""

from __future__ import annotations

import functools
import hashlib
import logging
import time
from collections.abc import Iterator, Mapping
from importlib import metadata
from typing import Any

import requests

from . import urls
from .accounting import Call, CallStats
from .errors import Unavailable
from .pagination import MalformedPage, Page, parse_page, resource_from_path
from .responses import Target, decode, read_file, unavailable
from .retry import RetryPolicy
from .session import TokenAuth, get_session

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
    """One company's view of the upstream API, authenticated with one token."""

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

    def __repr__(self) -> str:
        return f"UpstreamClient(base_url={self.base_url!r}, company_id={self.company_id!r})"

    @property
    def scope(self) -> tuple[str, str, str]:
        """Cache scope (base URL, company, token fingerprint): who sees cached data."""
        fingerprint = hashlib.sha256(self._token.encode()).hexdigest()[:16]
        return self.base_url, str(self.company_id), fingerprint

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
                f"malformed list body: {exc}", method="GET", path=urls.path_only(path)
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
                raise Unavailable("pagination loops back", path=urls.path_only(path))
            seen.add(page.next)
            yield page

    def iter_all(self, path: str, params=None, *, resource=None) -> Iterator[Any]:
        """Every record of a list, across all pages."""
        for page in self.iter_pages(path, params, resource=resource):
            yield from page.items

    def download(self, url: str) -> tuple[bytes, str]:
        """GET a signed file link, re-rooted at base_url: its bytes and content type."""
        full = urls.join(self.base_url, url)
        relative = full[len(self.base_url):]
        target = Target("GET", urls.path_only(relative), urls.loggable(relative))
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
        url = urls.join(self.base_url, path)
        params = urls.clean_params(params)
        target = Target(
            method, urls.path_only(url[len(self.base_url):]), urls.loggable(url, params)
        )
        request = requests.Request(
            method, url, params=params, json=json, data=data, files=files,
            headers=self._headers(), auth=TokenAuth(self._token),
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
        settings = session.merge_environment_settings(prepared.url, {}, None, None, None)
        settings.update({"allow_redirects": target.method == "GET", **options})
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
