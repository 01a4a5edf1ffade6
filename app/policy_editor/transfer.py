"""Import and export: the configuration as a JSON file."""
from __future__ import annotations

import json
from datetime import date

from flask import Response
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired

MAX_BYTES = 1_000_000


class ImportForm(FlaskForm):
    """Upload of a policy file."""

    file = FileField(_l("Policy file (JSON)"), validators=[FileRequired(_l("Choose a file."))],
                     description=_l("A file exported from Bookdesk, or written by hand in the "
                                    "same format."),
                     render_kw={"accept": ".json,application/json"})


class UnreadableFile(ValueError):
    """The upload is not a JSON policy configuration; the message says why."""


def read_upload(storage) -> dict:
    """The configuration in an uploaded file, or UnreadableFile."""
    raw = storage.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise UnreadableFile(_("The file is larger than 1 MB; a policy file is much smaller."))
    try:
        config = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise UnreadableFile(_("The file is not UTF-8 text.")) from None
    except ValueError as exc:
        raise UnreadableFile(_("The file is not valid JSON (line %(line)s, column %(column)s).",
                               line=exc.lineno, column=exc.colno)) from None
    if config is None:
        raise UnreadableFile(_("The file holds null, which means no policies. To remove the "
                               "policies, use “Delete all policy settings” instead."))
    return config


def file_name(storage) -> str:
    """The uploaded file's name, shortened for the history."""
    return (getattr(storage, "filename", "") or "policies.json").rsplit("/", 1)[-1][:80]


def export_response(config, company_id: int, what: str) -> Response:
    """The configuration as a downloadable, readable JSON file."""
    body = json.dumps(config, ensure_ascii=False, indent=2) + "\n"
    name = f"income-policies-{company_id}-{what}-{date.today().isoformat()}.json"
    return Response(body.encode("utf-8"), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
