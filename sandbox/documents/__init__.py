"""Documents and artifacts: the document inbox, artifact records and signed downloads."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The documents blueprint and its route table: (methods, rule, view) per operation."""
    # Views import other resources' models and rules, so they load when the app is built.
    from sandbox.documents import live, routes

    bp = blueprint("documents", __name__, (
        ("GET", "/2/documents/", routes.list_documents),
        ("GET", "/2/documents/<int:document_id>/", live.detail),
        ("POST", "/2/documents/create/", live.create),
        ("POST", "/2/documents/update/<int:document_id>/", live.update),
        ("POST", "/2/documents/delete/", live.delete_matching),
        ("POST", "/2/documents/search/", live.search),
        ("GET", "/2/document-types/", live.document_types),
        ("GET", "/1/documents/", live.list_v1),
        ("GET", "/1/documents/files/", live.files_v1),
        ("POST", "/1/documents/attach/", live.attach),
        ("POST", "/1/documents/detach/", live.detach),
        ("GET POST", "/1/artifacts/<kind>/", routes.artifacts),
        ("GET", "/_files/<kind>/<int:record_id>", routes.download),
        ("GET", "/_files/<kind>/<int:record_id>/<path:_name>", routes.download),
    ))
    return bp
