"""GET /2/schema/: the OpenAPI 3.1 document of everything under /1/ and /2/ (spec part 9)."""
from __future__ import annotations

from flask import jsonify, request

from sandbox.schema.build import build_schema


def schema():
    """The schema; texts in Hungarian unless ?lang=en; authenticated like every /2/ path."""
    lang = "en" if request.args.get("lang", "").lower().startswith("en") else "hu"
    doc = {**build_schema(lang), "servers": [{"url": request.host_url.rstrip("/")}]}
    response = jsonify(doc)
    response.headers["Content-Language"] = lang
    return response
