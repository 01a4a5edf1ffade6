"""Creates whose answer is lost, as each outcome of the read-back meets the user.

test_write_faults.py proves the rule for every create (message, input kept, stored once); these
prove the paths through app.once's recovery: the record found (land on it, say it was created
late), nothing found (the form again, safe to send, the resend creates once), the read-back
down too (the form says it is not yet known; the resend looks first and never sends blindly),
a resend refused because the lost one landed (existing_income_id: found), a send the upstream
may still be storing (not found proves nothing: nothing is sent again until it settles), and a
rate limit (nothing sent, wait the seconds asked).
"""
from __future__ import annotations

import time

import pytest

from app.incomes import flow as income_flow
from app.taxes import flow as taxes_flow
from app.upstream import Unavailable
from tests.app.conftest import signed_client, signed_in
from tests.app.incomes_helpers import page_form
from tests.app.test_write_faults import (
    WRITES,
    Ctx,
    _expense_file,
    _income_create,
    _incomes,
    _successful_writes,
    _taxes_described,
)

CREATE = "/2/incomes/create/"
LATE = "did not confirm the request, but"
CASES = {case.name: case for case in WRITES}


def _ctx(client, company, api) -> Ctx:
    return Ctx(client, company, api, signed_in(client, company, "incomes/"))


def _numbered(ctx: Ctx, marker: str) -> int:
    return sum(i["invoice_number"] == marker for i in _incomes(ctx))


def _posts(sandbox_log, company, path: str = CREATE) -> list[dict]:
    return [e for e in sandbox_log.entries(company_id=company.id, method="POST")
            if e["path"] == path]


def test_a_lost_income_create_found_by_its_number_lands_on_it_and_a_resend_stores_nothing(
        client, company, api, faults, sandbox_log):
    ctx = _ctx(client, company, api)
    path, form = _income_create(ctx, "LC-FOUND-1")
    faults.add(path=CREATE, method="POST", kind="reset_after", count=1)
    first = client.post(path, data=form.data())
    assert first.status_code == 303
    [income] = [i for i in _incomes(ctx) if i["invoice_number"] == "LC-FOUND-1"]
    assert first.headers["Location"].endswith(f"/incomes/{income['id']}")
    landed = client.get(first.headers["Location"]).get_data(as_text=True)
    assert "did not confirm the request, but the accounting document was created" in landed
    sandbox_log.reset()
    again = client.post(path, data=form.data())
    assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    assert _posts(sandbox_log, company) == [] and _numbered(ctx, "LC-FOUND-1") == 1


def test_a_lost_income_create_not_found_says_nothing_was_created_and_the_resend_creates(
        client, company, api, faults, sandbox_log):
    ctx = _ctx(client, company, api)
    path, form = _income_create(ctx, "LC-NONE-1")
    faults.add(path=CREATE, method="POST", kind="status", status=502, count=1)
    first = client.post(path, data=form.data())
    html = first.get_data(as_text=True)
    assert first.status_code == 503
    assert "the document was not created. It is safe to send the form again." in html
    assert 'value="LC-NONE-1"' in html, "the input is kept"
    again = client.post(path, data=form.data())
    assert again.status_code == 303
    assert _numbered(ctx, "LC-NONE-1") == 1
    assert len(_successful_writes(sandbox_log, company.id, CASES["income create"])) == 1


def test_a_lost_create_whose_read_back_fails_is_looked_for_again_before_any_resend(
        client, company, api, faults, sandbox_log):
    ctx = _ctx(client, company, api)
    path, form = _income_create(ctx, "LC-DOWN-1")
    faults.add(path=CREATE, method="POST", kind="reset_after", count=1)
    faults.add(path="/1/incomes", method="GET", kind="status", status=503)
    first = client.post(path, data=form.data())
    html = first.get_data(as_text=True)
    assert first.status_code == 503
    assert "it is not yet known whether the document was created" in html
    assert 'value="LC-DOWN-1"' in html
    sandbox_log.reset()
    still_down = client.post(path, data=form.data())
    assert still_down.status_code == 503
    assert "not yet known" in still_down.get_data(as_text=True)
    assert _posts(sandbox_log, company) == [], "never sent blindly while it is unknown"
    faults.clear()
    recovered = client.post(path, data=form.data())
    assert recovered.status_code == 303
    landed = client.get(recovered.headers["Location"]).get_data(as_text=True)
    assert LATE in landed
    assert _posts(sandbox_log, company) == [] and _numbered(ctx, "LC-DOWN-1") == 1


