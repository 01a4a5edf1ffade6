"""The practice page: one row per signed-in company, its figures equal to the API's records.

Each expected figure is worked out here from every record the API lists (all pages), not from
the query Bookdesk sends: review queue (needs review, not done), overdue amount (unpaid or
partly paid, not cancelled, no storno, due before today, gross), VAT due (the sandbox's
companies are monthly: the VAT of this month's incomes' assignment lines, a cancelled one only
when a storno names it, minus that of its expenses not excluded from accounting, by fulfilment
date, at the exchange rate; it equals the VAT page's balance) and expenses not processed.
"""
from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest

from app import create_app
from app.dashboard import service
from app.numbers import company_today
from app.upstream.incomes import COUNT_ROWS
from tests.app.conftest import csrf_token, signed_in
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import make_expense
from tests.app.expenses_helpers import row as expense_row
from tests.app.incomes_helpers import catalogue, make_income, set_state
from tests.app.totals_support import in_huf
from tests.conftest import Api, in_flight_together
from tests.support.oauth import consent, oauth_client, oauth_user

ROW = re.compile(r'<tr data-company="(\d+)">(.*?)</tr>', re.S)
CELL = re.compile(r'<td class="num" data-figure="(\w+)">(.*?)</td>', re.S)
TAG = re.compile(r"<[^>]+>")


def _day(offset: int) -> str:
    return (company_today() + timedelta(days=offset)).isoformat()


def seed(api: Api, late: int, review: int, open_expenses: int) -> None:
    """Overdue and not-yet-due incomes, review waiting and done, a paid late one, last month's
    incomes, processed and unprocessed expenses (this month and earlier)."""
    for n in range(late):
        make_income(api, invoice_number=f"LATE-{n}", due_at=_day(-3 - n),
                    net_amount="1000.00", vat_amount="270.00", gross_amount=f"{1270 + n}.00")
    make_income(api, invoice_number="PAID-LATE", due_at=_day(-5), payments=[{"amount": "1270.00"}])
    make_income(api, invoice_number="PART-LATE", due_at=_day(-6), payments=[{"amount": "500.00"}])
    make_income(api, invoice_number="VOID-LATE", due_at=_day(-6), is_cancelled=True)
    make_income(api, invoice_number="NOT-YET", due_at=_day(4))
    make_income(api, invoice_number="OLD", fulfilled_at=_day(-70), issued_at=_day(-70),
                due_at=_day(30))
    for n in range(review + 1):
        made = make_income(api, invoice_number=f"REV-{n}", due_at=_day(9))
        set_state(api, made["id"], needs_review=True, review_done=n == review)
    ids = expense_catalogue(api)
    for n in range(open_expenses):
        make_expense(api, ids, invoice_number=f"OPEN-{n}", fulfilled_at=_day(0))
    make_expense(api, ids, invoice_number="DONE", fulfilled_at=_day(0), processed=True)
    make_expense(api, ids, invoice_number="EARLIER", fulfilled_at=_day(-70))


def _all(api: Api, path: str, key: str) -> list[dict]:
    found, url = [], f"{path}?page_size=100"
    while url:
        body = api.get(url).json()
        results = body["results"]
        found += results[key] if isinstance(results, dict) else results
        url = body.get("next")
        url = url[len(api.base):] if url and url.startswith(api.base) else url
    return found


def expected(api: Api) -> dict[str, int]:
    """The four figures, worked out from every income and expense the API lists."""
    today = company_today().isoformat()
    month = today[:7]
    incomes = _all(api, "/1/incomes", "incomes")
    expenses = _all(api, "/2/expenses", "expenses")
    # A cancelled income carries no VAT unless a storno names it (the storno nets it out).
    reversed_ = {i.get("referred_invoice_number") for i in incomes if i.get("invoice_type") == 1}
    vat_out = sum(_lines_vat(i) for i in incomes if (i["fulfilled_at"] or "").startswith(month)
                  and (not i["is_cancelled"] or i["invoice_number"] in reversed_))
    vat_in = sum(_lines_vat(e) for e in expenses if (e["fulfilled_at"] or "").startswith(month)
                 and not e.get("excluded_from_accounting"))
    return {
        "review": sum(1 for i in incomes if i["needs_review"] and not i["review_done"]),
        "overdue": int(sum(Decimal(i["gross_amount"]) for i in incomes
                           if i["paid_status"] in (1, 3) and not i["is_cancelled"]
                           and i.get("invoice_type") != 1 and i["due_at"]
                           and i["due_at"] < today)),
        "vat_due": int(vat_out - vat_in),
        "unprocessed": sum(1 for e in expenses if e["accounting_status"] == "unprocessed"),
    }


def _lines_vat(record: dict) -> Decimal:
    """The VAT of the record's assignment lines in forints: their sum at its exchange rate,
    which its lines add up to in the VAT summary (docs/number-input.md)."""
    rate = Decimal(record.get("exchange_rate") or 1)
    return in_huf(sum((Decimal(a["vat_amount"]) for a in record["assignments"]), Decimal(0)),
                  rate)


