"""Docstrings and comments of app/ and sandbox/ point only at files and modules that exist here."""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for root in ("app", "sandbox") for p in (REPO / root).rglob("*.py")
                 if "migrations" not in p.parts)
TOP = r"(?:app|sandbox|templates|static|tests|docs|bench|tools|translations)"
SLASH_PATH = re.compile(rf"(?<![\w/.<-]){TOP}/[\w./*-]*\w")
FILE_NAME = re.compile(r"(?<![\w/.-])[\w-]+\.(?:md|json|toml|cfg|ini)\b")
DOTTED = re.compile(r"(?<![\w./])(?:app|sandbox)(?:\.\w+)+")
OUTSIDE_DOCUMENTS = re.compile(r"(?:upstream-notes|upstream-api-spec|live-api-shapes)(?!\.\w)")


def prose(path: Path) -> list[tuple[int, str]]:
    """The docstrings and comments of a module, each with its first line number."""
    source = path.read_text(encoding="utf-8")
    found = [(node.body[0].lineno, ast.get_docstring(node, clean=False))
             for node in ast.walk(ast.parse(source))
             if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
             and ast.get_docstring(node, clean=False)]
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    found += [(token.start[0], token.string) for token in tokens if token.type == tokenize.COMMENT]
    return found


def path_exists(text: str) -> bool:
    """A repository path exists; a glob must match something."""
    text = text.rstrip(".")
    if "*" in text:
        return any(REPO.glob(text))
    return (REPO / text).exists()


def module_exists(dotted: str) -> bool:
    """app.x.y names a package, a module, or a name defined at the top of the longest module."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        base = REPO.joinpath(*parts[:cut])
        module = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        if module.exists():
            rest = parts[cut:]
            return not rest or _defines(module, rest[0])
    return False


def _defines(module: Path, name: str) -> bool:
    """The module defines or imports `name` at its top level (or it is a submodule)."""
    if module.name == "__init__.py" and (module.parent / name).with_suffix(".py").exists():
        return True
    return name in top_level_names(module)


def top_level_names(module: Path) -> set[str]:
    """Names a module binds at its top level: defs, classes, assignments, imports."""
    names = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def broken_references(path: Path) -> list[str]:
    """Every reference in the module's prose that points at nothing in the repository."""
    broken = []
    for line, text in prose(path):
        broken += [f"{line}: {m}" for m in OUTSIDE_DOCUMENTS.findall(text)]
        broken += [f"{line}: {p}" for p in SLASH_PATH.findall(text) if not path_exists(p)]
        broken += [f"{line}: {n}" for n in FILE_NAME.findall(text) if not any(REPO.rglob(n))]
        broken += [f"{line}: {d}" for d in DOTTED.findall(text) if not module_exists(d)]
    return broken


def test_the_finder_sees_each_kind_of_reference(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""See app/nowhere.py and DESIGN.md, app.nowhere.x, notes.md."""\n'
                      "x = 1  # and app/numbers.py and app.numbers.parse_amount\n")
    assert [b.split(": ")[1] for b in broken_references(module)] == [
        "app/nowhere.py", "DESIGN.md", "notes.md", "app.nowhere.x"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(REPO)))
def test_prose_points_only_at_what_exists(path):
    assert broken_references(path) == []