def test_a_resend_refused_with_existing_income_id_while_unknown_counts_as_found(
        client, company, api, faults, sandbox_log, monkeypatch):
    ctx = _ctx(client, company, api)
    path, form = _income_create(ctx, "LC-EXIST-1")

    def down(*args, **kwargs):
        raise Unavailable("read-back down")

    faults.add(path=CREATE, method="POST", kind="reset_after", count=1)
    monkeypatch.setattr(income_flow, "find_by_number", down)
    assert client.post(path, data=form.data()).status_code == 503
    # The read-back misses it (say a lagging replica): the resend is refused by its number.
    monkeypatch.setattr(income_flow, "find_by_number", lambda api, number: [])
    again = client.post(path, data=form.data())
    [income] = [i for i in _incomes(ctx) if i["invoice_number"] == "LC-EXIST-1"]
    assert again.status_code == 303
    assert again.headers["Location"].endswith(f"/incomes/{income['id']}")
    assert LATE in client.get(again.headers["Location"]).get_data(as_text=True)
    assert [e["status"] for e in _posts(sandbox_log, company)] == [201, 400]


def test_a_rate_limited_create_is_not_sent_says_how_long_to_wait_and_can_be_sent_again(
        client, company, api, faults, sandbox_log):
    ctx = _ctx(client, company, api)
    path, form = _income_create(ctx, "LC-SLOW-1")
    faults.add(path=CREATE, method="POST", kind="status", status=429, retry_after=7, count=1)
    first = client.post(path, data=form.data())
    html = first.get_data(as_text=True)
    assert first.status_code == 429
    assert "so nothing was created. Send the form again in 7 seconds." in html
    assert 'value="LC-SLOW-1"' in html
    assert client.post(path, data=form.data()).status_code == 303
    assert _numbered(ctx, "LC-SLOW-1") == 1


def _two_tax_rows(ctx: Ctx, marker: str):
    path = f"/c/{ctx.company.id}/taxes/new"
    form = page_form(ctx.client, path)
    for n, (amount, code) in enumerate((("150000", "103"), ("90000", "125"))):
        form.set(f"rows-{n}-month", "2024-03").set(f"rows-{n}-amount", amount)
        form.set(f"rows-{n}-code", code).set(f"rows-{n}-description", marker)
    return path, form


def test_a_lost_tax_grid_is_found_when_all_its_rows_are_listed(
        client, company, api, faults, sandbox_log):
    ctx = _ctx(client, company, api)
    path, form = _two_tax_rows(ctx, "LC-TAX-1")
    faults.add(path="/2/taxes/create/", method="POST", kind="reset_after", count=1)
    first = client.post(path, data=form.data())
    assert first.status_code == 303 and "open=2024-03" in first.headers["Location"]
    assert "did not confirm the request, but the taxes were created" in \
        client.get(first.headers["Location"]).get_data(as_text=True)
    assert client.post(path, data=form.data()).status_code == 303
    assert _taxes_described(ctx, "LC-TAX-1") == 2
    assert len(_posts(sandbox_log, company, "/2/taxes/create/")) == 1


def test_a_tax_grid_with_only_some_rows_listed_counts_as_not_created(
        client, company, api, faults, sandbox_log):
    ctx = _ctx(client, company, api)
    path, form = _two_tax_rows(ctx, "LC-TAX-2")
    # One identical row was stored before; the grid itself is lost before it is stored.
    made = api.post("/2/taxes/create/", json=[{"month": "2024-03-01", "amount": "150000",
                                               "code": "103", "description": "LC-TAX-2"}])
    assert made.status_code == 201, made.text
    faults.add(path="/2/taxes/create/", method="POST", kind="status", status=502, count=1)
    first = client.post(path, data=form.data())
    assert first.status_code == 503
    assert "nothing was created. It is safe" in first.get_data(as_text=True)
    assert client.post(path, data=form.data()).status_code == 303
    assert _taxes_described(ctx, "LC-TAX-2") == 3


