"""The editor page's model: one card per rule with its problems, plus the general problems."""
from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext as _

from app.policy_editor.problems import Located, locate, split_by_rule
from app.policy_editor.rules import SECTIONS, rule_list


@dataclass
class Card:
    """One rule of a list as the editor shows it."""

    section: str
    index: int
    rule: dict
    problems: list = field(default_factory=list)

    @property
    def errors(self) -> int:
        """How many blocking problems the rule has."""
        return sum(1 for problem in self.problems if problem.is_error)

    @property
    def enabled(self) -> bool:
        """Whether the rule takes part (a missing "enabled" means yes)."""
        return self.rule.get("enabled", True) is not False

    @property
    def anchor(self) -> str:
        """The element id of the card."""
        return f"rule-{self.section}-{self.index}"


def editor_model(state) -> dict:
    """Cards per section and the configuration-level problems of the shown configuration."""
    by_rule, general = split_by_rule(state.problems)
    cards = {section: [Card(section, index, rule, [locate(p) for p in by_rule.get((section, index),
                                                                                   [])])
                       for index, rule in enumerate(rule_list(state.config, section))]
             for section in SECTIONS}
    return {"cards": cards, "general": [_general(p) for p in general],
            "error_count": sum(1 for p in state.problems if p.level == "error")}


def flat_problems(cards: dict, errors: bool) -> list[tuple]:
    """(card, problem) pairs of every rule: the errors, or the notes that do not block saving."""
    return [(card, problem) for items in cards.values() for card in items
            for problem in card.problems if problem.is_error == errors]


def _general(problem) -> Located:
    where = "/".join(str(step) for step in problem.path)
    return Located("config", where or _("Policy settings"), problem.text(_), problem.level)
