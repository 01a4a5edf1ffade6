"""Docstrings and comments of app/, sandbox/, bench/ and tools/, comments of static/js/*.js and
static/css/*.css, and {# #} comments of templates/ point only at files and modules that exist
here; so do the paths and app.x.y names that README.md and docs/*.md write in their text and
`code`."""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

REPO = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for root in ("app", "sandbox", "bench", "tools")
                 for p in (REPO / root).rglob("*.py")
                 if "migrations" not in p.parts)
WEB_SOURCES = sorted([*(REPO / "static").glob("js/*.js"), *(REPO / "static").glob("css/*.css"),
                      *(REPO / "templates").rglob("*.html")])
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
TOP_FOLDERS = ("app", "sandbox", "templates", "static", "tests", "docs", "bench", "tools",
               "translations")
TOP = rf"(?:{'|'.join(TOP_FOLDERS)})"
SLASH_PATH = re.compile(rf"(?<![\w/.<-]){TOP}/[\w./*-]*\w")
FILE_NAME = re.compile(r"(?<![\w/.-])[\w-]+\.(?:md|json|toml|cfg|ini|js|css|html|py)\b")
# app.x.y, but not a file name such as app.js or app.css (FILE_NAME checks those).
DOTTED = re.compile(r"(?<![\w./])(?:app|sandbox)(?:\.\w+)+\b(?<!\.js)(?<!\.css)")
# `app/review/views.py:act`, `tests/app/test_x.py::test_y`: the name must be defined there.
FILE_AND_NAME = re.compile(rf"(?<![\w/.<-])({TOP}/[\w./-]*\.py)::?(\w+)")
OUTSIDE_DOCUMENTS = re.compile(r"(?:upstream-notes|upstream-api-spec|live-api-shapes)(?!\.\w)")
# Block comments of JS and CSS, line comments of JS (after a space, so "https://" is no comment),
# and Jinja comments.
WEB_COMMENT = {".js": re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.S | re.M),
               ".css": re.compile(r"/\*.*?\*/", re.S),
               ".html": re.compile(r"\{#.*?#\}", re.S)}


def prose(path: Path) -> list[tuple[int, str]]:
    """The docstrings and comments of a module, or a web file's comments; each with its line."""
    source = path.read_text(encoding="utf-8")
    if path.suffix in WEB_COMMENT:
        return [(source.count("\n", 0, m.start()) + 1, m.group())
                for m in WEB_COMMENT[path.suffix].finditer(source)]
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


def file_named(name: str) -> bool:
    """A file of this name is at the top of the repository or anywhere in its own folders."""
    return (REPO / name).exists() or any(
        any((REPO / top).rglob(name)) for top in TOP_FOLDERS)


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
        broken += [f"{line}: {n}" for n in FILE_NAME.findall(text) if not file_named(n)]
        broken += [f"{line}: {d}" for d in DOTTED.findall(text) if not module_exists(d)]
    return broken


def document_prose(text: str) -> list[tuple[int, str]]:
    """The text and inline code of a Markdown document (tables too), each with its first line."""
    found = []
    for block in MarkdownIt("commonmark").enable("table").parse(text):
        found += [(block.map[0] + 1, child.content) for child in block.children or ()
                  if child.type in ("text", "code_inline")]
    return found


def broken_document_references(text: str) -> list[str]:
    """Every repository path, file:name and app.x.y of a document that points at nothing."""
    broken = []
    for line, content in document_prose(text):
        broken += [f"{line}: {p}" for p in SLASH_PATH.findall(content) if not path_exists(p)]
        broken += [f"{line}: {d}" for d in DOTTED.findall(content) if not module_exists(d)]
        broken += [f"{line}: {f}:{n}" for f, n in FILE_AND_NAME.findall(content)
                   if path_exists(f) and n not in top_level_names(REPO / f)]
    return broken


def test_the_finder_sees_each_kind_of_reference(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""See app/nowhere.py and DESIGN.md, app.nowhere.x, notes.md."""\n'
                      "x = 1  # and app/numbers.py and app.numbers.parse_amount\n"
                      "y = 2  # views.py, _screen.html, gone_module.py\n")
    assert [b.split(": ")[1] for b in broken_references(module)] == [
        "app/nowhere.py", "DESIGN.md", "notes.md", "app.nowhere.x", "gone_module.py"]


def test_the_finder_reads_comments_of_scripts_styles_and_templates(tmp_path):
    script = tmp_path / "m.js"
    script.write_text('// see app/gone.py, app.js\nfetch("https://x/app/url.py"); /* app/old/ */\n')
    style = tmp_path / "m.css"
    style.write_text("/* templates/gone.html, gone.css */\na { color: red; }\n")
    template = tmp_path / "m.html"
    template.write_text("{# app/gone_too.py,\n   upstream-notes #}\n<p>app/shown.py</p>\n")
    assert broken_references(script) == ["1: app/gone.py", "2: app/old"]
    assert broken_references(style) == ["1: templates/gone.html", "1: gone.css"]
    assert broken_references(template) == ["1: upstream-notes", "1: app/gone_too.py"]


def test_the_document_finder_reads_text_and_code(tmp_path):
    text = ("See `app/gone.py`, `app/<area>/views.py` and app/numbers.py.\n\n"
            "| where |\n|---|\n| `app.gone.x` and `app.numbers.parse_amount` |\n\n"
            "`app/numbers.py:nothing_here`, `tests/test_docstring_paths.py::prose`\n")
    assert broken_document_references(text) == [
        "1: app/gone.py", "5: app.gone.x", "7: app/numbers.py:nothing_here"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(REPO)))
def test_prose_points_only_at_what_exists(path):
    assert broken_references(path) == []


@pytest.mark.parametrize("path", WEB_SOURCES, ids=lambda p: str(p.relative_to(REPO)))
def test_web_comments_point_only_at_what_exists(path):
    assert broken_references(path) == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_documents_name_only_what_exists(document):
    assert broken_document_references(document.read_text(encoding="utf-8")) == []
