"""List functions whose bodies are the same, whatever their names, docstrings and parameter names.

    python tools/same_bodies.py app sandbox

A copied helper of a few lines is too short for a six-line duplicate check; this finds it. Each
line printed is one group: the body's size in characters, then every place it stands.
"""
from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

SMALLEST = 40  # characters of body: below this a repeat is an idiom, not a helper


class _Renamed(ast.NodeTransformer):
    """Parameters renamed by position, annotations dropped: `f(tag)` and `g(row)` compare equal."""

    def __init__(self, parameters: list[str]) -> None:
        self.names = {name: f"p{index}" for index, name in enumerate(parameters)}

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self.names.get(node.id, node.id)
        return node


def body_key(function: ast.FunctionDef) -> str | None:
    """The body as text with parameters renamed and the docstring left out; None when tiny."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    renamer = _Renamed([argument.arg for argument in function.args.args])
    text = ast.unparse([renamer.visit(ast.parse(ast.unparse(node)).body[0]) for node in body])
    return text if len(text) >= SMALLEST else None


def groups(roots: list[str]) -> list[tuple[int, list[str]]]:
    """(body size, places) for every body that stands in more than one function."""
    found: dict[str, list[str]] = defaultdict(list)
    for root in roots:
        for path in sorted(Path(root).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                key = body_key(node) if isinstance(node, ast.FunctionDef) else None
                if key:
                    found[key].append(f"{path}:{node.lineno} {node.name}")
    return sorted(((len(key), places) for key, places in found.items() if len(places) > 1),
                  reverse=True)


def main(roots: list[str]) -> int:
    """Print each group; the count last."""
    found = groups(roots or ["app", "sandbox"])
    for size, places in found:
        print(size, "  ".join(places))
    print(f"{len(found)} bodies stand in more than one function")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
