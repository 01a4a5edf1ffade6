"""The optional invoice image of an income create: base64 in JSON, or a multipart file part.

JSON: {"invoice_image": {"filename": "szamla.pdf", "content": "<base64>"}, ...}.
Multipart: a part `data` holding the JSON payload and a file part `invoice_image`.
The content must really be PDF, JPEG, PNG or XML, whatever the filename says: the sandbox's one
sniffer, sandbox/core/filesniff.py, tells.
"""
from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from flask import request

from sandbox.catalog.rules import json_object
from sandbox.core.errors import validation_error
from sandbox.core.filesniff import sniff
from sandbox.incomes.model import IncomeArtifact

KIND_MSG = "The file is not a valid PDF, JPEG, PNG or XML document."


def read_payload() -> tuple[dict, tuple[str, bytes] | None]:
    """The JSON payload and the raw invoice image (filename, bytes), if one was sent."""
    if request.mimetype == "multipart/form-data":
        return _multipart()
    data = json_object()
    image = data.pop("invoice_image", None)
    return data, _decode(image) if image is not None else None


def _multipart() -> tuple[dict, tuple[str, bytes] | None]:
    try:
        data = json.loads(request.form.get("data") or "{}")
    except ValueError:
        raise validation_error({"data": ["Invalid JSON."]}) from None
    if not isinstance(data, dict):
        raise validation_error({"data": ["Invalid data. Expected a dictionary."]})
    upload = request.files.get("invoice_image")
    return data, (upload.filename or "invoice", upload.read()) if upload else None


def _decode(image: Any) -> tuple[str, bytes]:
    if not isinstance(image, dict) or not isinstance(image.get("content"), str):
        raise validation_error({"invoice_image": [
            "Expected an object with filename and base64 content."]})
    try:
        content = base64.b64decode(image["content"], validate=True)
    except (binascii.Error, ValueError):
        raise validation_error({"invoice_image": ["Invalid base64 content."]}) from None
    return str(image.get("filename") or "invoice"), content


def build_artifact(image: tuple[str, bytes], errors: dict) -> IncomeArtifact | None:
    """The artifact row, or an error when the content is not an accepted kind."""
    filename, content = image
    kind = sniff(content)
    if kind is None:
        errors["invoice_image"] = [KIND_MSG]
        return None
    return IncomeArtifact(filename=filename[:200], extension=kind, content=content)
