"""Review guardrails (app/review/actions.py): Done is refused, on the field, before any write,
while the API will need a value the income lacks."""
from __future__ import annotations

import re

import pytest

from tests.app.conftest import csrf_token
from tests.app.incomes_helpers import catalogue, make_income
from tests.app.test_review_support import (
    from_bookdesk,
    income_now,
    open_screen,
    review_base,
    sandbox_change,
    step,
    waiting,
    writes,
)
from tests.conftest import Api

BOX = re.compile(r'name="ids" value="(\d+:[0-9a-f]+)"')
EN = {"Accept-Language": "en"}
REVENUE_TYPE_MSG = "Choose a revenue type: the company uses advanced accounting"


@pytest.fixture
def advanced(sandbox_url, make_company):
    """A company that uses advanced accounting ("bővített könyvelés"), and its API client."""
    return Api(sandbox_url, make_company(advanced_accounting=True))


def _revenue_type_cell(html: str) -> str:
    return html.split('id="assignments-0-revenue_type"')[1].split("</td>")[0]


def test_done_without_a_revenue_type_under_advanced_accounting_sends_nothing(
        client, advanced, sandbox_log):
    created = waiting(advanced, assignments=[{"revenue_type": None}])
    base = review_base(client, advanced.company)
    screen = open_screen(client, f"{base}{created['id']}")
    sandbox_log.reset()
    response = step(client, screen, "done")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert REVENUE_TYPE_MSG in _revenue_type_cell(html)
    assert writes(sandbox_log, advanced.company.id) == []
    assert sandbox_log.entries(company_id=advanced.company.id, method="PATCH") == []
    assert income_now(advanced, created["id"])["review_done"] is False


def test_save_and_done_with_the_revenue_type_chosen_goes_through(client, advanced,
                                                                  sandbox_log):
    ids = catalogue(advanced)
    created = waiting(advanced, assignments=[{"revenue_type": None}])
    base = review_base(client, advanced.company)
    screen = open_screen(client, f"{base}{created['id']}")
    refused = step(client, screen, "save_done", **{"assignments-0-job_number": "J-9"})
    assert refused.status_code == 400 and "required" in _revenue_type_cell(
        refused.get_data(as_text=True))
    assert 'value="J-9"' in refused.get_data(as_text=True)
    assert writes(sandbox_log, advanced.company.id) == []
    done = step(client, screen, "save_done",
                **{"assignments-0-revenue_type": str(ids.revenue_types[0])})
    assert done.status_code == 200, done.get_data(as_text=True)[:2000]
    now = income_now(advanced, created["id"])
    assert now["review_done"] is True
    assert now["assignments"][0]["revenue_type"]["id"] == ids.revenue_types[0]


def test_without_advanced_accounting_an_empty_revenue_type_does_not_stop_done(
        client, company, api, sandbox_log):
    created = waiting(api, assignments=[{"revenue_type": None}])
    screen = open_screen(client, f"{review_base(client, company)}{created['id']}")
    sandbox_log.reset()
    assert step(client, screen, "done").status_code == 200
    assert writes(sandbox_log, company.id) == [{"review_done": True}]


def test_an_accounting_period_with_one_end_stops_done_on_that_field(client, company, api,
                                                                     sandbox_log):
    created = waiting(api, accounting_period_start="2026-01-01")
    screen = open_screen(client, f"{review_base(client, company)}{created['id']}")
    sandbox_log.reset()
    response = step(client, screen, "done")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Accounting period end" in html and "both values of the pair" in html
    assert writes(sandbox_log, company.id) == []
    saved = step(client, screen, "save_done", note="átnézve")
    assert saved.status_code == 400 and "both values of the pair" in saved.get_data(as_text=True)
    assert 'átnézve' in saved.get_data(as_text=True)
    assert writes(sandbox_log, company.id) == []


def test_bulk_done_leaves_out_incomplete_incomes_and_says_why(client, advanced, sandbox_log):
    ids = catalogue(advanced)
    bare = waiting(advanced, invoice_number="HIANY-2026/7", assignments=[{"revenue_type": None}])
    ready = waiting(advanced, assignments=[{"revenue_type": ids.revenue_types[0]}])
    base = review_base(client, advanced.company)
    html = client.get(base).get_data(as_text=True)
    boxes = {int(v.split(":")[0]): v for v in BOX.findall(html)}
    sandbox_log.reset()
    response = client.post(f"{base}bulk", headers=EN, follow_redirects=True, data={
        "csrf_token": csrf_token(html), "ids": [boxes[bare["id"]], boxes[ready["id"]]]})
    page = response.get_data(as_text=True)
    # Named as the queue names it, by its invoice number.
    assert "HIANY-2026/7 was not marked done" in page and REVENUE_TYPE_MSG in page
    sent = [e["path"] for e in sandbox_log.entries(company_id=advanced.company.id,
                                                    method="PATCH")]
    assert sent == [f"/2/incomes/{ready['id']}/update/"]
    assert income_now(advanced, bare["id"])["review_done"] is False
    assert income_now(advanced, ready["id"])["review_done"] is True


def test_an_income_already_complete_is_done_under_advanced_accounting(client, advanced):
    ids = catalogue(advanced)
    created = make_income(advanced, type=2, needs_review=True, review_done=False,
                          assignments=[{"revenue_type": ids.revenue_types[1]}])
    screen = open_screen(client, f"{review_base(client, advanced.company)}{created['id']}")
    assert step(client, screen, "done").status_code == 200
    assert income_now(advanced, created["id"])["review_done"] is True