def _twin_tax(api, marker: str) -> None:
    made = api.post("/2/taxes/create/", json=[{"month": "2024-03-01", "amount": "150000",
                                               "code": "103", "description": marker}])
    assert made.status_code == 201, made.text


def _twin_vat(api, marker: str) -> None:
    made = api.post("/2/accounting/vat-categories/create/", json={
        "name": marker, "percent": 27, "type": "revenue", "vat_area": "HU", "country": "HU"})
    assert made.ok, made.text


TWINS = {"tax create": _twin_tax, "VAT category create": _twin_vat}


@pytest.mark.parametrize("name", list(TWINS))
@pytest.mark.parametrize("stored", [False, True], ids=["not-stored", "stored"])
def test_a_lost_create_is_never_taken_for_a_twin_stored_before_it(
        name, stored, client, company, api, faults, sandbox_log):
    # The API takes a second tax or VAT category with the same values: the read-back must not
    # report the one made before as the lost one.
    case = CASES[name]
    ctx = _ctx(client, company, api)
    marker = f"LC-TWIN-{name.split()[0].upper()}-{stored}"
    path, form = case.fill(ctx, marker)
    TWINS[name](api, marker)
    assert case.stored(ctx, marker) == 1
    fault = {"kind": "reset_after"} if stored else {"kind": "status", "status": 502}
    faults.add(path=case.upstream_path, method="POST", count=1, **fault)
    first = client.post(path, data=case.data(form, marker))
    if stored:
        assert first.status_code == 303
        assert LATE in client.get(first.headers["Location"]).get_data(as_text=True)
    else:
        assert first.status_code == 503
        assert "nothing was created. It is safe" in first.get_data(as_text=True)
    assert case.stored(ctx, marker) == 1 + stored
    client.post(path, data=case.data(form, marker))
    assert case.stored(ctx, marker) == 2, "the resend stores the one that was lost, only once"


def test_a_send_whose_read_fails_before_its_write_is_not_looked_for(
        client, company, api, faults, sandbox_log):
    # The VAT category's send reads its twins first. When that read fails, nothing was written:
    # the twin stored before must not be reported as the one just created.
    case = CASES["VAT category create"]
    ctx = _ctx(client, company, api)
    path, form = case.fill(ctx, "LC-READ-FIRST")
    _twin_vat(api, "LC-READ-FIRST")
    sandbox_log.reset()
    # Both tries of the twins' read (UPSTREAM_RETRIES is 1 here) fail; later reads answer.
    faults.add(path="/2/accounting/vat-categories/", method="GET", kind="status", status=503,
               count=2)
    first = client.post(path, data=case.data(form, "LC-READ-FIRST"))
    page = first.get_data(as_text=True)
    assert first.status_code == 503 and LATE not in page
    assert "nothing was sent" in page and 'value="LC-READ-FIRST"' in page  # the form kept
    assert not _posts(sandbox_log, company, case.upstream_path) and not faults.unspent()
    assert client.post(path, data=case.data(form, "LC-READ-FIRST")).status_code == 303
    assert case.stored(ctx, "LC-READ-FIRST") == 2


def test_a_repeated_vat_create_reads_nothing(client, company, api, sandbox_log):
    case = CASES["VAT category create"]
    ctx = _ctx(client, company, api)
    path, form = case.fill(ctx, "LC-REPEAT")
    assert client.post(path, data=case.data(form, "LC-REPEAT")).status_code == 303
    sandbox_log.reset()
    assert client.post(path, data=case.data(form, "LC-REPEAT")).status_code == 303
    assert not sandbox_log.entries(company_id=company.id), "the repeat is answered from its key"
    assert case.stored(ctx, "LC-REPEAT") == 1


