"""The review screen: done, save and done, skip, next/previous, the document, conflicts."""
from __future__ import annotations

import re
import time

import pytest

from app.review import flow
from sandbox.core.demo_files import minimal_pdf, tiny_png
from tests.app.conftest import signed_in
from tests.app.incomes_helpers import (
    catalogue,
    income_with_file,
    page_form,
    set_state,
    upstream_calls,
)
from tests.app.test_review_support import (
    HTMX,
    from_bookdesk,
    income_now,
    open_screen,
    queue_ids,
    reads,
    review_base,
    sandbox_change,
    step,
    waiting,
    writes,
)
from tests.conftest import in_flight_together


def _three(api):
    for number in range(3):
        waiting(api, invoice_number=f"R-{number}")
    return queue_ids(api)


def test_done_is_one_write_and_the_next_income_comes_in_place(client, company, api,
                                                              sandbox_log):
    first, second, third = _three(api)
    base = review_base(client, company)
    screen = open_screen(client, f"{base}{first}")
    sandbox_log.reset()
    response = step(client, screen, "done")
    assert response.status_code == 200
    assert upstream_calls(response) == 1
    assert writes(sandbox_log, company.id) == [{"review_done": True}]
    assert reads(sandbox_log, company.id) == []
    html = response.get_data(as_text=True)
    assert income_now(api, second)["invoice_number"] in html
    assert response.headers["HX-Push-Url"] == f"{base}{second}"
    assert re.search(r'id="review-left" hx-swap-oob="true">2 left<', html)
    assert income_now(api, first)["review_done"] is True
    assert income_now(api, third)["review_done"] is False


def test_save_and_done_sends_the_reviewers_changes_with_review_done(client, company, api,
                                                                    sandbox_log):
    ids = catalogue(api)
    created = waiting(api, assignments=[{"revenue_type": None}], note="régi")
    base = review_base(client, company)
    screen = open_screen(client, f"{base}{created['id']}")
    sandbox_log.reset()
    response = step(client, screen, "save_done", **{
        "assignments-0-revenue_type": str(ids.revenue_types[1]),
        "assignments-0-job_number": "MUNKA-7", "note": "ellenőrizve",
        "tags": [str(ids.tags[0]), ""]})
    assert response.status_code == 200, response.get_data(as_text=True)[:3000]
    [body] = writes(sandbox_log, company.id)
    assert body["review_done"] is True and body["note"] == "ellenőrizve"
    assert body["tags"] == [ids.tags[0]]
    row = body["assignments"][0]
    assert row["revenue_type"] == ids.revenue_types[1] and row["job_number"] == "MUNKA-7"
    assert row["gross_amount"] == "1270.00" and row["net_amount"] == "1000.00"
    saved = income_now(api, created["id"])
    assert saved["review_done"] is True and saved["note"] == "ellenőrizve"
    assert saved["assignments"][0]["revenue_type"]["id"] == ids.revenue_types[1]
    assert saved["assignments"][0]["vat"] == created["assignments"][0]["vat"]


def test_done_with_changed_fields_saves_them_too(client, company, api, sandbox_log):
    created = waiting(api, note="régi")
    screen = open_screen(client, f"{review_base(client, company)}{created['id']}")
    step(client, screen, "done", note="új")
    assert writes(sandbox_log, company.id)[-1] == {"note": "új", "review_done": True}


def test_skip_writes_nothing_and_moves_on(client, company, api, sandbox_log):
    first, second, _third = _three(api)
    base = review_base(client, company)
    screen = open_screen(client, f"{base}{first}")
    response = step(client, screen, "skip")
    assert response.headers["HX-Push-Url"] == f"{base}{second}"
    assert writes(sandbox_log, company.id) == []
    assert income_now(api, first)["review_done"] is False


