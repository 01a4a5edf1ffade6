"""The partner card in the browser, in Hungarian and English at desktop and phone widths: its
open amounts and ageing equal sums computed from the API's records, it fits without sideways
scroll, its documents link to their pages; screenshots in tests/artifacts/partner-card/."""
from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from app.numbers import company_today
from tests.app.partner_support import api_records, expected_sums, seed
from tests.e2e.screens_support import PAGE_WIDTH_JS
from tests.sandbox import expense_support

ecat = expense_support.ecat  # the fixture of the company's expense catalogue ids
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "partner-card"
HEADINGS = {"hu": "Nyitott követelések", "en": "Open receivables"}


def _figures(page, side: str) -> dict[str, dict[str, Decimal]]:
    found: dict[str, dict[str, Decimal]] = {}
    for row in page.locator(f"#{side} tr[data-currency]").all():
        cells = row.locator("[data-value]")
        found[row.get_attribute("data-currency")] = {
            cells.nth(i).get_attribute("data-cell"): Decimal(cells.nth(i).get_attribute(
                "data-value")) for i in range(cells.count())}
    return found


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_partner_card_shows_the_apis_open_amounts_in_both_languages(signed_in_page, company,
                                                                   api, ecat, lang):
    partner, codes = seed(api, ecat)
    receivables, payables = api_records(api, partner, codes)
    page = signed_in_page(company)
    path = f"/c/{company.id}/partners/{partner['id']}/card"
    page.goto(f"/lang/{lang}?next={path}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 360):
        page.set_viewport_size({"width": width, "height": 900})
        page.reload()
        page.screenshot(path=str(SHOTS / f"{lang}-{width}.png"), full_page=True)
        scroll_width, inner = page.evaluate(PAGE_WIDTH_JS)
        assert scroll_width <= inner, f"{width}px: page is {scroll_width}px wide"
    assert HEADINGS[lang] in page.inner_text("#receivables h2")
    for side, records in (("receivables", receivables), ("payables", payables)):
        sums = expected_sums(records, company_today())
        shown = _figures(page, side)
        assert set(shown) == set(sums), side
        assert {c: {k: shown[c][k] for k in s} for c, s in sums.items()} == sums
    page.bookdesk_log.assert_clean()


def test_a_document_on_the_card_opens_its_page(signed_in_page, company, api, ecat):
    partner, _codes = seed(api, ecat)
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/partners/")
    page.click(f"tr[data-partner-id='{partner['id']}'] a")
    page.wait_for_url(re.compile(rf"/partners/{partner['id']}/card$"))
    link = page.locator("#expense-documents tbody a").first
    number = link.inner_text()
    link.click()
    page.wait_for_url(re.compile(r"/expenses/\d+$"))
    assert number in page.inner_text("body")
    page.bookdesk_log.assert_clean()