@pytest.mark.parametrize("name", ["partner create", "tag create", "expense upload"])
def test_a_lost_create_read_back_down_keeps_the_key_unknown_and_finds_it_later(
        name, client, company, api, faults, sandbox_log):
    case = CASES[name]
    ctx = _ctx(client, company, api)
    marker = f"LC-{name.split()[0].upper()}-1"
    path, form = case.fill(ctx, marker)
    before = case.stored(ctx, marker)
    faults.add(path=case.upstream_path, method="POST", kind="reset_after", count=1)
    faults.add(path="/[12]/*", method="GET", kind="status", status=503)
    first = client.post(path, data=case.data(form, marker))
    assert first.status_code == 503, first.get_data(as_text=True)[:500]
    assert "not yet known" in first.get_data(as_text=True)
    faults.clear()
    again = client.post(path, data=case.data(form, marker))
    assert again.status_code == 303
    assert LATE in client.get(again.headers["Location"]).get_data(as_text=True)
    assert case.stored(ctx, marker) - before == 1
    assert len(_successful_writes(sandbox_log, company.id, case)) == 1


def test_a_lost_salary_grid_whose_read_back_fails_is_found_on_the_resend(
        client, company, api, faults, sandbox_log, monkeypatch):
    case = CASES["salary create"]
    ctx = _ctx(client, company, api)
    path, form = case.fill(ctx, "LC-SAL-1")

    def down(*args, **kwargs):
        raise Unavailable("read-back down")

    # The grid's own check reads the same listing before sending, so the fault is the
    # read-back's alone.
    monkeypatch.setattr(taxes_flow, "all_stored", down)
    faults.add(path=case.upstream_path, method="POST", kind="reset_after", count=1)
    first = client.post(path, data=case.data(form, "LC-SAL-1"))
    assert first.status_code == 503 and "not yet known" in first.get_data(as_text=True)
    monkeypatch.undo()
    again = client.post(path, data=case.data(form, "LC-SAL-1"))
    assert again.status_code == 303
    assert "did not confirm the request, but the salaries were created" in \
        client.get(again.headers["Location"]).get_data(as_text=True)
    assert case.stored(ctx, "LC-SAL-1") == 1
    assert len(_successful_writes(sandbox_log, company.id, case)) == 1


def test_an_upload_lost_and_not_stored_says_so_and_the_resend_uploads_once(
        client, company, api, faults, sandbox_log):
    case = CASES["expense upload"]
    ctx = _ctx(client, company, api)
    path, form = case.fill(ctx, "LC-UP-2")
    faults.add(path=case.upstream_path, method="POST", kind="status", status=502, count=1)
    first = client.post(path, data={**form.data(), **_expense_file("LC-UP-2")})
    assert first.status_code == 503
    assert "no expense was created. It is safe to send the files again." in \
        first.get_data(as_text=True)
    again = client.post(path, data={**form.data(), **_expense_file("LC-UP-2")})
    assert again.status_code == 303
    assert case.stored(ctx, "LC-UP-2") == 1


def test_a_create_the_upstream_is_still_storing_is_never_sent_twice(
        app_config, company, api, faults, sandbox_log):
    # Bookdesk stops waiting after the read timeout; the upstream stores the income later, so
    # a read-back that finds nothing yet proves nothing, and a resend must not send again.
    impatient = signed_client(app_config, company, UPSTREAM_READ_TIMEOUT=1.5)
    ctx = Ctx(impatient, company, api, f"/c/{company.id}/incomes/")
    path, form = _income_create(ctx, "LC-SLOW-1")
    faults.add(path=CREATE, method="POST", kind="latency", latency_ms=4500, count=1)
    first = impatient.post(path, data=form.data())
    html = first.get_data(as_text=True)
    assert first.status_code == 503 and 'value="LC-SLOW-1"' in html
    assert "not yet known whether the document was created" in html
    assert "safe to send the form again" not in html
    early = impatient.post(path, data=form.data())
    assert "not yet known" in early.get_data(as_text=True)
    for _ in range(100):  # until the slow send has answered (and so is in the log)
        if _posts(sandbox_log, company):
            break
        time.sleep(0.1)
    landed = impatient.post(path, data=form.data())
    assert landed.status_code == 303
    assert LATE in impatient.get(landed.headers["Location"]).get_data(as_text=True)
    # one POST: neither resend sent anything (the log holds the slow one once it answered)
    assert len(_posts(sandbox_log, company)) == 1 and _numbered(ctx, "LC-SLOW-1") == 1
