"""Documents and artifacts: the document inbox, artifact records and signed downloads."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The documents blueprint and its route table: (methods, rule, view) per operation."""
    # Views import other resources' models and rules, so they load when the app is built.
    from sandbox.documents import routes

    bp = blueprint("documents", __name__, (
        ("GET", "/2/documents/", routes.list_documents),
        ("GET POST", "/1/artifacts/<kind>/", routes.artifacts),
        ("GET", "/_files/<kind>/<int:record_id>", routes.download),
        ("GET", "/_files/<kind>/<int:record_id>/<path:_name>", routes.download),
    ))
    return bp
