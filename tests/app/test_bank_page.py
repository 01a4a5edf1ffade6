"""The bank page against the sandbox: balances and transactions equal what the API returns,
each filter keeps exactly the API's matching rows, the footer adds up the rows, viewers may read
it, upstream down is the friendly page, and one view costs the same few reads however many rows.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.numbers import format_amount
from tests.app.conftest import signed_in
from tests.app.test_faults_ui import assert_friendly_unavailable
from tests.conftest import in_flight_together
from tests.sandbox import expense_support
from tests.sandbox.bank_support import open_account, settle
from tests.sandbox.expense_support import assignment, make_expense

ecat = expense_support.ecat  # a fixture, found by name

ROW = re.compile(r'data-transaction-id="(\d+)" data-amount="([^"]*)" data-currency="([^"]*)" '
                 r'data-matched="(true|false)"')
BALANCE = re.compile(r'data-account-id="(\d+)">.*?data-balance="([^"]*)"', re.S)
TOTAL = re.compile(r'class="bank-row-total" data-currency="([^"]*)" data-count="(\d+)" '
                   r'data-sum="([^"]*)"')
PARTNERS = ("Alfa Kft.", "Béta Bt.", "Gamma Zrt.")
DAYS = ("2026-03-02", "2026-03-10", "2026-04-05", "2026-04-20", "2026-05-01")


@dataclass
class Bank:
    """The test company's bank: its accounts and the transactions the API lists."""

    huf: dict
    eur: dict


def record_unmatched(api, account_id: int, on: str, amount: str, partner: str) -> dict:
    """A transaction naming no expense, through /_sandbox/bank/transactions/; asserts 201."""
    resp = requests.post(f"{api.base}/_sandbox/bank/transactions/", timeout=10, json={
        "account_id": account_id, "date": on, "amount": amount, "partner": partner,
        "invoice_number": ""})
    assert resp.status_code == 201, resp.text
    return resp.json()


@pytest.fixture
def bank(api, ecat) -> Bank:
    """Two accounts (HUF, EUR), paid and partly paid expenses of three partners, two fees."""
    huf = open_account(api, opening_balance="5000000")
    eur = open_account(api, "Deviza (EUR)", "11700024-00000098-00000000", currency="EUR",
                       opening_balance="9000", book_rate="395.5")
    for n, (partner, day) in enumerate(zip(PARTNERS * 2, DAYS, strict=False)):
        gross = Decimal(1270 * (n + 1))
        expense = make_expense(api, ecat, invoice_number=f"BK-{n}", partner_name=partner,
                               assignments=[assignment(ecat, f"{gross - 270 * (n + 1)}.00",
                                                       f"{270 * (n + 1)}.00", f"{gross}.00")],
                               issued_at="2026-02-01", due_at=day)
        settle(api, expense["id"], 2 if n % 2 == 0 else 3, date=day)
    euro = next(c["id"] for c in api.get("/2/currencies/").json() if c["code"] == "EUR")
    eur_expense = make_expense(api, ecat, invoice_number="EU-1", partner_name="Delta GmbH",
                               currency=euro, exchange_rate="395.5", issued_at="2026-02-01")
    settle(api, eur_expense["id"], 2, date="2026-04-10")
    record_unmatched(api, huf["id"], "2026-03-31", "1500.00", "OTP Bank Nyrt.")
    record_unmatched(api, eur["id"], "2026-04-30", "12.50", "Delta GmbH")
    return Bank(huf, eur)


def api_rows(api, **params) -> list[dict]:
    """Every transaction /1/payments lists for the day params, flattened."""
    days = api.get("/1/payments/", params=params).json()
    return [{**t, "date": day["date"], "account": day["account"]}
            for day in days for t in day["transactions"]]


