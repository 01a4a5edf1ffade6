"""Every "today" a page means for the company comes from app.numbers.company_today (the
company's time zone), not the server's clock: each module's company_today is set to a far day
here, and the page's default period, month, dates, reads and file names follow it."""
from __future__ import annotations

import re
from datetime import date

import pytest

from app import exports
from app.incomes import flow as income_flow
from app.policies.editor import history as policy_history
from app.policies.editor import views as policy_views
from app.taxes import flow as tax_flow
from app.taxes import views as tax_views
from app.vat import views as vat_views
from tests.app.conftest import signed_in

FAR = date(2031, 7, 15)


@pytest.fixture
def far(client, company, monkeypatch):
    """The client signed in, with the company's today at FAR in every module that asks."""
    for module in (vat_views, tax_views, tax_flow, income_flow, policy_views, policy_history,
                   exports):
        # raising=False: a module still on the server clock fails the page check, not here
        monkeypatch.setattr(module, "company_today", lambda: FAR, raising=False)
    return signed_in(client, company)


def test_vat_summary_defaults_to_the_companys_current_period(far, client):
    html = client.get(f"{far}vat/").get_data(as_text=True)
    assert f'href="{far}vat/export?period=2031-07"' in html


def test_checklist_defaults_to_the_companys_current_month(far, client):
    html = client.get(f"{far}vat/month-end").get_data(as_text=True)
    assert "month=2031-06" in html and "month=2031-08" in html


def test_taxes_copy_last_month_and_blank_rows_use_the_companys_month(far, client):
    listing = client.get(f"{far}taxes/").get_data(as_text=True)
    assert "copy=2031-07" in listing
    grid = client.get(f"{far}taxes/new").get_data(as_text=True)
    months = re.findall(r'name="rows-\d+-month"[^>]*value="([^"]*)"', grid) or re.findall(
        r'value="([^"]*)"[^>]*name="rows-\d+-month"', grid)
    assert months and all("2031" in month for month in months), months


def test_a_new_income_is_dated_the_companys_today(far, client):
    html = client.get(f"{far}incomes/new").get_data(as_text=True)
    dates = re.findall(r'name="(issued_at|fulfilled_at)"[^>]*value="([^"]*)"', html) or [
        (name, value) for value, name in
        re.findall(r'value="([^"]*)"[^>]*name="(issued_at|fulfilled_at)"', html)]
    assert {name for name, _value in dates} == {"issued_at", "fulfilled_at"}
    assert all("2031" in value for _name, value in dates), dates


def test_policy_preview_reads_the_incomes_since_months_before_the_companys_today(
        far, client, company, sandbox_log):
    sandbox_log.reset()
    assert client.get(f"{far}policies/preview?months=3").status_code == 200
    reads = [e["args"] for e in sandbox_log.entries(company_id=company.id, method="GET")
             if e["path"].rstrip("/") == "/1/incomes"]
    assert reads and all(args.get("from_date") == ["2031-04-15"] for args in reads), reads


def test_export_file_names_carry_the_companys_today(far, client):
    incomes = client.get(f"{far}incomes/export")
    policies = client.get(f"{far}policies/export")
    assert "-2031-07-15.csv" in incomes.headers["Content-Disposition"]
    assert "-2031-07-15.json" in policies.headers["Content-Disposition"]
    incomes.close()
