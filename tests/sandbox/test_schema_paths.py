"""Spec part 9: the schema is honest, every documented path and method is served and vice versa."""
from __future__ import annotations

import ast
import itertools
import re

import pytest
import requests

from sandbox import create_app
from tests.conftest import create_company

VARIABLE = re.compile(r"<(?:(\w+)(?:\((.*?)\))?:)?(\w+)>")
IGNORED_METHODS = {"HEAD", "OPTIONS"}


def _expand(rule: str) -> list[str]:
    """OpenAPI templates for a Flask rule; any(...) converters become one path per choice."""
    parts, choices = [], []
    last = 0
    for match in VARIABLE.finditer(rule):
        parts.append(rule[last:match.start()])
        converter, args, name = match.groups()
        if converter == "any":
            choices.append(ast.literal_eval(f"({args},)"))
        else:
            choices.append((f"{{{name}}}",))
        last = match.end()
    parts.append(rule[last:])
    return ["".join(itertools.chain.from_iterable(
        zip(parts, [*combo, ""], strict=True))) for combo in itertools.product(*choices)]


@pytest.fixture(scope="module")
def served() -> dict[str, set[str]]:
    """Path template -> methods, for every /1/ and /2/ rule of a freshly built sandbox."""
    found: dict[str, set[str]] = {}
    for rule in create_app().url_map.iter_rules():
        if rule.rule.startswith(("/1/", "/2/")):
            for path in _expand(rule.rule):
                found.setdefault(path, set()).update(rule.methods - IGNORED_METHODS)
    return found


@pytest.fixture(scope="module")
def documented(sandbox_url) -> dict:
    """The paths object of the served schema."""
    company = create_company(sandbox_url)
    resp = requests.get(f"{sandbox_url}/2/schema/", timeout=10,
                        headers={"Authorization": f"Token {company.tokens['admin']}"})
    return resp.json()["paths"]


def test_expand_turns_flask_rules_into_openapi_templates():
    assert _expand("/2/incomes/<int:income_id>/update/") == ["/2/incomes/{income_id}/update/"]
    assert _expand("/2/<any('a', 'b'):kind>/x/") == ["/2/a/x/", "/2/b/x/"]


def test_every_documented_path_is_served(served, documented):
    assert sorted(set(documented) - set(served)) == []


def test_every_served_path_is_documented(served, documented):
    assert sorted(set(served) - set(documented)) == []


def test_every_documented_method_is_served(served, documented):
    missing = [(method.upper(), path) for path, ops in documented.items() for method in ops
               if path in served and method.upper() not in served[path]]
    assert missing == []