def page_rows(client, company, **query) -> list[tuple[int, Decimal, str, bool]]:
    """(id, amount, currency, matched) of each row the bank page shows for the query."""
    response = client.get(f"/c/{company.id}/bank/", query_string=query)
    assert response.status_code == 200, response.status_code
    return [(int(i), Decimal(a), c, m == "true")
            for i, a, c, m in ROW.findall(response.get_data(as_text=True))]


def as_page(rows: list[dict]) -> list[tuple[int, Decimal, str, bool]]:
    """API transactions as the page's row tuples, in the API's order."""
    return [(t["id"], Decimal(t["amount"]), t["currency"], t["expense_id"] is not None)
            for t in rows]


def test_the_page_shows_every_balance_the_api_reports(signed, company, api, bank):
    body = signed.get(f"/c/{company.id}/bank/").get_data(as_text=True)
    pulse = api.get("/1/pulse/").json()
    shown = {int(i): Decimal(v) for i, v in BALANCE.findall(body)}
    assert shown == {a["id"]: Decimal(a["current_balance"]) for a in pulse["accounts"]}
    accounts = api.get("/1/accounts/").json()["results"]
    assert {a["id"] for a in accounts} == set(shown)
    assert f'data-summary="{pulse["summary"]}"' in body
    assert "11700024-00000098-00000000" in body and "Deviza (EUR)" in body


def test_the_page_shows_every_transaction_the_api_lists_in_its_order(signed, company, api,
                                                                      bank):
    rows = api_rows(api)
    assert len(rows) == 8
    assert page_rows(signed, company) == as_page(rows)


def test_matched_rows_link_their_expense_and_unmatched_ones_say_so(signed, company, api, bank):
    body = signed.get(f"/c/{company.id}/bank/").get_data(as_text=True)
    matched = [row for row in api_rows(api) if row["expense_id"] is not None]
    assert len(matched) == 6
    for row in matched:
        assert f'href="/c/{company.id}/expenses/{row["expense_id"]}"' in body
    assert body.count('<span class="badge badge--warn">Unmatched</span>') == 2
    assert "2 unmatched" in body


@pytest.mark.parametrize(("query", "keep"), [
    ({"from_date": "2026-04-01"}, lambda t: t["date"] >= "2026-04-01"),
    ({"to_date": "2026-03-31"}, lambda t: t["date"] <= "2026-03-31"),
    ({"amount_min": "2000", "amount_max": "4000"},
     lambda t: Decimal(2000) <= Decimal(t["amount"]) <= Decimal(4000)),
    ({"partner": "béta"}, lambda t: "béta" in t["partner"].casefold()),
    ({"match": "unmatched"}, lambda t: t["expense_id"] is None),
    ({"match": "matched"}, lambda t: t["expense_id"] is not None),
], ids=["from", "to", "amount", "partner", "unmatched", "matched"])
def test_each_filter_keeps_exactly_the_api_rows_that_match(signed, company, api, bank, query,
                                                           keep):
    expected = as_page([t for t in api_rows(api) if keep(t)])
    assert expected, "the fixture should leave rows for this filter"
    assert page_rows(signed, company, **query) == expected


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.sampled_from(["", *DAYS]), end=st.sampled_from(["", *DAYS]),
       low=st.sampled_from(["", "10", "1500", "3000"]),
       high=st.sampled_from(["", "20", "2540", "7000"]),
       partner=st.sampled_from(["", "a", "kft", "Gamma", "otp"]),
       match=st.sampled_from(["", "matched", "unmatched"]))
def test_any_filter_keeps_what_the_api_dates_and_the_rules_keep(
        signed, company, api, bank, start, end, low, high, partner, match):
    query = {"from_date": start, "to_date": end, "amount_min": low, "amount_max": high,
             "partner": partner, "match": match}
    days = {key: query[key] for key in ("from_date", "to_date") if query[key]}
    expected = [t for t in api_rows(api, **days)
                if (not low or Decimal(t["amount"]) >= Decimal(low))
                and (not high or Decimal(t["amount"]) <= Decimal(high))
                and partner.casefold() in t["partner"].casefold()
                and (match != "matched" or t["expense_id"] is not None)
                and (match != "unmatched" or t["expense_id"] is None)]
    assert page_rows(signed, company, **query) == as_page(expected)


