"""The company's income policies run on an imported income (the engine is app.policies).

Used by POST /_sandbox/import-income/ and by the demo seed, so everything here takes the session
explicitly instead of the request's db(). Names a policy gives for revenue types, tags or ledger
numbers that do not exist yet are created (is_external false: the engine made them, not an API
client) and reused on later imports.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.policies.engine import Outcome, apply_names, evaluate
from app.policies.labels import LEDGER_NUMBERS, REVENUE_TYPES, TAGS
from app.policies.validate import InvalidConfig, empty_config
from sandbox.catalog.model import Currency, RevenueType, Tag, VatCategory
from sandbox.company.model import Company
from sandbox.core.model import money_str
from sandbox.incomes.model import Income, IncomeAssignment
from sandbox.ledger.model import LedgerNumber
from sandbox.policies.model import IncomePolicyTrace

ASSIGNMENT_REFS = {"revenue_type": RevenueType, "ledger_number_id": LedgerNumber,
                   "vat": VatCategory, "vat_ledger_number_id": LedgerNumber,
                   "company_vat_category_id": VatCategory}


@dataclass
class PolicyRun:
    """What the policies did to one income: the engine's outcome plus what the sandbox did."""

    outcome: Outcome
    names: list[str]
    error: str | None = None
    created: dict[str, list[dict]] = field(default_factory=dict)
    trace: list[dict] = field(default_factory=list)

    def public(self) -> dict:
        """The policy part of the import answer."""
        outcome = self.outcome
        reason = outcome.review_reason.text() if outcome.review_reason else self.error
        return {"ignored": outcome.ignored, "ignored_by": outcome.ignored_by,
                "matched": [self.names[i] for i in outcome.matched],
                "applied": None if outcome.applied is None else self.names[outcome.applied],
                "skipped_multiple": outcome.skipped_multiple,
                "needs_review": outcome.needs_review or self.error is not None,
                "review_reason": reason, "set_by": dict(outcome.set_by),
                "created": self.created}


def evaluate_income(session: Session, company: Company, income: Income) -> PolicyRun:
    """Run the company's policies on income (not stored yet); a broken config applies none."""
    config = company.income_policies or empty_config()
    codes = {row.id: row.code for row in session.execute(select(Currency.id, Currency.code))}
    record = income_record(income)
    try:
        outcome = evaluate(config, record, codes)
    except InvalidConfig as exc:
        return PolicyRun(evaluate(empty_config(), record, codes), [], f"income_policies: {exc}")
    return PolicyRun(outcome, [rule.get("name", "") for rule in config.get("policies") or []])


def income_record(income: Income) -> dict:
    """The upstream-shaped income the engine reads."""
    return {"partner_name": income.partner_name, "partner_tax_number": income.partner_tax_number,
            "invoice_number": income.invoice_number, "note": income.note,
            "currency": income.currency_id, "vat_area": income.vat_area,
            "net_amount": money_str(income.net_amount),
            "vat_amount": money_str(income.vat_amount),
            "gross_amount": money_str(income.gross_amount), "type": income.type,
            "source": income.source,
            "assignments": [_assignment_record(row) for row in income.assignments]}


def _assignment_record(row: IncomeAssignment) -> dict:
    return {"revenue_type": row.revenue_type_id, "net_amount": money_str(row.net_amount),
            "vat_amount": money_str(row.vat_amount),
            "gross_amount": money_str(row.gross_amount), "vat": row.vat_id,
            "tags": [tag.id for tag in row.tags], "job_number": row.job_number,
            "ledger_number_id": row.ledger_number_id,
            "vat_ledger_number_id": row.vat_ledger_number_id,
            "company_vat_category_id": row.company_vat_category_id}


def store(session: Session, company: Company, income: Income, run: PolicyRun) -> Income:
    """Add income with the run's assignments (creating named records) and its policy trace."""
    resolver = Resolver(session, company)
    rows = apply_names(run.outcome, resolver)
    default_vat = _default_vat(session, company, income)
    income.assignments = [_assignment(session, company, row, position, default_vat)
                          for position, row in enumerate(rows)]
    income.needs_review = bool(income.needs_review or run.outcome.needs_review or run.error)
    session.add(income)
    session.flush()
    run.created = resolver.created
    run.trace = write_trace(session, income, run)
    return income