def shown(html: str) -> dict[int, dict[str, str]]:
    """Each row's cells as text, by company id."""
    return {int(cid): {name: " ".join(TAG.sub(" ", cell).split())
                       for name, cell in CELL.findall(row)} for cid, row in ROW.findall(html)}


def number(text: str) -> int:
    """The whole number a cell shows (grouping and currency dropped, sign kept)."""
    value = int(re.sub(r"[^\d]", "", text.split(".")[0]))
    return -value if text.lstrip().startswith(("-", "−")) else value


@pytest.fixture
def signed_in_twice(client, company, make_company, sandbox_url):
    """One session signed in to two companies with their API tokens, each with its records."""
    other = make_company()
    seed(Api(sandbox_url, company), late=3, review=2, open_expenses=2)
    seed(Api(sandbox_url, other), late=1, review=4, open_expenses=5)
    for each in (company, other):
        signed_in(client, each)
    return company, other


def test_practice_rows_equal_the_figures_read_from_the_api(signed_in_twice, sandbox_url, client):
    page = client.get("/practice")
    rows = shown(page.get_data(as_text=True))
    assert page.status_code == 200 and set(rows) == {c.id for c in signed_in_twice}
    for company in signed_in_twice:
        want = expected(Api(sandbox_url, company))
        got = {name: number(text) for name, text in rows[company.id].items()}
        assert got == want, company.name
    assert expected(Api(sandbox_url, signed_in_twice[0]))["vat_due"] != 0, "VAT is exercised"


def test_each_row_links_into_its_company(signed_in_twice, client):
    html = client.get("/practice").get_data(as_text=True)
    for company in signed_in_twice:
        row = dict(ROW.findall(html))[str(company.id)]
        assert f'href="/c/{company.id}/"' in row
        assert f'href="/c/{company.id}/incomes/?' in row, "the overdue figure opens its list"
        assert f'href="/c/{company.id}/vat/month-end?show=unprocessed"' in row


def test_the_unprocessed_figure_equals_the_list_it_opens(signed_in_twice, client):
    html = client.get("/practice").get_data(as_text=True)
    for company in signed_in_twice:
        row = dict(ROW.findall(html))[str(company.id)]
        count = number(shown(html)[company.id]["unprocessed"])
        link = re.search(r'data-figure="unprocessed">.*?href="([^"]+)"', row, re.S)[1]
        listed = client.get(link.replace("&amp;", "&")).get_data(as_text=True)
        assert count == len(re.findall(r'data-expense-id="\d+"', listed)) > 0
        assert all(f"/c/{other.id}/" not in row for other in signed_in_twice if other != company)


def test_rows_are_read_side_by_side_each_with_its_company_client(
        signed_in_twice, client, monkeypatch, sandbox_log):
    seen = []
    original = service.run_parallel

    def spy(tasks):
        seen.append(sorted(tasks))
        return original(tasks)

    monkeypatch.setattr(service, "run_parallel", spy)
    assert client.get("/practice").status_code == 200
    assert len(seen) == 1, "every read of every row in one round"
    for company in signed_in_twice:
        names = {key.split(":", 1)[1] for key in seen[0] if key.split(":")[0] == str(company.id)}
        assert {name.split(":")[0] for name in names} == set(service.FIGURES)
        assert {"vat_due:incomes", "vat_due:expenses"} <= names, "the VAT reads are tasks too"
    for company in signed_in_twice:
        reads = sandbox_log.entries(company_id=company.id, method="GET")
        assert reads and all(r["headers"]["Service-Company-Id"] == str(company.id) for r in reads)


@pytest.mark.usefixtures("no_gc_pause")
def test_a_rows_figures_are_read_side_by_side(signed_in_twice, client, sandbox_log, faults):
    faults.add(path="/1/*", kind="latency", latency_ms=300)
    faults.add(path="/2/*", kind="latency", latency_ms=300)
    sandbox_log.reset()
    assert client.get("/practice").status_code == 200
    company = signed_in_twice[0]
    reads = sandbox_log.entries(company_id=company.id, method="GET")
    first = {}
    for entry in sorted(reads, key=lambda e: e["at"]):
        figure = _figure_of(entry)
        if figure and figure not in first:
            first[figure] = entry
    assert set(first) == {"review", "overdue", "vat_due", "unprocessed"}, first
    assert in_flight_together(list(first.values())), [
        (name, e["path"], e["at"], e["duration_ms"]) for name, e in first.items()]
    vat_lists = [e for e in reads if e["path"].rstrip("/") in ("/1/incomes", "/2/expenses")
                 and e["args"].get("date_field") == ["fulfilled_at"]]
    assert len(vat_lists) == 2 and in_flight_together(vat_lists), vat_lists


