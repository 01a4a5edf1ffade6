"""A review walk: the queue's income ids in order, kept in the server-side session.

The queue is read once when a walk starts (queue.scan); after that, stepping from one income to
the next needs no list call. Incomes marked done here, or found already reviewed by someone
else, drop out of the walk; skipped ones stay (the reviewer may come back to them).
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

from flask import session

SESSION_KEY = "review_walks"
WALK_TTL = 30 * 60.0


@dataclass
class Walk:
    """The ids of one queue (filter key) and what happened to them in this session."""

    key: str
    ids: list[int]
    capped: bool = False
    done: list[int] = field(default_factory=list)
    gone: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    at: float = field(default_factory=time.time)

    def open_ids(self) -> list[int]:
        """The ids still waiting for review, in queue order."""
        closed = set(self.done) | set(self.gone)
        return [i for i in self.ids if i not in closed]

    @property
    def left(self) -> int:
        """How many incomes are still waiting."""
        return len(self.open_ids())

    def following(self, income_id: int) -> list[int]:
        """Open ids after income_id, then (wrapping round) earlier ones not skipped."""
        ids = self.open_ids()
        start = ids.index(income_id) + 1 if income_id in ids else self._insert_at(income_id, ids)
        wrapped = [i for i in ids[:start] if i != income_id and i not in self.skipped]
        return ids[start:] + wrapped

    def before(self, income_id: int) -> int | None:
        """The open id before income_id, if any."""
        ids = self.open_ids()
        start = ids.index(income_id) if income_id in ids else self._insert_at(income_id, ids)
        return ids[start - 1] if start > 0 else None

    def _insert_at(self, income_id: int, open_ids: list[int]) -> int:
        """Where a closed id stood among the open ones (so next/previous still make sense)."""
        if income_id not in self.ids:
            return 0
        places = {i: n for n, i in enumerate(self.ids)}
        return sum(1 for i in open_ids if places[i] < places[income_id])

    def position(self, income_id: int) -> int | None:
        """1-based place of an open id among the open ones."""
        ids = self.open_ids()
        return ids.index(income_id) + 1 if income_id in ids else None

    def close(self, income_id: int, how: str = "done") -> None:
        """Take an income out of the walk: done by us, or gone (reviewed elsewhere)."""
        target = self.done if how == "done" else self.gone
        if income_id not in target:
            target.append(income_id)

    def reopen(self, income_id: int) -> None:
        """Put an income back (after an undo), at its old place or at the front."""
        self.done = [i for i in self.done if i != income_id]
        self.gone = [i for i in self.gone if i != income_id]
        if income_id not in self.ids:
            self.ids.insert(0, income_id)

    def skip(self, income_id: int) -> None:
        """Remember that the reviewer skipped it."""
        if income_id not in self.skipped:
            self.skipped.append(income_id)


def load(company_id: int, key: str | None = None) -> Walk | None:
    """This session's walk of the company, when fresh (and of the same queue, if key given)."""
    data = (session.get(SESSION_KEY) or {}).get(str(company_id))
    if not data:
        return None
    walk = Walk(**data)
    if time.time() - walk.at > WALK_TTL or (key is not None and walk.key != key):
        return None
    return walk


def start(company_id: int, key: str, ids: list[int], capped: bool = False) -> Walk:
    """A new walk over ids, stored in the session."""
    walk = Walk(key, list(ids), capped)
    save(company_id, walk)
    return walk


def save(company_id: int, walk: Walk) -> None:
    """Store the walk (one per company per session)."""
    walks = dict(session.get(SESSION_KEY) or {})
    walks[str(company_id)] = asdict(walk)
    session[SESSION_KEY] = walks
    session.modified = True