def test_next_and_previous_follow_the_queue_and_wrap_round(client, company, api):
    first, second, third = _three(api)
    base = review_base(client, company)
    html = open_screen(client, f"{base}{second}").html
    assert 'id="review-prev"' in html and f'href="{base}{first}"' in html
    assert f'href="{base}{third}"' in html
    last = open_screen(client, f"{base}{third}")
    response = step(client, last, "done")
    assert response.headers["HX-Push-Url"] == f"{base}{first}"


def test_an_income_reviewed_elsewhere_is_passed_over(client, company, api):
    first, second, third = _three(api)
    base = review_base(client, company)
    screen = open_screen(client, f"{base}{first}")
    sandbox_change(api, second, review_done=True)
    from app.review import prefetch

    prefetch.clear()
    response = step(client, screen, "done")
    assert response.headers["HX-Push-Url"] == f"{base}{third}"


def test_an_income_saved_on_its_edit_page_shows_as_saved_in_the_queue_and_done_goes_through(
        client, company, api):
    first, second, _third = _three(api)
    base = review_base(client, company)
    open_screen(client, f"{base}{first}")  # reads the second ahead
    edit = f"/c/{company.id}/incomes/{second}/edit"
    saved = client.post(edit, data=page_form(client, edit).set("note", "javított").data())
    assert saved.status_code == 303
    screen = open_screen(client, f"{base}{second}")
    assert "javított" in screen.html
    response = step(client, screen, "done")
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    assert income_now(api, second)["review_done"] is True


def test_the_last_one_done_shows_the_queue_is_clear(client, company, api):
    created = waiting(api)
    screen = open_screen(client, f"{review_base(client, company)}{created['id']}")
    html = step(client, screen, "done").get_data(as_text=True)
    assert 'id="review-end"' in html and "Every income of this queue has been reviewed" in html


def test_done_on_an_income_changed_meanwhile_is_withdrawn_and_shows_the_change(
        client, company, api, sandbox_log):
    created = waiting(api, note="eredeti")
    screen = open_screen(client, f"{review_base(client, company)}{created['id']}")
    sandbox_change(api, created["id"], note="valaki más írta", gross_amount="2540.00",
                   net_amount="2000.00")
    response = step(client, screen, "done")
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert 'id="review-conflict"' in html
    assert "valaki más írta" in html and "eredeti" in html
    box = html.split('id="review-conflict"')[1].split("</table>")[0]
    assert "2,540" in box and "2540.00" not in box, "amounts in the page's notation"
    assert income_now(api, created["id"])["review_done"] is False
    assert writes(sandbox_log, company.id) == [{"review_done": True}, {"review_done": False}]
    again = step(client, type(screen)(html), "done")
    assert again.status_code == 200
    assert income_now(api, created["id"])["review_done"] is True


def _done_by_another_meanwhile(app, client, company, api):
    """(income, my screen of it): while my screen is open, Második Mária, signed in in a
    browser of her own with a token of her own (so what my session read stays as I saw it),
    adds a note and marks it done."""
    created = waiting(api, note="eredeti")
    base = review_base(client, company)
    mine = open_screen(client, f"{base}{created['id']}")
    other = app.test_client()
    signed_in(other, company, "incomes/", role="bookkeeper", name="Második Mária")
    theirs = open_screen(other, f"{base}{created['id']}")
    assert step(other, theirs, "save_done", note="Mária nézte át").status_code == 200
    return created, mine


def test_done_after_another_reviewer_marked_it_done_with_a_change_leaves_it_done(
        app, client, company, api, sandbox_log):
    created, mine = _done_by_another_meanwhile(app, client, company, api)
    sandbox_log.reset()
    response = step(client, mine, "done")
    assert response.status_code == 200
    # Her save dropped my read-ahead copy: read again, found done, nothing is sent (nor put back).
    assert writes(sandbox_log, company.id) == []
    assert income_now(api, created["id"])["review_done"] is True
    assert "was already marked done by Második Mária, as it is now: it stays done." in \
        response.get_data(as_text=True)


