"""Bulk done, undo (single and bulk, also after a reload), and the log of review actions."""
from __future__ import annotations

import re

from app.store.history import Actor, recent_actions, record_action
from tests.app.conftest import csrf_token
from tests.app.incomes_helpers import catalogue
from tests.app.test_review_support import (
    HTMX,
    income_now,
    open_screen,
    queue_ids,
    review_base,
    sandbox_change,
    step,
    undo,
    waiting,
)

BOX = re.compile(r'name="ids" value="(\d+:[0-9a-f]+)"')


def _queue(client, base: str, query: str = "") -> tuple[str, dict[int, str]]:
    html = client.get(base + query).get_data(as_text=True)
    return html, {int(v.split(":")[0]): v for v in BOX.findall(html)}


def _undo_bar(html: str) -> str:
    """The undo bar's words, without markup."""
    bar = html.split('id="review-undo"')[1].split("</form>")[0]
    return " ".join(re.sub(r"<[^>]+>", "", bar).split())


def _bulk(client, base: str, html: str, query: str = "", **data):
    return client.post(f"{base}bulk{query}", data={"csrf_token": csrf_token(html), **data})


def test_undo_of_done_reverts_it_also_after_a_reload(client, company, api):
    first, _second = (waiting(api)["id"], waiting(api)["id"])
    base = review_base(client, company)
    screen = open_screen(client, f"{base}{first}")
    step(client, screen, "done")
    assert income_now(api, first)["review_done"] is True
    reloaded = client.get(f"{base}{queue_ids(api)[0]}").get_data(as_text=True)
    assert 'id="undo-last"' in reloaded
    response = undo(client, reloaded, company.id, **HTMX)
    assert response.status_code == 200
    assert response.headers["HX-Push-Url"] == f"{base}{first}"
    assert income_now(api, first)["review_done"] is False
    assert 'id="undo-last"' not in response.get_data(as_text=True)


def test_undo_again_steps_back_one_more_action(client, company, api):
    for _n in range(3):
        waiting(api)
    first, second, _third = queue_ids(api)
    base = review_base(client, company)
    screen = open_screen(client, f"{base}{first}")
    screen = type(screen)(step(client, screen, "done").get_data(as_text=True))
    after = step(client, screen, "done").get_data(as_text=True)
    assert [income_now(api, i)["review_done"] for i in (first, second)] == [True, True]
    once = undo(client, after, company.id, **HTMX).get_data(as_text=True)
    assert income_now(api, second)["review_done"] is False
    assert 'id="undo-last"' in once, "the earlier done is offered next"
    undo(client, once, company.id, **HTMX)
    assert [income_now(api, i)["review_done"] for i in (first, second)] == [False, False]


def test_undo_of_save_and_done_restores_the_values_it_replaced(client, company, api):
    ids = catalogue(api)
    created = waiting(api, note="régi", tags=[ids.tags[0]])
    base = review_base(client, company)
    screen = open_screen(client, f"{base}{created['id']}")
    done = step(client, screen, "save_done", note="új", tags=[str(ids.tags[2]), ""],
                **{"assignments-0-job_number": "J-1"})
    assert income_now(api, created["id"])["note"] == "új"
    undo(client, done.get_data(as_text=True), company.id, **HTMX)
    restored = income_now(api, created["id"])
    assert restored["note"] == "régi" and restored["review_done"] is False
    assert [t["id"] for t in restored["tags"]] == [ids.tags[0]]
    assert restored["assignments"][0]["job_number"] in (None, "")
    assert restored["assignments"][0]["gross_amount"] == "1270.00"


def test_undo_leaves_an_income_that_was_changed_again_since(client, company, api):
    created = waiting(api, note="régi", invoice_number="UNDO-7")
    screen = open_screen(client, f"{review_base(client, company)}{created['id']}")
    done = step(client, screen, "save_done", note="enyém")
    assert "Saved and done · UNDO-7 ·" in _undo_bar(done.get_data(as_text=True))
    sandbox_change(api, created["id"], note="másé")
    response = undo(client, done.get_data(as_text=True), company.id, back="/")
    assert response.status_code == 303
    now = income_now(api, created["id"])
    assert now["note"] == "másé" and now["review_done"] is True
    html = client.get(f"/c/{company.id}/review/actions").get_data(as_text=True)
    assert "UNDO-7 was left as it is: changed again since: note" in html


