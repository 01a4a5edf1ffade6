"""The layout of app/ holds: no two modules import each other, every module can be the first
one imported (an import cycle through a package's __init__ breaks exactly that), every package
says which modules it has, and the sandbox and app/ meet only where DESIGN.md lets them."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from tools import same_bodies

REPO = Path(__file__).resolve().parent.parent
MODULES = {
    ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__"): path
    for path in sorted((REPO / "app").rglob("*.py")) if "migrations" not in path.parts}


def imported_by(name: str, path: Path) -> set[str]:
    """The app modules a module imports anywhere in it (function-local imports too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            submodules = {f"{base}.{alias.name}" for alias in node.names} & MODULES.keys()
            # `from pkg import sub` imports the module sub; any other name is pkg's own.
            found.update(submodules or {base})
    return {module for module in found if module in MODULES and module != name}


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


def test_no_two_modules_import_each_other():
    edges = {name: imported_by(name, path) for name, path in MODULES.items()}
    mutual = sorted({tuple(sorted((a, b))) for a, targets in edges.items() for b in targets
                     if a in edges.get(b, ())})
    assert mutual == []


def test_the_import_reader_sees_relative_and_local_imports(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from . import client\ndef f():\n    from app.numbers import parse_date\n")
    assert imported_by("app.upstream.m", module) == {"app.upstream.client", "app.numbers"}


FIRST_IMPORTS = """
import importlib, sys
for name in sys.argv[1:]:
    for loaded in [key for key in sys.modules if key == "app" or key.startswith("app.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except ImportError as exc:
        print(f"{name}: {exc}")
"""


def test_every_module_imports_first():
    run = subprocess.run([sys.executable, "-c", FIRST_IMPORTS, *MODULES], cwd=REPO,
                         capture_output=True, text=True, timeout=300, check=True)
    assert run.stdout.splitlines() == []


def listed_modules(docstring: str) -> set[str] | None:
    """The module names an area's docstring lists after "Modules:", None without such a list."""
    _, found, rest = docstring.partition("Modules:")
    if not found:
        return None
    listing = rest.split("\n\n")[0]
    while "(" in listing:  # innermost brackets first: what a module does may hold brackets too
        listing = re.sub(r"\([^()]*\)", "", listing)
    return {name.strip(" .\n") for name in listing.split(",")}


def test_every_areas_docstring_lists_exactly_its_modules():
    for init in sorted((REPO / "app").glob("*/**/__init__.py")):
        if "migrations" in init.parts:
            continue
        listed = listed_modules(ast.get_docstring(ast.parse(init.read_text("utf-8"))) or "")
        present = {path.stem for path in init.parent.glob("*.py")} - {"__init__"}
        present |= {path.parent.name for path in init.parent.glob("*/__init__.py")}
        assert (str(init.parent), listed) == (str(init.parent), present)


def test_the_module_list_reader_skips_what_is_in_brackets():
    text = ("Intro.\n\nModules: views (request -> response), flow (the walk (its cache)),\n"
            "forms.\n\nMore.")
    assert listed_modules(text) == {"views", "flow", "forms"}
    assert listed_modules("No list here.") is None


SANDBOX_APP_MODULES = """
import sys
from sandbox import create_app
create_app(seed="demo")
print("\\n".join(sorted(name for name in sys.modules if name == "app" or name.startswith("app."))))
"""
# The pure engine and what it stands on: numbers and words, no area, client, store or session.
ENGINE = {"app", "app.policies", "app.policies.engine", "app.policies.validate",
          "app.policies.labels", "app.numbers", "app.i18n", "app.nav"}


def test_the_sandbox_loads_only_the_policy_engine_of_app():
    run = subprocess.run([sys.executable, "-c", SANDBOX_APP_MODULES], cwd=REPO,
                         capture_output=True, text=True, timeout=300, check=True)
    loaded = set(run.stdout.split())
    assert "app.policies.engine" in loaded
    assert loaded <= ENGINE, sorted(loaded - ENGINE)


def test_app_never_imports_the_sandbox_outside_the_cli():
    importers = sorted(name for name, path in MODULES.items()
                       if any(module == "sandbox" or module.startswith("sandbox.")
                              for module in _imports_anything(path)))
    assert importers == ["app.cli"]


def _imports_anything(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add(node.module or "")
    return found


HTTP_LIBRARIES = ("requests", "authlib", "urllib3", "httpx")
# A path of the accounting API: its two versions and its OAuth2 server (not Bookdesk's own
# /oauth/callback route).
API_PATH = re.compile(r"^/(1|2)/|^/oauth/(authorize|token|revoke)")


def _http_and_paths(path: Path) -> list[str]:
    """The HTTP libraries a module imports and the API paths its string literals spell."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [node.value] if API_PATH.match(node.value) else []
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                node.module or ""]
            found += [name for name in names if name.split(".")[0] in HTTP_LIBRARIES]
    return found


def test_only_app_upstream_talks_http_or_spells_an_api_path():
    found = {name: _http_and_paths(path) for name, path in MODULES.items()
             if not name.startswith("app.upstream")}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_the_http_and_path_reader_sees_imports_and_literals(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('import requests\nfrom authlib.x import y\nURL = "/2/incomes/"\n'
                      'OWN = "/oauth/callback"\nTOKEN = "/oauth/token/"\n')
    assert _http_and_paths(module) == ["requests", "authlib.x", "/2/incomes/", "/oauth/token/"]


def test_the_same_body_finder_groups_copies_under_other_names(tmp_path):
    (tmp_path / "a.py").write_text('def tag_json(tag):\n    """A tag."""\n'
                                   '    return {"id": tag.id, "name": tag.name, "x": tag.x}\n')
    (tmp_path / "b.py").write_text('def type_json(row: object):\n'
                                   '    return {"id": row.id, "name": row.name, "x": row.x}\n\n'
                                   'def other(row):\n'
                                   '    return {"id": row.id, "name": row.name, "y": row.y}\n')
    [(_size, places)] = same_bodies.groups([str(tmp_path)])
    assert [place.split()[-1] for place in places] == ["tag_json", "type_json"]
