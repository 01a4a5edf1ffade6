"""Taxes and salaries: what differs between the two record kinds (spec 2.9, 4.5)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l

TEXT_FIELDS = ("code", "name", "account_number", "description")
TAG_FIELDS = ("tags", "simple_tags")


@dataclass(frozen=True)
class Kind:
    """One record kind: its pages' words, upstream paths and grid columns."""

    name: str
    title: Any
    new_title: Any
    fields: tuple[str, ...]
    is_salary: bool = False

    @property
    def monthly_key(self) -> str:
        """The listing's month list key: monthly_taxes / monthly_salaries."""
        return f"monthly_{self.name}"

    @property
    def listing(self) -> str:
        """GET path of the monthly listing."""
        return f"/2/monthly-{self.name}/"

    def write_path(self, action: str) -> str:
        """POST path of a bulk action: create, update or delete."""
        return f"/2/{self.name}/{action}/"

    @property
    def purpose(self) -> str:
        """The one-time form key purpose of the create grid."""
        return f"{self.name}.create"


TAXES = Kind("taxes", _l("Taxes"), _l("New taxes"),
             ("month", "amount", "paid_status", "code", "name", "account_number",
              "description", "tags", "simple_tags"))
SALARIES = Kind("salaries", _l("Salaries"), _l("New salaries"),
                ("month", "amount", "paid_status", "name", "account_number", "tax_number",
                 "due_at", "description", "tags", "simple_tags"), is_salary=True)
KINDS = {kind.name: kind for kind in (TAXES, SALARIES)}