def test_bulk_done_marks_exactly_the_selected_rows_and_undo_reverts_them(client, company,
                                                                          api):
    for number in range(4):
        waiting(api, invoice_number=f"B-{number}")
    base = review_base(client, company)
    html, boxes = _queue(client, base)
    chosen = queue_ids(api)[1:3]
    response = _bulk(client, base, html, scope="selected", ids=[boxes[i] for i in chosen])
    assert response.status_code == 303
    done = {i for i in boxes if income_now(api, i)["review_done"]}
    assert done == set(chosen)
    page = client.get(base).get_data(as_text=True)
    named = ", ".join(income_now(api, i)["invoice_number"] for i in chosen)
    assert "Marked done: 2." in page and f"Bulk: marked done · {named} ·" in _undo_bar(page)
    undo(client, page, company.id, back=base)
    assert not any(income_now(api, i)["review_done"] for i in boxes)


def test_bulk_done_of_everything_matching_the_filter(client, company, api):
    small = [waiting(api, gross_amount="127.00", net_amount="100.00")["id"] for _ in range(3)]
    big = waiting(api, gross_amount="99999.00", net_amount="78739.00")["id"]
    base = review_base(client, company)
    query = "?amount_max=1000&page_size=20"
    html, _boxes = _queue(client, base, query)
    refused = _bulk(client, base, html, query, scope="all", expected="2")
    assert refused.status_code == 303
    assert not any(income_now(api, i)["review_done"] for i in small)
    _bulk(client, base, html, query, scope="all", expected="3")
    assert all(income_now(api, i)["review_done"] for i in small)
    assert income_now(api, big)["review_done"] is False


def test_bulk_leaves_a_row_changed_since_the_list_was_loaded(client, company, api,
                                                             sandbox_log):
    first, second = waiting(api)["id"], waiting(api, invoice_number="VALTOZOTT-1")["id"]
    base = review_base(client, company)
    html, boxes = _queue(client, base)
    sandbox_change(api, second, gross_amount="5000.00", net_amount="3937.01")
    _bulk(client, base, html, scope="selected", ids=[boxes[first], boxes[second]])
    assert income_now(api, first)["review_done"] is True
    assert income_now(api, second)["review_done"] is False
    assert "left for review: VALTOZOTT-1" in client.get(base).get_data(as_text=True)


def test_every_action_is_logged_with_who_and_the_values(app, client, company, api):
    created = waiting(api, note="régi")
    screen = open_screen(client, f"{review_base(client, company)}{created['id']}")
    step(client, screen, "save_done", note="új")
    with app.app_context():
        [action] = recent_actions(company.id)
    assert action.kind == "save_done" and action.actor == "Teszt Elek"
    assert action.actor_fp and company.tokens["admin"] not in action.actor_fp
    assert action.income_ids == [created["id"]]
    assert action.numbers == {str(created["id"]): created["invoice_number"]}
    assert action.before[str(created["id"])] == {"note": "régi", "review_done": False}
    # The state the action left the document in goes with it: undo checks it, never sends it.
    assert action.after[str(created["id"])] == {"note": "új", "review_done": True,
                                                "is_cancelled": False}
    page = client.get(f"/c/{company.id}/review/actions").get_data(as_text=True)
    assert "Saved and done" in page and "Teszt Elek" in page
    assert "régi" in page and "új" in page


def test_a_bulk_undo_gives_its_reasons_in_the_page_language(client, company, api):
    """The reverts of a bulk undo run side by side on the pool, outside the request: the
    reasons they leave must still reach a Hungarian page in Hungarian."""
    ids = [waiting(api)["id"] for _ in range(3)]
    client.get("/lang/hu")
    base = review_base(client, company)
    html, boxes = _queue(client, base)
    _bulk(client, base, html, scope="selected", ids=[boxes[i] for i in ids])
    assert all(income_now(api, i)["review_done"] for i in ids)
    for income_id in ids[1:]:
        sandbox_change(api, income_id, review_done=False)
    undo(client, client.get(base).get_data(as_text=True), company.id, back=base)
    page = client.get(base).get_data(as_text=True)
    assert page.count("azóta újra módosult: review_done") == 2
    assert "changed again since" not in page


def test_a_skip_is_logged_with_the_number_the_screen_showed(app, client, company, api):
    first, _second = waiting(api, invoice_number="SKIP-1")["id"], waiting(api)["id"]
    screen = open_screen(client, f"{review_base(client, company)}{first}")
    skipped = step(client, screen, "skip").get_data(as_text=True)
    assert "Skipped · SKIP-1 ·" in _undo_bar(skipped)
    with app.app_context():
        [action] = recent_actions(company.id)
    assert action.kind == "skip" and action.numbers == {str(first): "SKIP-1"}


