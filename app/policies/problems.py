"""Problem: one finding of validate(), located by its path in the configuration."""

from dataclasses import dataclass, field

from . import messages as M

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """A validation finding; message is an English msgid with %(name)s placeholders."""

    path: tuple
    message: str
    params: dict = field(default_factory=dict)
    level: str = ERROR

    def text(self, gettext=None):
        """Return the message filled in, translated by gettext when one is given."""
        return (gettext or str)(self.message) % self.params


def error(path, message, **params):
    """Build an error-level Problem."""
    return Problem(tuple(path), message, params, ERROR)


def warning(path, message, **params):
    """Build a warning-level Problem."""
    return Problem(tuple(path), message, params, WARNING)


def has_errors(problems):
    """Tell whether any problem is an error (warnings do not block saving)."""
    return any(problem.level == ERROR for problem in problems)


def unknown_keys(mapping, known, path):
    """Warn about keys the engine does not use; they are kept, never rejected."""
    return [
        warning(tuple(path) + (key,), M.UNKNOWN_KEY, key=str(key))
        for key in mapping
        if key not in known
    ]


class InvalidConfig(ValueError):
    """Raised by evaluate() when the configuration has errors; .problems lists them."""

    def __init__(self, problems):
        super().__init__("; ".join(problem.text() for problem in problems))
        self.problems = problems
