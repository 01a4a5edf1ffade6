"""The house rule of 5-15 line functions, held for the views that had grown past it: the
dashboard page and the taxes create grid (their context and refusal mapping live apart)."""
from __future__ import annotations

import ast
import inspect

import pytest

from app.dashboard import views as dashboard_views
from app.taxes import views as tax_views

LIMIT = 15


@pytest.mark.parametrize("view", [dashboard_views.index, tax_views.new, tax_views._refusal,
                                  dashboard_views._context])
def test_view_body_is_at_most_fifteen_lines(view):
    node = ast.parse(inspect.getsource(view)).body[0]
    body = node.body[1:] if isinstance(node.body[0], ast.Expr) else node.body  # no docstring
    assert body[-1].end_lineno - body[0].lineno + 1 <= LIMIT, view.__name__