def test_an_entry_logged_before_numbers_were_kept_names_its_income_by_id(app, client, company):
    with app.app_context():
        record_action(company.id, Actor("Régi Elek", "0" * 16), "done", [4321],
                      {"4321": {"review_done": False}}, {"4321": {"review_done": True}})
    page = client.get(f"{review_base(client, company)}actions").get_data(as_text=True)
    assert ">#4321</a>" in page and "Régi Elek" in page


def test_undo_on_a_filtered_queue_stays_in_that_queue(client, company, api):
    for _n in range(3):
        waiting(api)
    query = "?ordering=-gross_amount"
    first = queue_ids(api, ordering="-gross_amount")[0]
    base = review_base(client, company)
    after = step(client, open_screen(client, f"{base}{first}{query}"), "done")
    html = after.get_data(as_text=True)
    bar = html.split('id="review-undo"')[1]
    action = re.search(r'<form method="post" action="([^"]+)"', bar).group(1).replace("&amp;", "&")
    assert action.endswith(query)
    response = client.post(action, headers=HTMX, data={
        "action_id": re.search(r'name="action_id" value="(\d+)"', bar).group(1),
        "back": "screen", "csrf_token": csrf_token(html)})
    assert response.headers["HX-Push-Url"] == f"{base}{first}{query}"
    assert income_now(api, first)["review_done"] is False


def _filled_in_and_done(client, company, api, number: str):
    """(income, its revenue type's name, the page after it): an income without a revenue type,
    saved and done on the screen with one chosen, a job number and a note."""
    ids = catalogue(api)
    created = waiting(api, assignments=[{"revenue_type": None}], note="régi",
                      invoice_number=number)
    screen = open_screen(client, f"{review_base(client, company)}{created['id']}")
    done = step(client, screen, "save_done", note="új", **{
        "assignments-0-revenue_type": str(ids.revenue_types[1]),
        "assignments-0-job_number": "J-2"})
    assert done.status_code == 200, done.get_data(as_text=True)[:2000]
    name = income_now(api, created["id"])["assignments"][0]["revenue_type"]["name"]
    return created, name, done.get_data(as_text=True)


def test_undo_of_a_save_and_done_that_filled_a_revenue_type_reopens_it_and_keeps_the_type(
        client, company, api):
    created, name, page = _filled_in_and_done(client, company, api, "TIPUS-1")
    response = undo(client, page, company.id, **HTMX)
    assert response.status_code == 200
    assert response.headers["HX-Push-Url"] == f"/c/{company.id}/review/{created['id']}"
    now = income_now(api, created["id"])
    assert now["review_done"] is False and now["note"] == "régi"
    assert now["assignments"][0]["job_number"] in (None, "")
    assert now["assignments"][0]["revenue_type"]["name"] == name
    html = response.get_data(as_text=True)
    assert ("TIPUS-1 is waiting for review again and its other values are back, but its "
            f"revenue type stays {name}: the accounting service does not accept an empty "
            "revenue type.") in html
    assert "Nothing was undone" not in html and "Undone. Incomes back" not in html


def test_an_undo_done_as_far_as_it_can_be_does_not_block_the_earlier_actions(client, company,
                                                                              api):
    earlier = waiting(api)
    screen = open_screen(client, f"{review_base(client, company)}{earlier['id']}")
    step(client, screen, "done")
    _created, _name, page = _filled_in_and_done(client, company, api, "TIPUS-2")
    response = undo(client, page, company.id, **HTMX)
    assert response.status_code == 200, "the undo put the income back"
    once = response.get_data(as_text=True)
    assert "Done · " in _undo_bar(once), "the earlier done is offered next"
    undo(client, once, company.id, **HTMX)
    assert income_now(api, earlier["id"])["review_done"] is False


def test_an_undo_from_the_screen_that_puts_nothing_back_stays_on_that_screen(client, company,
                                                                             api):
    created = waiting(api, note="régi", invoice_number="UNDO-8")
    here = waiting(api)
    base = review_base(client, company)
    done = step(client, open_screen(client, f"{base}{created['id']}"), "save_done", note="enyém")
    sandbox_change(api, created["id"], note="másé")
    response = undo(client, done.get_data(as_text=True), company.id, **HTMX, **{
        "HX-Current-URL": f"http://localhost{base}{here['id']}"})
    assert response.headers["HX-Redirect"] == f"{base}{here['id']}"
    page = client.get(f"{base}{here['id']}").get_data(as_text=True)
    assert "UNDO-8 was left as it is: changed again since: note" in page
