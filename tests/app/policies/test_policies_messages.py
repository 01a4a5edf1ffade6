"""Every engine message is a Babel-extractable msgid whose placeholders the engine fills.

The messages live in app/policies/labels.py beside the editor's labels: every upper-case constant
defined after N_ is a message (a text, or a dict of texts)."""

import ast
import re
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file

from app.policies import labels as M

LABELS_PY = Path(M.__file__)


def message_names():
    """Names of the upper-case constants labels.py defines after N_, in order."""
    body = ast.parse(LABELS_PY.read_text()).body
    start = next(i for i, node in enumerate(body)
                 if isinstance(node, ast.FunctionDef) and node.name == "N_")
    return [target.id for node in body[start:] if isinstance(node, ast.Assign)
            for target in node.targets if isinstance(target, ast.Name) and target.id.isupper()]


def all_messages():
    found = []
    for name in message_names():
        value = getattr(M, name)
        found.extend(value.values() if isinstance(value, dict) else [value])
    return found


def test_labels_hold_the_engine_messages():
    assert {"CONFIG_NOT_OBJECT", "POLICY_CHANGES", "NON_FINITE_VALUE"} <= set(message_names())
    assert all(isinstance(getattr(M, name), str | dict) for name in message_names())
    assert all(isinstance(message, str) for message in all_messages())


def test_n_returns_its_argument_unchanged():
    assert M.N_("Rule %(name)s added.") == "Rule %(name)s added."


def test_babel_extracts_every_message_with_its_default_keywords():
    assert "N_" in DEFAULT_KEYWORDS
    extracted = {message for _, message, _, _ in extract_from_file("python", LABELS_PY)}
    assert set(all_messages()) <= extracted


def test_messages_only_use_named_placeholders():
    for message in all_messages():
        assert re.findall(r"%(?!\(\w+\)s)", message) == [], message


def test_engine_code_marks_no_message_outside_labels_py():
    engine = LABELS_PY.parent
    for path in engine.rglob("*.py"):
        if path.name != "labels.py":
            assert 'N_("' not in path.read_text(), path.name


def test_every_message_constant_is_used_by_the_engine_or_its_editor():
    engine_code = "".join(
        path.read_text() for path in LABELS_PY.parent.rglob("*.py") if path.name != "labels.py"
    )
    unused = [name for name in message_names() if f"M.{name}" not in engine_code]
    assert unused == []
