"""The catalogues follow docs/glossary.md: no banned synonym in any Hungarian or English text."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parents[2]
GLOSSARY = REPO / "docs" / "glossary.md"
BANNED = re.compile(r"`(hu|en):([^`]+)`")
COLUMNS = ("concept", "hu", "en", "banned", "scope")


@dataclass(frozen=True)
class Rule:
    """One glossary row: its preferred words, banned phrases and optional English scope."""

    concept: str
    preferred: dict[str, str]
    banned: dict[str, tuple[str, ...]]
    scope: str


def glossary_rules(text: str) -> list[Rule]:
    """Read the rules from the glossary's table (rows after the header and its rule line)."""
    rows = [line for line in text.splitlines() if line.startswith("|")][2:]
    return [_rule(dict(zip(COLUMNS, (cell.strip() for cell in row.strip("|").split("|")),
                           strict=False))) for row in rows]


def _rule(cells: dict[str, str]) -> Rule:
    found = BANNED.findall(cells["banned"])
    banned = {lang: tuple(p.lower() for code, p in found if code == lang) for lang in ("hu", "en")}
    preferred = {lang: cells[lang].split(" (")[0].lower() for lang in ("hu", "en")}
    return Rule(cells["concept"], preferred, banned, cells["scope"].lower())


def violations(rules: list[Rule], messages: list[tuple[str, str, str]]) -> list[str]:
    """Each (msgid, Hungarian, English) text holding a banned phrase, as a readable line."""
    found = []
    for msgid, hungarian, english in messages:
        for rule in rules:
            in_scope = not rule.scope or rule.scope in english.lower()
            texts = {"hu": hungarian if in_scope else "", "en": english}
            for lang, text in texts.items():
                plain = text.lower().replace(rule.preferred[lang], " ")
                found += [f"{lang} {text!r} (msgid {msgid!r}) says {phrase!r}; "
                          f"docs/glossary.md wants {rule.preferred[lang]!r} for {rule.concept}"
                          for phrase in rule.banned[lang] if phrase in plain]
    return found


def catalogue_messages() -> list[tuple[str, str, str]]:
    """Every message as (msgid, Hungarian text, English text as shown on an English page)."""
    hu, en = (_catalogue(lang) for lang in ("hu", "en"))
    messages = []
    for message in hu:
        if not message.id:
            continue
        english = en.get(message.id)
        english_text = _forms(english.string) if english and _forms(english.string) else ""
        messages.append((str(message.id), _forms(message.string),
                         english_text or _forms(message.id)))
    return messages


def _catalogue(lang: str):
    with (REPO / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        return read_po(fh, locale=lang)


def _forms(value) -> str:
    return " / ".join(value) if isinstance(value, tuple | list) else (value or "")


@pytest.fixture(scope="module")
def rules() -> list[Rule]:
    return glossary_rules(GLOSSARY.read_text(encoding="utf-8"))


def test_the_glossary_names_the_terms_and_their_banned_synonyms(rules):
    preferred_hu = {rule.preferred["hu"] for rule in rules}
    assert {"bizonylattípus", "bankszámlaszám", "kontírozás", "bővített könyvelés",
            "érvénytelenítve", "cég #1"} <= preferred_hu
    banned_hu = {phrase for rule in rules for phrase in rule.banned["hu"]}
    assert {"bevétel típus", "kiterjesztett", "besorol", "kategoriz", ". cég"} <= banned_hu


@pytest.mark.parametrize("hungarian, english", [
    ("Kiterjesztett könyvelés", "Advanced accounting"),
    ("Bevétel típusa", "Document type"),
    ("Költségbesorolás", "Cost categorisation"),
    ("Számlaszám", "Bank account number"),
    ("Törölve", "Cancelled"),
    ("%(id)s. cég", "Company #%(id)s"),
    ("Bizonylattípus", "Income type"),
    ("Bankszámlaszám", "Account number"),
])
def test_a_banned_synonym_is_caught(rules, hungarian, english):
    assert violations(rules, [("x", hungarian, english)])


def test_preferred_words_and_out_of_scope_uses_pass(rules):
    messages = [("x", "Bankszámlaszám", "Bank account number"),
                ("x", "Számlaszám", "Invoice number"),
                ("x", "Törölve", "Deleted"),
                ("x", "Cég #%(id)s", "Company #%(id)s")]
    assert violations(rules, messages) == []


def test_no_catalogue_message_uses_a_banned_synonym(rules):
    problems = violations(rules, catalogue_messages())
    assert not problems, "Terms against docs/glossary.md:\n" + "\n".join(problems)