def test_the_footer_counts_and_sums_the_rows_per_currency(signed, company, api, bank):
    body = signed.get(f"/c/{company.id}/bank/?from_date=2026-04-01").get_data(as_text=True)
    rows = api_rows(api, from_date="2026-04-01")
    totals = {c: (int(n), Decimal(s)) for c, n, s in TOTAL.findall(body)}
    expected: dict[str, tuple[int, Decimal]] = {}
    for t in rows:
        count, total = expected.get(t["currency"], (0, Decimal(0)))
        expected[t["currency"]] = (count + 1, total + Decimal(t["amount"]))
    assert totals == expected and set(totals) == {"HUF", "EUR"}


@pytest.mark.parametrize("language", ["hu", "en"])
def test_balances_are_written_in_the_page_language(signed, company, api, bank, language):
    body = signed.get(f"/c/{company.id}/bank/", headers={"Accept-Language": language}
                      ).get_data(as_text=True)
    for account in api.get("/1/pulse/").json()["accounts"]:
        shown = format_amount(account["current_balance"], account["currency"], language)
        assert shown in body, shown
    assert ("Bankszámlaszám" if language == "hu" else "Bank account number") in body


def test_a_filter_by_htmx_swaps_only_the_table(signed, company, bank):
    response = signed.get(f"/c/{company.id}/bank/?match=unmatched",
                          headers={"HX-Request": "true"})
    body = response.get_data(as_text=True)
    assert '<section id="bank-transactions"' in body and "<html" not in body
    assert len(ROW.findall(body)) == 2


def test_a_malformed_filter_is_named_and_no_rows_are_guessed(signed, company, bank):
    response = signed.get(f"/c/{company.id}/bank/?amount_min=abc&from_date=tegnap")
    body = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "list-problems" in body and not ROW.findall(body)


def test_a_viewer_can_open_the_bank_page(client, company, api, bank):
    signed_in(client, company, role="viewer")
    assert len(page_rows(client, company)) == len(api_rows(api))


def test_upstream_down_gives_the_friendly_page(signed, company, bank, faults, sandbox_url):
    faults.add(path="/1/*", kind="status", status=503)
    response = signed.get(f"/c/{company.id}/bank/")
    assert_friendly_unavailable(response, company, sandbox_url)


def test_one_view_costs_the_same_reads_however_many_transactions(signed, company, api, bank,
                                                                  sandbox_log, ecat):
    def reads() -> list[str]:
        sandbox_log.reset()
        assert signed.get(f"/c/{company.id}/bank/").status_code == 200
        return sorted(e["path"] for e in sandbox_log.entries(company_id=company.id))

    reads()  # the company settings are cached after the first view
    few = reads()
    for n in range(6):
        record_unmatched(api, bank.huf["id"], date(2026, 6, n + 1).isoformat(), "100.00",
                         f"Partner {n}")
    many = reads()
    assert few == many
    assert many == ["/1/accounts/", "/1/payments/", "/1/pulse/"], many


@pytest.mark.usefixtures("no_gc_pause")
def test_the_bank_reads_run_side_by_side(signed, company, bank, faults, sandbox_log):
    signed.get(f"/c/{company.id}/bank/")  # the company settings are cached after this view
    faults.add(path="/1/*", kind="latency", latency_ms=300)
    sandbox_log.reset()
    assert signed.get(f"/c/{company.id}/bank/").status_code == 200
    reads = sandbox_log.entries(company_id=company.id)
    assert sorted(e["path"] for e in reads) == ["/1/accounts/", "/1/payments/", "/1/pulse/"]
    # Each read is held 300 ms upstream: read one after another they could not all be in
    # flight at one moment.
    assert in_flight_together(reads), [(e["path"], e["at"], e["duration_ms"]) for e in reads]
