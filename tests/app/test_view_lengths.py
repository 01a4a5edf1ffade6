"""The house rule of short functions (5-15 lines), held with some room: no function of app/
has a body (docstring left out) of more than LIMIT lines. The migrations are generated."""
from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"
LIMIT = 25


def body_lengths(source: str) -> dict[str, int]:
    """Each function's body length in lines, without its docstring."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                body = body[1:] or body
            found[f"{node.name}:{node.lineno}"] = body[-1].end_lineno - body[0].lineno + 1
    return found


def test_the_reader_leaves_out_the_docstring():
    source = 'def f():\n    """Doc,\n    two lines."""\n    a = 1\n    return a\n'
    assert body_lengths(source) == {"f:1": 2}


def test_no_function_of_app_is_long():
    long = {f"{path.relative_to(APP)}:{name}": length
            for path in APP.rglob("*.py") if "migrations" not in path.parts
            for name, length in body_lengths(path.read_text(encoding="utf-8")).items()
            if length > LIMIT}
    assert long == {}