def _figure_of(entry: dict) -> str | None:
    """Which practice figure a logged read serves (its first read of its own)."""
    args, path = entry["args"], entry["path"].rstrip("/")
    if path == "/1/incomes":
        if args.get("page_size") == [str(COUNT_ROWS)]:
            return "review"
        return "vat_due" if args.get("date_field") == ["fulfilled_at"] else "overdue"
    if path in ("/2/company-info", "/2/currencies"):
        return "vat_due" if path == "/2/company-info" else "overdue"
    if path == "/2/expenses" and "is_processed" in args:
        return "unprocessed"
    return None


def test_practice_page_without_a_sign_in_goes_to_the_login_page(client):
    answer = client.get("/practice")
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/login")


def test_an_oauth_row_reads_what_a_bearer_token_may_and_says_what_needs_an_api_token(
        app_config, company, sandbox_url):
    registered = oauth_client(sandbox_url, "http://localhost/oauth/callback")
    app = create_app({**app_config, "OAUTH_CLIENT_ID": registered["client_id"],
                      "OAUTH_CLIENT_SECRET": registered["client_secret"]})
    seed(Api(sandbox_url, company), late=1, review=1, open_expenses=3)
    user = oauth_user(sandbox_url, [company.id])
    client = app.test_client()
    page = client.get("/login")
    start = client.post("/login/oauth", data={"csrf_token": csrf_token(page.get_data(True))})
    back = consent(start.headers["Location"], user["id"])
    client.get(back[back.index("/oauth/callback"):])

    row = shown(client.get("/practice").get_data(as_text=True))[company.id]
    assert number(row["unprocessed"]) == expected(Api(sandbox_url, company))["unprocessed"]
    assert all(row[name] == "API token needed" for name in ("review", "overdue", "vat_due"))


BALANCE = re.compile(r'id="vat-balance" data-balance="([^"]*)"')


def _vat_extras(api: Api) -> None:
    """This month: an income in EUR split into two assignment lines whose VAT differs from its
    header's, and an expense excluded from accounting with a large VAT."""
    ids, cost = catalogue(api), expense_catalogue(api)
    make_income(api, invoice_number="SPLIT-EUR", fulfilled_at=_day(0), issued_at=_day(0),
                due_at=_day(30), currency=ids.currencies["EUR"], exchange_rate="400.50",
                net_amount="300.00", vat_amount="99.00", gross_amount="399.00", assignments=[
                    {"revenue_type": ids.revenue_types[0], "net_amount": "100.00",
                     "vat_amount": "27.10", "gross_amount": "127.10", "vat": ids.vats[0]},
                    {"revenue_type": ids.revenue_types[0], "net_amount": "200.00",
                     "vat_amount": "10.00", "gross_amount": "210.00", "vat": ids.vats[1]}])
    make_expense(api, cost, invoice_number="EXCLUDED", fulfilled_at=_day(0),
                 excluded_from_accounting=True,
                 assignments=[expense_row(cost, "9000.00", "2430.00", "11430.00")])


def money_value(text: str) -> Decimal:
    """The amount a money cell shows (grouping and currency dropped, sign kept)."""
    value = Decimal(re.sub(r"[^\d.]", "", text))
    return -value if text.lstrip().startswith(("-", "−")) else value


def test_practice_vat_due_equals_the_vat_pages_balance(client, company, sandbox_url):
    api = Api(sandbox_url, company)
    seed(api, late=1, review=1, open_expenses=2)
    _vat_extras(api)
    signed_in(client, company)
    row = shown(client.get("/practice").get_data(as_text=True))[company.id]
    vat_page = client.get(f"/c/{company.id}/vat/").get_data(as_text=True)
    balance = Decimal(BALANCE.search(vat_page).group(1))
    assert money_value(row["vat_due"]) == balance  # shown to the fillér, never rounded
    assert int(balance) == expected(api)["vat_due"]
    assert f'href="/c/{company.id}/vat/"' in dict(ROW.findall(
        client.get("/practice").get_data(as_text=True)))[str(company.id)]


DASHBOARD_VAT = re.compile(r'id="figure-vat_due" data-vat="vat_due" data-value="([^"]+)"')


def test_dashboard_vat_due_is_the_vat_pages_balance_where_header_sums_differ(
        client, company, sandbox_url):
    """With a split EUR income and an expense excluded from accounting, the two lists' header
    VAT would give another figure: the dashboard shows the VAT page's balance."""
    api = Api(sandbox_url, company)
    seed(api, late=1, review=1, open_expenses=2)
    _vat_extras(api)
    signed_in(client, company)
    dashboard = client.get(f"/c/{company.id}/").get_data(as_text=True)
    vat_page = client.get(f"/c/{company.id}/vat/").get_data(as_text=True)
    balance = Decimal(BALANCE.search(vat_page).group(1))
    assert Decimal(DASHBOARD_VAT.search(dashboard).group(1)) == balance
    assert int(balance) == expected(api)["vat_due"]