def test_save_and_done_after_another_reviewer_marked_it_done_says_the_edits_were_not_saved(
        app, client, company, api, sandbox_log):
    created, mine = _done_by_another_meanwhile(app, client, company, api)
    sandbox_log.reset()
    response = step(client, mine, "save_done", note="az én megjegyzésem")
    html = response.get_data(as_text=True)
    assert response.status_code == 409 and writes(sandbox_log, company.id) == []
    assert "Második Mária marked this income done meanwhile, as it is now, so your changes " \
        "were not saved." in html
    heading = html.split('id="review-conflict"')[1].split("</strong>")[0]
    assert "Your changes were not saved." in heading and "not marked done" not in heading
    assert income_now(api, created["id"])["note"] == "Mária nézte át"


def test_save_and_done_on_an_income_changed_meanwhile_writes_nothing_and_keeps_the_input(
        client, company, api, sandbox_log):
    ids = catalogue(api)
    created = waiting(api, note="eredeti", tags=[ids.tags[0]])
    screen = open_screen(client, f"{review_base(client, company)}{created['id']}")
    sandbox_change(api, created["id"], tags=[ids.tags[1]])
    response = step(client, screen, "save_done", note="az én megjegyzésem")
    assert response.status_code == 409
    assert writes(sandbox_log, company.id) == []
    retry = type(screen)(response.get_data(as_text=True))
    assert retry.form.get("note") == "az én megjegyzésem"
    assert retry.form.values("tags")[:1] == [str(ids.tags[1])]
    assert step(client, retry, "save_done").status_code == 200
    saved = income_now(api, created["id"])
    assert saved["note"] == "az én megjegyzésem" and saved["review_done"] is True
    assert [t["id"] for t in saved["tags"]] == [ids.tags[1]]


def test_a_processed_income_cannot_be_marked_done_here(client, company, api, sandbox_log):
    created = waiting(api)
    set_state(api, created["id"], is_processed=True)
    screen = open_screen(client, f"{review_base(client, company)}{created['id']}")
    assert 'id="review-done"' not in screen.html
    response = step(client, screen, "done")
    assert response.status_code == 400
    assert writes(sandbox_log, company.id) == []


def _with_file(api, filename: str, content: bytes) -> dict:
    created = income_with_file(api, filename, filename, content)
    sandbox_change(api, created["id"], needs_review=True)
    return created


def test_the_document_image_is_served_from_bookdesks_origin(client, company, api):
    png = tiny_png(3)
    created = _with_file(api, "szamla.png", png)
    base = review_base(client, company)
    html = open_screen(client, f"{base}{created['id']}").html
    assert f'<img class="review-doc__image" src="{base}{created["id"]}/document"' in html
    image = client.get(f"{base}{created['id']}/document")
    assert image.status_code == 200 and image.mimetype == "image/png"
    assert image.get_data() == png
    assert "Token" not in str(image.headers)


def test_a_pdf_document_is_framed_beside_the_fields(client, company, api):
    pdf = minimal_pdf("Szamla 2025")
    created = _with_file(api, "szamla.pdf", pdf)
    base = review_base(client, company)
    html = open_screen(client, f"{base}{created['id']}").html
    assert f'<iframe class="review-doc__frame" src="{base}{created["id"]}/document"' in html
    framed = client.get(f"{base}{created['id']}/document")
    assert framed.mimetype == "application/pdf" and framed.get_data() == pdf
    assert framed.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert "default-src 'none'" in framed.headers["Content-Security-Policy"]


def test_a_document_the_file_store_cannot_serve_is_not_called_missing(client, company, api,
                                                                      faults):
    created = _with_file(api, "szamla.pdf", minimal_pdf("Szamla 2025"))
    base = review_base(client, company)
    open_screen(client, f"{base}{created['id']}")
    faults.add(path="/_files/*", method="GET", kind="status", status=503)
    framed = client.get(f"{base}{created['id']}/document")
    assert framed.status_code == 503, framed.status_code  # not 404: the file is there
    assert "The accounting service is not reachable" in framed.get_data(as_text=True)


