"""Import and export: the configuration as a JSON file."""
from __future__ import annotations

import json
from datetime import date

from flask import Response
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired

from app.policy_editor.limits import MAX_DEPTH, TOO_DEEP, Refused, limit_problems, loads

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
    config = _parse(raw)
    if config is None:
        raise UnreadableFile(_("The file holds null, which means no policies. To remove the "
                               "policies, use “Delete all policy settings” instead."))
    broken = limit_problems(config)
    if broken:
        raise UnreadableFile(broken[0].text(_))
    return config


def _parse(raw: bytes):
    """The JSON in the file, finite numbers only; UnreadableFile says what is wrong."""
    try:
        return loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise UnreadableFile(_("The file is not UTF-8 text.")) from None
    except Refused as exc:
        raise UnreadableFile(exc.problem.text(_)) from None
    except RecursionError:
        raise UnreadableFile(_(TOO_DEEP) % {"max": MAX_DEPTH}) from None
    except json.JSONDecodeError as exc:
        raise UnreadableFile(_("The file is not valid JSON (line %(line)s, column %(column)s).",
                               line=exc.lineno, column=exc.colno)) from None


def file_name(storage) -> str:
    """The uploaded file's name, shortened for the history."""
    return (getattr(storage, "filename", "") or "policies.json").rsplit("/", 1)[-1][:80]


def export_response(config, company_id: int, what: str) -> Response:
    """The configuration as a downloadable, readable JSON file."""
    body = json.dumps(config, ensure_ascii=False, indent=2) + "\n"
    name = f"income-policies-{company_id}-{what}-{date.today().isoformat()}.json"
    return Response(body.encode("utf-8"), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
