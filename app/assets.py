"""Static files: content-hashed URLs cached for a year, with pre-compressed brotli and gzip twins.

At start-up `build` hashes every file under the static folder (`app/__init__.py` data_dir, so
the wheel layout works too) and writes a `.br` and a `.gz` copy of each text file into the
instance folder (`<instance>/static`, or `STATIC_BUILD_DIR`), named after its hash, together with
a JSON manifest (logical name -> hashed name). Nothing is generated in the source tree.

`url_for('static', filename='css/app.css')` then gives `/static/css/app.<hash>.css`, served with
`Cache-Control: public, max-age=31536000, immutable`; the plain name keeps working with a short
cache. Flask's own static route is kept (with the view below) rather than a WSGI middleware, so
static responses pass the app's after-request hooks like every other response: CSP, request id
and Server-Timing included (docs/CONVENTIONS.md, tests/app/test_header_sweep.py).
"""
from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
import os
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

import brotli
from flask import Flask, current_app, request, send_from_directory

IMMUTABLE_MAX_AGE = 365 * 24 * 3600
SHORT_MAX_AGE = 60
HASH_LENGTH = 12
EXTENSION_KEY = "bookdesk_assets"
# Content codings in the server's order of preference, with their file suffix.
ENCODINGS = {"br": ".br", "gzip": ".gz"}
COMPRESSIBLE = {".css", ".js", ".txt", ".svg", ".json", ".html", ".map"}


@dataclass
class Assets:
    """The manifest of one build: logical <-> hashed names and the compressed twins on disk."""

    source: Path
    build: Path
    hashed: dict[str, str] = field(default_factory=dict)
    logical: dict[str, str] = field(default_factory=dict)
    encoded: set[tuple[str, str]] = field(default_factory=set)

    def add(self, name: str, hashed: str) -> None:
        """Record one file under both its names."""
        self.hashed[name] = hashed
        self.logical[hashed] = name


def init_app(app: Flask) -> None:
    """Build the hashed manifest and compressed twins; hash static URLs; serve them."""
    build_dir = app.config.get("STATIC_BUILD_DIR") or Path(app.instance_path) / "static"
    assets = build(Path(app.static_folder), Path(build_dir))
    app.extensions[EXTENSION_KEY] = assets
    app.url_defaults(_hash_static_url)
    app.view_functions["static"] = serve


def build(source: Path, target: Path) -> Assets:
    """Hash every file under source; write its .br/.gz twins and the manifest under target."""
    assets = Assets(source, target)
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        name = path.relative_to(source).as_posix()
        data = path.read_bytes()
        assets.add(name, hashed_name(name, data))
        if path.suffix in COMPRESSIBLE:
            _write_twins(assets, name, data)
    _write_atomically(target / "manifest.json",
                      json.dumps(assets.hashed, indent=1, sort_keys=True).encode())
    return assets


def hashed_name(name: str, data: bytes) -> str:
    """`css/app.css` -> `css/app.<first 12 hex digits of its SHA-256>.css`."""
    path = PurePosixPath(name)
    digest = hashlib.sha256(data).hexdigest()[:HASH_LENGTH]
    return str(path.with_name(f"{path.stem}.{digest}{path.suffix}"))


def _write_twins(assets: Assets, name: str, data: bytes) -> None:
    hashed = assets.hashed[name]
    for encoding, suffix in ENCODINGS.items():
        packed = compress(data, encoding)
        if len(packed) >= len(data):
            continue  # not worth a second representation
        twin = assets.build / (hashed + suffix)
        if not twin.exists():
            _write_atomically(twin, packed)
        assets.encoded.add((name, encoding))


@lru_cache(maxsize=256)
def compress(data: bytes, encoding: str) -> bytes:
    """Best-ratio compression, done once per process (every app built here reuses it)."""
    if encoding == "br":
        return brotli.compress(data, quality=11)
    return gzip.compress(data, compresslevel=9, mtime=0)


def _write_atomically(path: Path, data: bytes) -> None:
    """Concurrent workers building the same folder never see a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    os.replace(temporary, path)


def _hash_static_url(endpoint: str, values: dict) -> None:
    if endpoint == "static" and "filename" in values:
        assets = current_app.extensions[EXTENSION_KEY]
        values["filename"] = assets.hashed.get(values["filename"], values["filename"])


def serve(filename: str):
    """The static view: a hashed name is immutable, a plain one short-lived; brotli or gzip
    twin when the client accepts it."""
    assets = current_app.extensions[EXTENSION_KEY]
    immutable = filename in assets.logical
    name = assets.logical.get(filename) or (filename if filename in assets.hashed else None)
    encoding = _encoding_for(assets, name)
    if encoding is None:
        response = send_from_directory(assets.source, name or filename, max_age=SHORT_MAX_AGE)
    else:
        response = send_from_directory(assets.build, assets.hashed[name] + ENCODINGS[encoding],
                                       mimetype=_mimetype(name), max_age=SHORT_MAX_AGE)
        response.headers["Content-Encoding"] = encoding
    if immutable:
        response.cache_control.max_age = IMMUTABLE_MAX_AGE
        response.cache_control.immutable = True
    if name is not None and any((name, e) in assets.encoded for e in ENCODINGS):
        response.vary.add("Accept-Encoding")
    return response


def _encoding_for(assets: Assets, name: str | None) -> str | None:
    """The preferred coding the client accepts and a twin exists for (None: send the file)."""
    if name is None:
        return None
    offered = [e for e in ENCODINGS if (name, e) in assets.encoded]
    return request.accept_encodings.best_match(offered) if offered else None


def _mimetype(name: str) -> str:
    return mimetypes.guess_type(name)[0] or "application/octet-stream"