def test_a_document_link_gone_since_it_was_read_is_read_anew(client, company, api, faults):
    pdf = minimal_pdf("Szamla 2025")
    created = _with_file(api, "szamla.pdf", pdf)
    base = review_base(client, company)
    open_screen(client, f"{base}{created['id']}")
    faults.add(path="/_files/*", method="GET", kind="status", status=404, count=1)
    framed = client.get(f"{base}{created['id']}/document")
    assert framed.status_code == 200 and framed.get_data() == pdf
    assert not faults.unspent()


def test_an_income_without_a_file_says_so(client, company, api):
    created = waiting(api)
    base = review_base(client, company)
    assert client.get(f"{base}{created['id']}/document").status_code == 404
    html = open_screen(client, f"{base}{created['id']}").html
    assert "No document attached" in html
    assert client.get(f"{base}{created['id']}", headers=HTMX).status_code == 200


def test_the_next_income_shows_its_own_values_not_the_ones_just_posted(client, company, api):
    waiting(api, note="első", invoice_number="V-1", issued_at="2025-02-02")
    waiting(api, note="második", invoice_number="V-2", issued_at="2025-02-01")
    first, second = queue_ids(api)
    screen = open_screen(client, f"{review_base(client, company)}{first}")
    response = step(client, screen, "skip")
    following = type(screen)(response.get_data(as_text=True))
    assert following.form.get("note") == "második"
    row_id = income_now(api, second)["assignments"][0]["id"]
    assert f'"id":{row_id}' in following.form.get("base_state")


@pytest.mark.usefixtures("no_gc_pause")
def test_incomes_reviewed_elsewhere_are_read_in_one_round_not_one_after_another(
        client, company, api, sandbox_log, faults):
    for number in range(6):
        waiting(api, invoice_number=f"R-{number}")
    first, *elsewhere, last = queue_ids(api)
    base = review_base(client, company)
    screen = open_screen(client, f"{base}{first}")
    for income_id in elsewhere:
        sandbox_change(api, income_id, review_done=True)
    from app.review import prefetch

    prefetch.clear()
    faults.add(path="/1/incomes/*", method="GET", kind="latency", latency_ms=300)
    sandbox_log.reset()
    response = step(client, screen, "done")
    assert response.headers["HX-Push-Url"] == f"{base}{last}"
    following = {f"/1/incomes/{income_id}" for income_id in [*elsewhere, last]}
    details = [e for e in sandbox_log.entries(company_id=company.id, method="GET")
               if from_bookdesk(e) and not e["headers"]["X-Application"].endswith("prefetch")
               and e["path"].rstrip("/") in following]
    assert sorted(e["path"].rstrip("/") for e in details) == sorted(following), "each once"
    assert in_flight_together(details), [(e["path"], e["at"], e["duration_ms"]) for e in details]


def test_a_step_shows_new_partners_from_the_last_list_while_a_fresh_one_is_read(
        client, company, api, sandbox_log, monkeypatch):
    partner = api.post("/2/partners/create/", json={"name": "Friss Kft.",
                                                    "is_customer": True}).json()
    created = waiting(api, partner_id=partner["id"], partner_name="Friss Kft.")
    base = review_base(client, company)
    assert client.get(base).status_code == 200  # the queue reads the recent partners
    monkeypatch.setattr(flow, "PARTNER_TTL", 0.0)  # from now on that list is stale
    sandbox_log.reset()
    screen = open_screen(client, f"{base}{created['id']}")
    assert "New partner" in screen.html
    assert not [path for path in reads(sandbox_log, company.id) if "partners" in path]
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not _partner_reads_ahead(sandbox_log, company.id):
        time.sleep(0.05)
    assert _partner_reads_ahead(sandbox_log, company.id) == ["/1/partners/"]


def _partner_reads_ahead(sandbox_log, company_id: int) -> list[str]:
    return [path for path in reads(sandbox_log, company_id, background=True)
            if "partners" in path]
