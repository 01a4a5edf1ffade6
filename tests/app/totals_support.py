"""Reading a list's totals footer (templates/macros/totals.html) and summing the API's own rows
for the same filter, independently of Bookdesk's code."""
from __future__ import annotations

import html
import re
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal

ROW = re.compile(r'<tr data-currency="([^"]+)" data-count="(\d+)" data-net="([^"]+)" '
                 r'data-vat="([^"]+)" data-gross="([^"]+)">')
FOOTER = re.compile(r'<div class="list-totals" id="[^"]+"([^>]*)>')
ATTR = re.compile(r'data-([a-z-]+)="([^"]*)"')
AMOUNTS = ("net_amount", "vat_amount", "gross_amount")


def footer(page: str) -> dict:
    """{"whole": bool, "count", "huf": {net, vat, gross} or None, "rows": {code: (count,
    net, vat, gross)}} of the list page's totals footer."""
    match = FOOTER.search(page)
    assert match, "no totals footer on the page"
    attrs = dict(ATTR.findall(match.group(1)))
    huf = ({name: Decimal(attrs[f"huf-{name}"]) for name in ("net", "vat", "gross")}
           if "huf-net" in attrs else None)
    rows = {code: (int(count), Decimal(net), Decimal(vat), Decimal(gross))
            for code, count, net, vat, gross in ROW.findall(html.unescape(page))}
    return {"whole": attrs["whole"] == "true", "count": int(attrs["count"]), "huf": huf,
            "rows": rows}


def api_rows(api, path: str, params: dict) -> list[dict]:
    """Every row the API returns for params (page-numbered, ordered by id)."""
    rows, page = [], 1
    while True:
        response = api.get(path, params={**params, "page": page, "page_size": 500,
                                         "ordering": "id"})
        assert response.status_code == 200, response.text
        body = response.json()
        results = body["results"]
        rows += results[path.rsplit("/", 1)[-1]] if isinstance(results, dict) else results
        if not body.get("next"):
            return rows
        page += 1


def expense_sums(expense: dict) -> tuple[Decimal, Decimal, Decimal]:
    """An expense's net, VAT, gross: the sum of its assignments (the top level when none)."""
    rows = expense.get("assignments") or [expense]
    return tuple(sum((Decimal(str(r.get(n) or 0)) for r in rows), Decimal(0)) for n in AMOUNTS)


def by_currency(rows: list[dict], codes: dict, amounts) -> dict:
    """{code: (count, net, vat, gross)} summed in the test from the API's rows."""
    found: dict = defaultdict(lambda: [0, Decimal(0), Decimal(0), Decimal(0)])
    for row in rows:
        entry = found[codes[row["currency"]]]
        entry[0] += 1
        for index, value in enumerate(amounts(row), start=1):
            entry[index] += value
    return {code: tuple(entry) for code, entry in found.items()}


def income_sums(income: dict) -> tuple[Decimal, Decimal, Decimal]:
    """An income's top-level net, VAT, gross."""
    return tuple(Decimal(str(income.get(n) or 0)) for n in AMOUNTS)


def in_huf(value: Decimal, rate: Decimal) -> Decimal:
    """An amount at an exchange rate as the pages keep it: to the fillér, half up."""
    return (value * rate).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def gross_in_huf(amounts: tuple[Decimal, Decimal, Decimal], rate: Decimal) -> Decimal:
    """A document's gross in forints as the footers count it: its net and VAT each converted
    and added, when its own gross is their sum; its gross converted alone otherwise."""
    net, vat, gross = amounts
    return in_huf(net, rate) + in_huf(vat, rate) if net + vat == gross else in_huf(gross, rate)