def _assignment(session: Session, company: Company, row: dict, position: int,
                default_vat: int | None) -> IncomeAssignment:
    refs = {key: _owned(session, model, row.get(key), company)
            for key, model in ASSIGNMENT_REFS.items()}
    tags = [tag for tag in (session.get(Tag, i) for i in row.get("tags") or [])
            if tag is not None and tag.company_id == company.id]
    net, gross = Decimal(row["net_amount"]), Decimal(row["gross_amount"])
    return IncomeAssignment(
        position=position, revenue_type_id=refs["revenue_type"], net_amount=net,
        vat_amount=Decimal(row.get("vat_amount") or gross - net), gross_amount=gross,
        vat_id=refs["vat"] or default_vat, job_number=row.get("job_number"),
        ledger_number_id=refs["ledger_number_id"],
        vat_ledger_number_id=refs["vat_ledger_number_id"],
        company_vat_category_id=refs["company_vat_category_id"], tags=tags)


def _owned(session: Session, model, value, company: Company) -> int | None:
    """An id of the company's own record, or None (a policy may name a deleted or foreign id)."""
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) >= 2**63:
        return None
    row = session.get(model, value)
    return value if row is not None and row.company_id == company.id else None


def _default_vat(session: Session, company: Company, income: Income) -> int | None:
    """The revenue VAT category of the invoice lines' one rate, if they share one."""
    rates = {float(item.vat_percent) for item in income.items}
    if len(rates) != 1:
        return None
    return session.scalar(select(VatCategory.id).where(
        VatCategory.company_id == company.id, VatCategory.type == "revenue",
        VatCategory.percent == rates.pop(), VatCategory.vat_area == income.vat_area)
        .order_by(VatCategory.id).limit(1))


def write_trace(session: Session, income: Income, run: PolicyRun) -> list[dict]:
    """Store which policy set which field; a skipped multiple match names every match."""
    pairs = list(run.outcome.set_by.items())
    if run.outcome.skipped_multiple:
        pairs += [("matched", run.names[i]) for i in run.outcome.matched]
    session.add_all([IncomePolicyTrace(income_id=income.id, field=key, policy_name=name)
                     for key, name in pairs])
    session.flush()
    return trace_of(session, income.id)


def trace_of(session: Session, income_id: int) -> list[dict]:
    """The stored trace of one income, oldest first."""
    rows = session.scalars(select(IncomePolicyTrace).where(
        IncomePolicyTrace.income_id == income_id).order_by(IncomePolicyTrace.id))
    return [{"field": row.field, "policy_name": row.policy_name} for row in rows]


MODELS = {REVENUE_TYPES: RevenueType, TAGS: Tag, LEDGER_NUMBERS: LedgerNumber}


class Resolver:
    """resolve(kind, name) -> id for the engine's apply_names: finds by name, else creates."""

    def __init__(self, session: Session, company: Company):
        self.session, self.company = session, company
        self.created: dict[str, list[dict]] = {}

    def __call__(self, kind: str, name: str) -> int:
        """The id of the company's record of kind called name (any case), created if missing."""
        model = MODELS[kind]
        row = self._find(model, name)
        if row is None:
            row = self._create(model, name.strip())
            self.created.setdefault(kind, []).append({"id": row.id, "name": row.name})
        return row.id

    def _find(self, model, name: str):
        wanted = name.strip().casefold()
        rows = self.session.scalars(select(model).where(
            model.company_id == self.company.id).order_by(model.id))
        for row in rows:
            # A ledger number may be named by its code ("911") as well as by its name.
            if row.name.strip().casefold() == wanted or getattr(row, "code", None) == wanted:
                return row
        return None

    def _create(self, model, name: str):
        extra = {} if model is LedgerNumber else {"is_external": False}
        row = model(company_id=self.company.id, name=name, **extra)
        self.session.add(row)
        self.session.flush()
        return row
