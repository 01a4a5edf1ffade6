"""The VAT summary against the sandbox: every cell equals a Decimal sum the test makes itself
from every record the API lists (filtered by fulfilment day here, not by the API), for any
period; each cell's documents are the ones in it; the XLSX opens with numeric cells."""
from __future__ import annotations

import re
from collections import defaultdict
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.numbers import company_today
from app.totals import add_up, expense_amounts
from app.vat.service import summarise
from tests.app.incomes_helpers import catalogue
from tests.app.list_pages import csv_rows, xlsx_rows
from tests.app.totals_support import footer, in_huf
from tests.sandbox import expense_support
from tests.sandbox.expense_support import assignment, make_expense
from tests.sandbox.incomes_support import make_income

ecat = expense_support.ecat  # a fixture, found by name

CELL = re.compile(r'class="vat-cell" data-side="(\w+)" data-vat="(\w+)" data-net="([^"]*)" '
                  r'data-vat-amount="([^"]*)"')
TOTAL = re.compile(r'class="vat-total" data-side="(\w+)" data-vat="" data-net="([^"]*)" '
                   r'data-vat-amount="([^"]*)"')
BALANCE = re.compile(r'id="vat-balance" data-balance="([^"]*)"')
DOC = re.compile(r'data-document-id="(\d+)" data-net="([^"]*)" data-vat-amount="([^"]*)"')
# (day, net, VAT, rate index, currency, exchange rate)
INCOMES = (("2026-01-15", "1000.00", "270.00", 0, None, None),
           ("2026-03-02", "2000.00", "100.00", 1, None, None),
           ("2026-03-31", "100.00", "27.00", 0, "EUR", "401.25"),
           ("2026-04-01", "500.00", "135.00", 0, None, None),
           ("2026-07-20", "333.33", "90.00", 1, None, None))
EXPENSES = (("2026-03-10", "400.00", "108.00", 0), ("2026-03-20", "80.00", "4.00", 1),
            ("2026-05-05", "1200.00", "324.00", 0), ("2025-12-31", "10.00", "2.70", 0))


@pytest.fixture
def books(api, ecat):
    """Incomes and expenses across 2025-2026 in two VAT categories each, one in EUR, two
    split into two assignments (one of them in EUR), one expense excluded from accounting."""
    ids = catalogue(api)
    for n, (day, net, vat, rate, code, fx) in enumerate(INCOMES):
        gross = str(Decimal(net) + Decimal(vat))
        extra = {"currency": ids.currencies[code], "exchange_rate": fx} if code else {}
        make_income(api, invoice_number=f"VAT-{n}", fulfilled_at=day, issued_at=day,
                    due_at=day, net_amount=net, vat_amount=vat, gross_amount=gross,
                    assignments=[{"revenue_type": ids.revenue_types[0], "net_amount": net,
                                  "vat_amount": vat, "gross_amount": gross,
                                  "vat": ids.vats[rate]}], **extra)
    _split_income(api, ids, "VAT-split", "2026-03-15", (("100.00", "27.00"), ("200.00", "5.00")))
    # 27.01 EUR of VAT at 401.25: 10 837.76 Ft whole, 10 837.77 with each part rounded alone
    _split_income(api, ids, "VAT-EUR-split", "2026-02-10",
                  (("50.01", "13.51"), ("50.00", "13.50")), currency=ids.currencies["EUR"],
                  exchange_rate="401.25")
    for n, (day, net, vat, rate) in enumerate(EXPENSES):
        gross = str(Decimal(net) + Decimal(vat))
        row = {**assignment(ecat, net, vat, gross), "vat": ecat.vats[rate]}
        make_expense(api, ecat, invoice_number=f"EXP-{n}", fulfilled_at=day, issued_at=day,
                     assignments=[row])
    make_expense(api, ecat, invoice_number="EXP-out", fulfilled_at="2026-03-11",
                 issued_at="2026-03-11", excluded_from_accounting=True,
                 assignments=[assignment(ecat, "999.00", "99.00", "1098.00")])


