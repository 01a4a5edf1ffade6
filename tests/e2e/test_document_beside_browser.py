"""The original document beside the form, in the browser: on income and expense edit and on
the review screen the image or PDF is visible next to the fields and zooms; with the sandbox
slow on the file path only, the form is usable before the document has arrived. Screenshots in
tests/artifacts/document-beside/."""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from sandbox.core.demo_files import tiny_png
from tests.app.incomes_helpers import income_with_file
from tests.sandbox.expense_support import artifact, make_expense
from tests.sandbox.incomes_support import make_income, set_state

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "document-beside"
# The document comes through Bookdesk (review.document, on the review screen and the income
# edit page alike), whose upstream read timeout in these tests is 10 s (UPSTREAM_READ_TIMEOUT,
# tests/e2e/conftest.py): the file's latency stays well under it, or the read would time out and
# be retried, and still long enough that the page, the panel and the note's typing are surely
# done before the document arrives.
SLOW_MS = 6000
# The edit page's panel reads the artifact record: slowed too, but inside the page's 5 s read
# budget (PAGE_DEADLINE_SECONDS), past which the panel would say the document is missing.
RECORD_SLOW_MS = 2500


def _income_with_image(api, number: str) -> dict:
    return income_with_file(api, number, "szamla.png", tiny_png(40))


def _zooms(page, shot: str) -> None:
    image = page.locator("[data-doc-view] img[data-zoom-target]")
    page.wait_for_function(
        "() => (document.querySelector('[data-doc-view] img') || {}).naturalWidth > 0",
        timeout=3 * SLOW_MS)
    expect(image).to_be_visible()
    before = image.bounding_box()["width"]
    page.locator("[data-doc-view] [data-zoom=in]").click()
    page.locator("[data-doc-view] [data-zoom=in]").click()
    expect(page.locator("[data-doc-view] [data-zoom-level]")).to_have_text("150%")
    assert image.bounding_box()["width"] > before * 1.4
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / shot))
    page.locator("[data-doc-view] [data-zoom=reset]").click()
    assert abs(image.bounding_box()["width"] - before) < 2


def _beside(page, form: str) -> None:
    doc, fields = (page.locator(s).bounding_box() for s in ("[data-doc-view]", form))
    assert doc["x"] >= fields["x"] + fields["width"] - 1 or \
        doc["x"] + doc["width"] <= fields["x"] + 1, (doc, fields)


def test_income_edit_shows_the_document_beside_and_the_form_does_not_wait(
        signed_in_page, company, api, faults):
    income = _income_with_image(api, "BESIDE-1")
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1280, "height": 900})
    faults.add(path="/_files/*", kind="latency", latency_ms=SLOW_MS)
    faults.add(path="/1/artifacts/*", kind="latency", latency_ms=RECORD_SLOW_MS)
    page.goto(f"/c/{company.id}/incomes/{income['id']}/edit", wait_until="domcontentloaded")
    page.fill("#note", "typed while the document loads")
    assert page.locator("[data-doc-view] img").count() == 0 or not page.evaluate(
        "() => document.querySelector('[data-doc-view] img').complete")
    assert page.input_value("#note") == "typed while the document loads"
    _zooms(page, "income-edit-zoomed-1280.png")
    _beside(page, "form.record-form")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "income-edit-1280.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 900})
    doc, form = (page.locator(s).bounding_box() for s in ("#document-beside", "form.record-form"))
    assert doc["y"] >= form["y"] + form["height"] - 1
    page.screenshot(path=str(SHOTS / "income-edit-360.png"), full_page=True)
    page.bookdesk_log.assert_clean()


def test_review_screen_document_zooms_and_the_form_does_not_wait(signed_in_page, company,
                                                                  api, faults):
    income = _income_with_image(api, "BESIDE-2")
    set_state(api, income["id"], needs_review=True, review_done=False)
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1280, "height": 900})
    faults.add(path="/_files/*", kind="latency", latency_ms=SLOW_MS)
    page.goto(f"/c/{company.id}/review/{income['id']}", wait_until="domcontentloaded")
    page.fill("#note", "typed while the document loads")
    assert not page.evaluate("() => document.querySelector('[data-doc-view] img').complete")
    _zooms(page, "review-zoomed-1280.png")
    _beside(page, "form.review-form")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "review-1280.png"), full_page=True)
    page.bookdesk_log.assert_clean()


def test_expense_edit_frames_its_pdf_beside_the_form_and_zooms_it(signed_in_page, company, api):
    expense = make_expense(api, artifact=artifact())
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/c/{company.id}/expenses/{expense['id']}/edit")
    frame = page.locator("[data-doc-view] iframe[data-zoom-target]")
    expect(frame).to_be_visible()
    assert frame.get_attribute("src") == f"/c/{company.id}/expenses/{expense['id']}/file"
    before = frame.bounding_box()["width"]
    page.locator("[data-doc-view] [data-zoom=in]").click()
    expect(page.locator("[data-doc-view] [data-zoom-level]")).to_have_text("125%")
    assert frame.bounding_box()["width"] > before * 1.2
    _beside(page, "form.record-form")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "expense-edit-1280.png"))
    page.bookdesk_log.assert_clean()


def _whole_width_under_the_note(page, form: str) -> None:
    expect(page.locator("#document-beside .doc-view__none")).to_be_visible()
    note, fields, both = (page.locator(s).bounding_box()
                          for s in ("#document-beside", form, ".beside"))
    assert note["y"] + note["height"] <= fields["y"], (note, fields)
    assert fields["width"] >= both["width"] - 1, (fields, both)
    hidden = page.evaluate("""() => [...document.querySelectorAll('table.table--form')]
        .map(t => t.scrollWidth - t.parentElement.clientWidth)""")
    assert all(px <= 0 for px in hidden), hidden


def test_without_a_document_the_form_takes_the_whole_width_under_a_one_line_note(
        signed_in_page, company, api):
    income = make_income(api, invoice_number="NO-FILE-1")
    expense = make_expense(api)
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"/c/{company.id}/incomes/{income['id']}/edit")
    _whole_width_under_the_note(page, "form.record-form")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "income-edit-no-document-1440.png"), full_page=True)
    page.goto(f"/c/{company.id}/expenses/{expense['id']}/edit")
    _whole_width_under_the_note(page, "form.record-form")
    page.bookdesk_log.assert_clean()


TABLE_OVERFLOW_JS = """() => Math.max(...[...document.querySelectorAll('table.table--form')]
    .map(t => t.scrollWidth - t.parentElement.clientWidth))"""


def test_hiding_the_document_gives_the_form_the_whole_width_until_it_is_shown_again(
        signed_in_page, company, api):
    first, second = (_income_with_image(api, f"BESIDE-HIDE-{n}") for n in (1, 2))
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/c/{company.id}/incomes/{first['id']}/edit")
    expect(page.locator("[data-doc-view] img")).to_be_visible()
    assert page.evaluate(TABLE_OVERFLOW_JS) > 0  # beside the document the table scrolls
    toggle = page.locator("[data-doc-toggle]")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(page.locator("[data-doc-view]")).to_be_hidden()
    assert page.evaluate(TABLE_OVERFLOW_JS) <= 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "income-edit-document-hidden-1280.png"), full_page=True)
    page.goto(f"/c/{company.id}/incomes/{second['id']}/edit")
    expect(page.locator("[data-doc-view]")).to_be_hidden()
    page.locator("[data-doc-toggle]").click()
    expect(page.locator("[data-doc-view] img")).to_be_visible()
    _beside(page, "form.record-form")
    page.bookdesk_log.assert_clean()
