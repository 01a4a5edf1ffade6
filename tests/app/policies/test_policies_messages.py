"""Every engine message is a Babel-extractable msgid whose placeholders the engine fills."""

import re
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file

from app.policies import messages as M

MESSAGES_PY = Path(M.__file__)


def all_messages():
    found = []
    for name, value in vars(M).items():
        if name.isupper() and isinstance(value, str):
            found.append(value)
        elif name.isupper() and isinstance(value, dict):
            found.extend(value.values())
    return found


def test_n_returns_its_argument_unchanged():
    assert M.N_("Rule %(name)s added.") == "Rule %(name)s added."


def test_babel_extracts_every_message_with_its_default_keywords():
    assert "N_" in DEFAULT_KEYWORDS
    extracted = {message for _, message, _, _ in extract_from_file("python", MESSAGES_PY)}
    assert set(all_messages()) <= extracted


def test_messages_only_use_named_placeholders():
    for message in all_messages():
        assert re.findall(r"%(?!\(\w+\)s)", message) == [], message


def test_engine_code_marks_no_message_outside_messages_py():
    engine = MESSAGES_PY.parent
    for path in engine.glob("*.py"):
        if path.name != "messages.py":
            assert 'N_("' not in path.read_text(), path.name


def test_every_message_constant_is_used_by_the_engine():
    engine_code = "".join(
        path.read_text() for path in MESSAGES_PY.parent.glob("*.py") if path.name != "messages.py"
    )
    unused = [
        name
        for name, value in vars(M).items()
        if name.isupper() and isinstance(value, str | dict) and f"M.{name}" not in engine_code
    ]
    assert unused == []
