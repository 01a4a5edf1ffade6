"""Fetching an artifact's signed, token-free link: kept for app/review until it calls
UpstreamClient.download itself."""
from __future__ import annotations


def download(api, url: str) -> bytes:
    """The bytes behind a signed link; typed upstream errors on failure."""
    return api.download(url)[0]