def _split_income(api, ids, number: str, day: str, parts, **extra) -> None:
    """An income of two (net, VAT) assignments, in the first two VAT categories."""
    rows = [{"revenue_type": ids.revenue_types[0], "net_amount": net, "vat_amount": vat,
             "gross_amount": str(Decimal(net) + Decimal(vat)), "vat": ids.vats[n]}
            for n, (net, vat) in enumerate(parts)]
    totals = {name: str(sum(Decimal(row[name]) for row in rows))
              for name in ("net_amount", "vat_amount", "gross_amount")}
    make_income(api, invoice_number=number, fulfilled_at=day, issued_at=day, due_at=day,
                assignments=rows, **totals, **extra)


def every(api, path: str, key: str | None) -> list[dict]:
    """Every record of a list, every page followed (no date filter: the test filters)."""
    found, url, params = [], path, {"page_size": 1000}
    while url:
        body = api.get(url, params=params).json()
        results = body["results"]
        found += results[key] if isinstance(results, dict) else results
        url, params = body.get("next"), None
        if url:
            url = url[url.index("/", 8):]
    return found


def expected(api, start: date, end: date) -> dict:
    """(side, VAT id) -> [net, VAT] summed in Decimal from the API's records of the period."""
    sums: dict = defaultdict(lambda: [Decimal(0), Decimal(0)])
    sides = (("incomes", every(api, "/1/incomes", "incomes")),
             ("expenses", every(api, "/2/expenses", "expenses")))
    for side, records in sides:
        for record in records:
            day = date.fromisoformat(record["fulfilled_at"][:10])
            if not start <= day <= end or record.get("excluded_from_accounting"):
                continue
            rate = Decimal(record.get("exchange_rate") or 1)
            # Each part counts what it adds to its document's running sum in forints, so a
            # document's parts add up to the document converted whole.
            running, before = [Decimal(0), Decimal(0)], [Decimal(0), Decimal(0)]
            for row in record["assignments"]:
                vat = row["vat"]["id"] if isinstance(row["vat"], dict) else row["vat"]
                cell = sums[(side, str(vat))]
                for index, name in enumerate(("net_amount", "vat_amount")):
                    running[index] += Decimal(row[name])
                    now = in_huf(running[index], rate)
                    cell[index] += now - before[index]
                    before[index] = now
    return dict(sums)


def shown(html: str) -> dict:
    """(side, VAT id) -> [net, VAT] as the page's cells carry them."""
    return {(side, key): [Decimal(net), Decimal(vat)]
            for side, key, net, vat in CELL.findall(html)}


def page(client, company, period: str) -> str:
    response = client.get(f"/c/{company.id}/vat/?period={period}")
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return response.get_data(as_text=True)


def test_march_summary_equals_the_sums_of_the_api_records(signed, company, api, books):
    html = page(signed, company, "2026-03")
    want = expected(api, date(2026, 3, 1), date(2026, 3, 31))
    assert shown(html) == want
    assert len(want) == 4  # two categories on each side
    totals = {side: (Decimal(net), Decimal(vat)) for side, net, vat in TOTAL.findall(html)}
    out = sum(v[1] for (s, _k), v in want.items() if s == "incomes")
    into = sum(v[1] for (s, _k), v in want.items() if s == "expenses")
    assert totals["incomes"][1] == out and totals["expenses"][1] == into
    assert Decimal(BALANCE.search(html).group(1)) == out - into
    # the EUR income counts at its exchange rate (100.00 and 27.00 at 401.25), the split
    # income's first assignment in the same cell
    vat0 = str(catalogue(api).vats[0])
    assert shown(html)[("incomes", vat0)] == [Decimal("40225.00"), Decimal("10860.75")]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["month", "quarter", "year"]),
       day=st.dates(min_value=date(2025, 11, 1), max_value=date(2026, 8, 31)))
