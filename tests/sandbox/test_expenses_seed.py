"""Demo expenses (issue 4 items 1 and 4): volume, variety, real artifact files, speed."""
import random
from datetime import UTC, datetime

import pytest
import requests
from sqlalchemy import event, func, select

from sandbox import create_app
from sandbox.core.server import start

DEMO = {"Authorization": "Token demo-admin"}


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory):
    """A demo-seeded sandbox of its own."""
    server, url = start(port=0, db_path=str(tmp_path_factory.mktemp("demo") / "demo.db"),
                        seed="demo")
    yield url
    server.shutdown()


@pytest.fixture(scope="module")
def demo_expenses(demo_url) -> list[dict]:
    """Every expense of demo company 1."""
    resp = requests.get(f"{demo_url}/2/expenses?page_size=1000", headers=DEMO, timeout=30)
    assert resp.status_code == 200
    return resp.json()["results"]["expenses"]


def test_demo_company_has_about_300_expenses_over_twelve_months(demo_expenses):
    assert 250 <= len(demo_expenses) <= 350
    months = {e["issued_at"][:7] for e in demo_expenses}
    assert len(months) >= 12


def test_about_half_of_the_demo_expenses_have_a_file(demo_expenses):
    with_file = [e for e in demo_expenses if e["has_artifact"]]
    assert 0.4 <= len(with_file) / len(demo_expenses) <= 0.6
    assert {e["artifact_extension"] for e in with_file} == {"pdf", "png"}


def test_demo_expenses_cover_every_state(demo_expenses):
    assert {e["accounting_status"] for e in demo_expenses} == {
        "unprocessed", "processed", "checked", "booked", "excluded"}
    assert {e["paid_status"] for e in demo_expenses} == {1, 2, 3}
    assert len({e["source"] for e in demo_expenses}) > 2


def test_demo_expenses_name_hungarian_vendors(demo_expenses):
    names = {e["partner_name"] for e in demo_expenses}
    assert {"MOL Nyrt.", "Magyar Telekom Nyrt."} <= names


def test_demo_artifact_files_are_real_pdf_and_png(demo_url, demo_expenses):
    ids = [e["id"] for e in demo_expenses if e["has_artifact"]][:6]
    records = requests.post(f"{demo_url}/1/artifacts/expense/", json={"ids": ids},
                            headers=DEMO, timeout=10).json()
    kinds = set()
    for record in records:
        data = requests.get(record["url"], timeout=10).content
        assert data.startswith((b"%PDF-1.4", b"\x89PNG\r\n\x1a\n"))
        assert data.rstrip().endswith((b"%%EOF", b"IEND\xaeB`\x82"))
        kinds.add(record["extension"])
    assert kinds == {"pdf", "png"}


def test_demo_expense_seed_reads_its_lookups_once_not_per_expense():
    """The seed's cost is its SQL statements: a fixed handful of SELECTs (each catalogue once
    per company; 10 when measured) however many expenses it makes, and besides them only
    INSERTs, one per row written, so a lookup or an update per expense fails here. A statement
    count, unlike a stopwatch, does not depend on how busy the machine is."""
    app = create_app(seed="demo")
    from sandbox.company.model import Company
    from sandbox.expenses.model import Expense
    from sandbox.expenses.seed import seed_demo

    session = app.extensions["sandbox_sessionmaker"]()
    statements = []
    event.listen(session.get_bind(), "before_cursor_execute",
                 lambda *args: statements.append(args[2]))
    with session.begin():
        before = session.scalar(select(func.count()).select_from(Expense))
        companies = {1: session.get(Company, 1), 2: session.get(Company, 2)}
        statements.clear()
        seed_demo(session, companies, random.Random(1))
        session.flush()
        seeded = list(statements)
        made = session.scalar(select(func.count()).select_from(Expense)) - before
    verbs = [statement.split(None, 1)[0].upper() for statement in seeded]
    assert made > 100
    assert verbs.count("SELECT") <= 12, [s for s in seeded if s.upper().startswith("SELECT")]
    assert set(verbs) <= {"SELECT", "INSERT"}, sorted(set(verbs))


def test_no_demo_expense_came_in_or_changed_after_now(demo_expenses):
    now = datetime.now(UTC)
    for expense in demo_expenses:
        created, updated = (datetime.fromisoformat(expense[key]) for key in ("created_at",
                                                                            "updated_at"))
        assert created <= updated <= now, expense["invoice_number"]
        assert expense["filing_date"] <= now.date().isoformat(), expense["invoice_number"]