def test_bulk_done_checks_the_selection_with_one_list_read_not_a_read_per_row(
        client, advanced, sandbox_log):
    ids = catalogue(advanced)
    bare = [waiting(advanced, assignments=[{"revenue_type": None}]) for _ in range(2)]
    ready = [waiting(advanced, assignments=[{"revenue_type": ids.revenue_types[0]}])
             for _ in range(4)]
    base = review_base(client, advanced.company)
    html = client.get(base).get_data(as_text=True)
    boxes = BOX.findall(html)
    assert len(boxes) == 6
    sandbox_log.reset()
    response = client.post(f"{base}bulk", headers=EN, follow_redirects=False, data={
        "csrf_token": csrf_token(html), "ids": boxes})
    assert response.status_code in (302, 303)
    calls = [(e["method"], e["path"]) for e in sandbox_log.entries(company_id=advanced.company.id)
             if from_bookdesk(e)]
    income_reads = [path for method, path in calls
                    if method == "GET" and path.startswith("/1/incomes")]
    assert income_reads == ["/1/incomes"]
    assert sorted(path for method, path in calls if method == "PATCH") == sorted(
        f"/2/incomes/{income['id']}/update/" for income in ready)
    assert all(income_now(advanced, income["id"])["review_done"] is False for income in bare)


def test_bulk_done_checked_on_list_rows_still_wants_the_exchange_rate(client, company, api,
                                                                      sandbox_log):
    euro = catalogue(api).currencies["EUR"]
    foreign = waiting(api, currency=euro)
    rated = waiting(api, currency=euro, exchange_rate="395.5")
    base = review_base(client, company)
    html = client.get(base).get_data(as_text=True)
    response = client.post(f"{base}bulk", headers=EN, follow_redirects=True, data={
        "csrf_token": csrf_token(html), "ids": BOX.findall(html)})
    page = response.get_data(as_text=True)
    assert f"{foreign['invoice_number']} was not marked done" in page
    assert "Enter the actual exchange rate" in page
    assert income_now(api, foreign["id"])["review_done"] is False
    assert income_now(api, rated["id"])["review_done"] is True


def test_bulk_done_reads_alone_only_a_selected_income_that_left_the_queue(client, company, api,
                                                                         sandbox_log):
    stays, leaves = waiting(api), waiting(api)
    base = review_base(client, company)
    html = client.get(base).get_data(as_text=True)
    sandbox_change(api, leaves["id"], review_done=True)
    sandbox_log.reset()
    client.post(f"{base}bulk", headers=EN, data={"csrf_token": csrf_token(html),
                                                 "ids": BOX.findall(html)})
    reads = [e["path"] for e in sandbox_log.entries(company_id=company.id, method="GET")
             if from_bookdesk(e) and e["path"].startswith("/1/incomes")]
    assert reads == ["/1/incomes", f"/1/incomes/{leaves['id']}/"]
    assert income_now(api, stays["id"])["review_done"] is True


def test_an_income_the_bulk_done_could_not_reach_is_named_with_why_in_hungarian(
        client, advanced, faults):
    ids = catalogue(advanced)
    gone, ready = (waiting(advanced, assignments=[{"revenue_type": ids.revenue_types[0]}])
                   for _ in range(2))
    base = review_base(client, advanced.company)
    html = client.get(base).get_data(as_text=True)
    boxes = {int(v.split(":")[0]): v for v in BOX.findall(html)}
    faults.add(path=f"/2/incomes/{gone['id']}/update/", method="PATCH", status=404)
    response = client.post(f"{base}bulk", follow_redirects=True, headers={
        "Accept-Language": "hu"}, data={"csrf_token": csrf_token(html),
                                        "ids": [boxes[gone["id"]], boxes[ready["id"]]]})
    page = response.get_data(as_text=True)
    assert f"{gone['invoice_number']} nem lett késznek jelölve" in page
    assert "ez a tétel már nem létezik" in page
    assert "upstream record not found" not in page
    assert income_now(advanced, ready["id"])["review_done"] is True


def test_a_selected_income_that_cannot_be_read_is_named_by_its_id(client, company, api):
    ready = waiting(api)
    base = review_base(client, company)
    html = client.get(base).get_data(as_text=True)
    boxes = {int(v.split(":")[0]): v for v in BOX.findall(html)}
    response = client.post(f"{base}bulk", headers=EN, follow_redirects=True, data={
        "csrf_token": csrf_token(html), "ids": [boxes[ready["id"]], "987654:gone"]})
    page = response.get_data(as_text=True)
    assert "#987654 was not marked done" in page
    assert income_now(api, ready["id"])["review_done"] is True


def test_a_bulk_done_whose_answer_is_lost_says_it_may_be_done_not_that_it_was_not(
        client, advanced, faults):
    ids = catalogue(advanced)
    lost = waiting(advanced, assignments=[{"revenue_type": ids.revenue_types[0]}])
    base = review_base(client, advanced.company)
    html = client.get(base).get_data(as_text=True)
    boxes = {int(v.split(":")[0]): v for v in BOX.findall(html)}
    faults.add(path=f"/2/incomes/{lost['id']}/update/", method="PATCH", kind="reset_after",
               count=1)
    response = client.post(f"{base}bulk", headers=EN, follow_redirects=True, data={
        "csrf_token": csrf_token(html), "ids": [boxes[lost["id"]]]})
    page = response.get_data(as_text=True)
    assert income_now(advanced, lost["id"])["review_done"] is True
    assert "was not marked done" not in page
    assert (f"did not confirm {lost['invoice_number']}, so they may or may not be marked "
            "done") in page