def test_every_period_equals_the_sums_of_the_api_records(signed, company, api, books, kind,
                                                         day):
    if kind == "month":
        key, start = day.isoformat()[:7], day.replace(day=1)
        end = date(day.year + day.month // 12, day.month % 12 + 1, 1).toordinal() - 1
    elif kind == "quarter":
        quarter = (day.month - 1) // 3
        key, start = f"{day.year}-Q{quarter + 1}", date(day.year, quarter * 3 + 1, 1)
        end = (date(day.year + 1, 1, 1) if quarter == 3 else
               date(day.year, quarter * 3 + 4, 1)).toordinal() - 1
    else:
        key, start, end = str(day.year), date(day.year, 1, 1), date(day.year, 12, 31).toordinal()
    assert shown(page(signed, company, key)) == expected(api, start, date.fromordinal(end))


def test_a_split_foreign_document_counts_in_the_summary_as_in_the_income_list(signed, company,
                                                                            api, books):
    summary = page(signed, company, "2026-02")
    totals = {side: (Decimal(net), Decimal(vat)) for side, net, vat in TOTAL.findall(summary)}
    listed = signed.get(f"/c/{company.id}/incomes/?date_field=fulfilled_at"
                        "&date_from=2026-02-01&date_to=2026-02-28")
    shown_footer = footer(listed.get_data(as_text=True))
    huf = shown_footer["huf"]
    assert shown_footer["count"] == 1  # the one income fulfilled in February
    # 27.01 EUR at 401.25 is 10 837.76 Ft; its parts one by one would make 10 837.77
    assert totals["incomes"] == (huf["net"], huf["vat"]) == (Decimal("40129.01"),
                                                              Decimal("10837.76"))
    # the gross in forints is net plus VAT, not 127.02 EUR converted alone (50 966.78)
    assert huf["gross"] == huf["net"] + huf["vat"] == Decimal("50966.77")


CENTS = st.integers(-10 ** 9, 10 ** 9).map(lambda cents: Decimal(cents).scaleb(-2))
PARTS = st.lists(st.tuples(st.sampled_from(("1", "2")), CENTS, CENTS), min_size=1, max_size=6)
RATE = st.decimals(min_value=Decimal("0.0001"), max_value=Decimal("1000"), places=4)


@settings(max_examples=300, deadline=None)
@given(documents=st.lists(st.tuples(PARTS, RATE), min_size=1, max_size=8))
def test_the_summary_and_the_list_footer_convert_documents_alike(documents):
    records = [{"id": n, "currency": 2, "exchange_rate": str(rate), "assignments": [
        {"vat": vat, "net_amount": str(net), "vat_amount": str(tax),
         "gross_amount": str(net + tax)} for vat, net, tax in parts]}
        for n, (parts, rate) in enumerate(documents)]
    cells = summarise("expenses", records).values()
    listed = add_up(records, {2: "EUR"}, expense_amounts)
    assert sum(cell.net for cell in cells) == listed.huf("net_amount")
    assert sum(cell.vat for cell in cells) == listed.huf("vat_amount")
    assert listed.huf("net_amount") + listed.huf("vat_amount") == listed.huf("gross_amount")


def test_a_cells_documents_are_exactly_the_ones_in_it(signed, company, api, books):
    vat = str(catalogue(api).vats[0])
    response = signed.get(f"/c/{company.id}/vat/?period=2026-Q1&cell=incomes:{vat}")
    html = response.get_data(as_text=True)
    docs = {int(i): (Decimal(n), Decimal(v)) for i, n, v in DOC.findall(html)}
    records = [r for r in every(api, "/1/incomes", "incomes")
               if "2026-01-01" <= r["fulfilled_at"][:10] <= "2026-03-31"
               and any(str(a["vat"]["id"] if isinstance(a["vat"], dict) else a["vat"]) == vat
                       for a in r["assignments"])]
    assert set(docs) == {r["id"] for r in records} and len(docs) == 4
    cell = shown(html)[("incomes", vat)]
    assert sum(n for n, _v in docs.values()) == cell[0]
    assert sum(v for _n, v in docs.values()) == cell[1]


def test_xlsx_export_opens_with_numeric_cells(signed, company, api, books):
    response = signed.get(f"/c/{company.id}/vat/export?period=2026-03&format=xlsx")
    assert response.status_code == 200
    lines = xlsx_rows(response.get_data())
    assert lines[0][:3] == ("Period", "Side", "VAT category")
    want = expected(api, date(2026, 3, 1), date(2026, 3, 31))
    cells = [line for line in lines[1:] if line[2] not in ("Total",) and line[3] is not None]
    assert len(cells) == len(want)
    for line in cells:
        assert isinstance(line[3], int | float) and isinstance(line[4], int | float)
    assert sorted(round(line[4], 2) for line in cells) == sorted(
        round(float(v[1]), 2) for v in want.values())
    assert isinstance(lines[-1][4], int | float)
    counts = [row[6] for row in xlsx_rows(response.get_data(), min_row=2, values_only=False)
              if row[6].value is not None]
    assert counts and all(cell.number_format == "#,##0" for cell in counts)  # no "3.00"


def test_csv_export_in_hungarian_has_the_balance(signed, company, api, books):
    signed.get("/lang/hu")
    response = signed.get(f"/c/{company.id}/vat/export?period=2026-03")
    text = response.get_data(as_text=True)
    assert response.status_code == 200 and text.startswith("\ufeff")
    want = expected(api, date(2026, 3, 1), date(2026, 3, 31))
    balance = (sum(v[1] for (s, _k), v in want.items() if s == "incomes")
               - sum(v[1] for (s, _k), v in want.items() if s == "expenses"))
    last = csv_rows(text, ";")[-1]
    assert Decimal(last[4].replace(",", ".")) == balance
    assert len(last[4].split(",")[1]) == 2, "two decimals, not the rate's eight"


def test_default_period_is_the_current_month(signed, company, api, books):
    html = page(signed, company, "")
    month = company_today().isoformat()[:7]
    assert f'href="/c/{company.id}/vat/export?period={month}"' in html
    assert shown(html) == shown(page(signed, company, month))


def test_unreadable_period_is_refused(signed, company):
    assert signed.get(f"/c/{company.id}/vat/?period=2026-13").status_code == 400


def _voided(api, number: str, day: str, net: str, vat: str, **state) -> dict:
    ids = catalogue(api)
    gross = str(Decimal(net) + Decimal(vat))
    return make_income(api, invoice_number=number, type=2, fulfilled_at=day, issued_at=day,
                       due_at=day, net_amount=net, vat_amount=vat, gross_amount=gross,
                       assignments=[{"revenue_type": ids.revenue_types[0], "net_amount": net,
                                     "vat_amount": vat, "gross_amount": gross,
                                     "vat": ids.vats[0]}], **state)


def test_a_document_cancelled_without_a_storno_carries_no_vat(signed, company, api):
    _voided(api, "VOID-1", "2026-05-10", "1000.00", "270.00", is_cancelled=True)
    reversed_ = _voided(api, "ORIG-1", "2026-05-11", "2000.00", "540.00", is_cancelled=True)
    _voided(api, "STORNO-1", "2026-06-02", "-2000.00", "-540.00", invoice_type=1,
            referred_invoice_number="ORIG-1")
    vat = str(catalogue(api).vats[0])
    may = page(signed, company, "2026-05")
    assert shown(may)[("incomes", vat)] == [Decimal("2000.00"), Decimal("540.00")]
    cell = signed.get(f"/c/{company.id}/vat/?period=2026-05&cell=incomes:{vat}")
    assert {int(i) for i, _n, _v in DOC.findall(cell.get_data(as_text=True))} == {reversed_["id"]}
    # the storno nets the reversed one out in its own period
    assert shown(page(signed, company, "2026-06"))[("incomes", vat)] == [Decimal("-2000.00"),
                                                                       Decimal("-540.00")]


def test_a_cancelled_storno_reverses_nothing_so_its_void_original_carries_no_vat(
        signed, company, api):
    _voided(api, "ORIG-2", "2026-05-12", "2000.00", "540.00", is_cancelled=True)
    _voided(api, "STORNO-2", "2026-05-13", "-2000.00", "-540.00", invoice_type=1,
            referred_invoice_number="ORIG-2", is_cancelled=True)
    assert ("incomes", str(catalogue(api).vats[0])) not in shown(page(signed, company, "2026-05"))
