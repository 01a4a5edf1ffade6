"""Tags, expense types and revenue types: lists, create once, bulk rename, bulk delete reports,
and the catalogue cache dropped by every write (spec 2.5, 2.6, 4.6, 4.7, part 7)."""
from __future__ import annotations

import json
import re

from app.i18n import collated
from tests.app.conftest import csrf_token, signed_in
from tests.app.incomes_helpers import make_income, upstream_calls

FORM_KEY = re.compile(r'name="form_key" type="hidden" value="([^"]+)"')


def entries(api, path: str) -> dict[str, int]:
    """name -> id of a catalogue, straight from the API."""
    return {item["name"]: item["id"] for item in api.get(path).json()}


def create(client, page: str, name: str, key: str | None = None):
    html = client.get(page).get_data(as_text=True)
    key = key or FORM_KEY.search(html).group(1)
    return client.post(page + "new", data={"csrf_token": csrf_token(html), "form_key": key,
                                           "name": name})


def rename(client, page: str, names: dict[int, str]):
    """Post the rename form as the page renders it, with some names changed."""
    html = client.get(page).get_data(as_text=True)
    base = json.loads(re.search(r'name="base" value="([^"]*)"', html).group(1)
                      .replace("&#34;", '"').replace("&quot;", '"'))
    data = {"csrf_token": csrf_token(html), "base": json.dumps(base)}
    data.update({f"name-{key}": value for key, value in base.items()})
    data.update({f"name-{key}": value for key, value in names.items()})
    return client.post(page + "rename", data=data)


def delete(client, page: str, ids: list[int]):
    html = client.get(page).get_data(as_text=True)
    return client.post(page + "delete", data={"csrf_token": csrf_token(html), "ids": ids})


def test_tag_list_filters_by_name_and_origin_through_the_api(client, company, api,
                                                            sandbox_log):
    api.post("/2/tags/create/", json={"name": "Projekt Külső"})
    base = signed_in(client, company)
    sandbox_log.reset()
    html = client.get(f"{base}tags/?name=projekt&is_external=true").get_data(as_text=True)
    args = sandbox_log.entries(company_id=company.id, path="/2/tags")[-1]["args"]
    assert args == {"name": ["projekt"], "is_external": ["true"]}
    assert 'value="Projekt Külső"' in html and 'value="Projekt A"' not in html


def test_names_are_listed_in_the_pages_collation_in_one_upstream_call(client, company, api):
    # The API sorts by folded letters (Csiga before Cukor); Hungarian puts Cs after C, and an
    # English page keeps Cs as C then s.
    for name in ("Csiga", "Zsák", "Cukor", "ásványvíz", "Őz", "Alma"):
        api.post("/2/revenue-types/create/", json={"name": name})
    base = signed_in(client, company)
    client.get("/lang/hu")
    response = client.get(f"{base}revenue-types/")
    shown = re.findall(r'name="name-\d+" form="rename-form" maxlength="100" value="([^"]+)"',
                       response.get_data(as_text=True))
    listed = [item["name"] for item in api.get("/2/revenue-types/").json()]
    assert sorted(shown) == sorted(listed) and shown == collated(listed, locale="hu")
    assert shown.index("Alma") < shown.index("ásványvíz") < shown.index("Cukor") \
        < shown.index("Csiga") < shown.index("Őz") < shown.index("Zsák")
    assert upstream_calls(response) == 1
    client.get("/lang/en")
    html = client.get(f"{base}revenue-types/").get_data(as_text=True)
    assert html.index('value="Csiga"') < html.index('value="Cukor"')


def test_create_tag_once_per_form_and_show_it(client, company, api, sandbox_log):
    base = signed_in(client, company)
    page = f"{base}tags/"
    html = client.get(page).get_data(as_text=True)
    key = FORM_KEY.search(html).group(1)
    sandbox_log.reset()
    first, second = create(client, page, "Új címke", key), create(client, page, "Új címke", key)
    assert first.status_code == second.status_code == 303
    [sent] = sandbox_log.entries(company_id=company.id, path="/2/tags/create")
    assert sent["body"] == {"tags": [{"name": "Új címke"}]}  # the live request's shape
    assert 'value="Új címke"' in client.get(page).get_data(as_text=True)


def test_duplicate_name_lands_on_the_name_field_with_the_input_kept(client, company):
    base = signed_in(client, company)
    response = create(client, f"{base}expense-types/", "szoftver")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "A type with this name already exists." in html
    assert 'id="name"' in html and 'value="szoftver"' in html


def test_a_duplicate_tag_sent_as_a_list_of_one_lands_on_the_name_field(client, company, api):
    taken = next(iter(entries(api, "/2/tags/")))
    base = signed_in(client, company)
    response = create(client, f"{base}tags/", taken)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    field = html.split('id="name"')[1].split("</div>")[0]
    assert "A tag with this name already exists." in field
    assert f'value="{taken}"' in html


def test_tag_rename_sends_the_changed_names_in_one_request(client, company, api, sandbox_log):
    tags = entries(api, "/2/tags/")
    base = signed_in(client, company)
    sandbox_log.reset()
    response = rename(client, f"{base}tags/", {tags["Budapest"]: "Budapest XI.",
                                                 tags["Debrecen"]: "Debrecen 2"})
    assert response.status_code == 303
    [patch] = sandbox_log.entries(company_id=company.id, method="PATCH", path="/2/tags/update")
    assert sorted(patch["body"]["tags"], key=lambda i: i["id"]) == [
        {"id": tags["Budapest"], "name": "Budapest XI."},
        {"id": tags["Debrecen"], "name": "Debrecen 2"}]
    assert {"Budapest XI.", "Debrecen 2"} <= set(entries(api, "/2/tags/"))


def test_tag_rename_refused_for_one_row_saves_nothing_and_marks_that_row(client, company, api):
    tags = entries(api, "/2/tags/")
    base = signed_in(client, company)
    response = rename(client, f"{base}tags/", {tags["Budapest"]: "Pécs",
                                                 tags["Debrecen"]: "projekt a"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert f'id="row-error-{tags["Debrecen"]}"' in html
    assert f'id="row-error-{tags["Budapest"]}"' not in html
    assert 'value="Pécs"' in html and 'value="projekt a"' in html
    assert "Pécs" not in entries(api, "/2/tags/")


def test_a_rename_refused_for_a_tag_deleted_meanwhile_says_so_above_the_list(client, company,
                                                                            api):
    tags = entries(api, "/2/tags/")
    base = signed_in(client, company)
    response = rename(client, f"{base}tags/", {tags["Budapest"]: "Pécs", 999999: "Régi"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "“Régi” was not saved:" in html and "999999" in html.split("was not saved:")[1]
    assert "Pécs" not in entries(api, "/2/tags/")


def test_type_bulk_rename_saves_what_it_can_and_shows_the_failed_ids_why(client, company, api):
    types = entries(api, "/2/expense-types/")
    base = signed_in(client, company)
    response = rename(client, f"{base}expense-types/", {types["Szoftver"]: "Licencek",
                                                          types["Üzemanyag"]: "bérleti díj"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "1 saved; the names marked below were refused." in html
    assert f'id="row-error-{types["Üzemanyag"]}"' in html
    assert "A type with this name already exists." in html
    assert 'value="bérleti díj"' in html
    assert "Licencek" in entries(api, "/2/expense-types/")


def test_blank_name_is_refused_before_sending(client, company, api, sandbox_log):
    tags = entries(api, "/2/tags/")
    base = signed_in(client, company)
    sandbox_log.reset()
    response = rename(client, f"{base}tags/", {tags["Budapest"]: "   "})
    assert response.status_code == 400
    assert f'id="row-error-{tags["Budapest"]}"' in response.get_data(as_text=True)
    assert sandbox_log.entries(company_id=company.id, method="PATCH") == []


def test_tag_delete_reports_deleted_and_kept_in_use_with_where(client, company, api):
    tags = entries(api, "/2/tags/")
    make_income(api, tags=[tags["Projekt A"]])
    base = signed_in(client, company)
    response = delete(client, f"{base}tags/", [tags["Projekt A"], tags["Projekt B"]])
    html = response.get_data(as_text=True)
    deleted = html.split('id="report-deleted"')[1].split("</ul>")[0]
    kept = html.split('id="report-kept"')[1].split("</ul>")[0]
    assert "Projekt B" in deleted and "Projekt A" not in deleted
    assert "Projekt A" in kept and "in use" in kept and "used in incomes" in kept
    assert set(entries(api, "/2/tags/")) >= {"Projekt A"} and "Projekt B" not in entries(
        api, "/2/tags/")


def test_tag_delete_tells_an_unknown_tag_from_one_in_use(client, company, api):
    tags = entries(api, "/2/tags/")
    base = signed_in(client, company)
    response = delete(client, f"{base}tags/", [tags["Projekt A"], 999999])
    kept = response.get_data(as_text=True).split('id="report-kept"')[1].split("</ul>")[0]
    unknown = kept.split("#999999")[1].split("</li>")[0]
    assert "not found" in unknown and "in use" not in unknown


def test_type_delete_reports_failed_ids_in_use_and_unknown(client, company, api):
    types = entries(api, "/2/revenue-types/")
    make_income(api)  # its assignment uses the first revenue type
    used = min(types.values())
    unused = types["Egyéb bevétel"]
    base = signed_in(client, company)
    response = delete(client, f"{base}revenue-types/", [used, unused, 999999])
    kept = response.get_data(as_text=True).split('id="report-kept"')[1].split("</ul>")[0]
    assert "in use" in kept and "used in incomes" in kept
    assert "#999999" in kept and "not found" in kept
    assert unused not in entries(api, "/2/revenue-types/").values()


def test_a_write_drops_the_cached_catalogue_so_the_next_page_shows_it(client, company, api):
    base = signed_in(client, company)
    page = f"{base}revenue-types/"
    client.get(page)  # the catalogue is now cached
    api.post("/2/revenue-types/create/", json={"name": "Kívülről jött"})
    assert 'value="Kívülről jött"' not in client.get(page).get_data(as_text=True)
    assert create(client, page, "Bookdeskből").status_code == 303
    html = client.get(page).get_data(as_text=True)
    assert 'value="Bookdeskből"' in html and 'value="Kívülről jött"' in html


def test_rename_and_delete_drop_the_cached_tags(client, company, api):
    tags = entries(api, "/2/tags/")
    base = signed_in(client, company)
    page = f"{base}tags/"
    assert rename(client, page, {tags["Debrecen"]: "Debrecen-Észak"}).status_code == 303
    assert 'value="Debrecen-Észak"' in client.get(page).get_data(as_text=True)
    delete(client, page, [tags["Projekt B"]])
    assert 'value="Projekt B"' not in client.get(page).get_data(as_text=True)


def test_a_tag_made_here_is_offered_at_once_on_the_new_income_form(client, company):
    base = signed_in(client, company)
    assert "Friss címke" not in client.get(f"{base}incomes/new").get_data(as_text=True)
    assert create(client, f"{base}tags/", "Friss címke").status_code == 303
    assert "Friss címke" in client.get(f"{base}incomes/new").get_data(as_text=True)


def test_the_tags_page_names_each_field_and_its_list_once(client, company):
    html = client.get(f"{signed_in(client, company)}tags/").get_data(as_text=True)
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert 'for="filter-name"' in html and 'id="filter-name" name="name"' in html
    for target in re.findall(r'aria-labelledby="([^"]+)"', html):
        assert f'id="{target}"' in html, target


def test_a_delete_without_an_answer_says_it_may_be_done_and_lists_what_is_left(
        client, company, api, faults):
    tags = entries(api, "/2/tags/")
    base = signed_in(client, company)
    faults.add(path="/2/tags/delete/", method="POST", kind="reset_after", count=1)
    response = delete(client, f"{base}tags/", [tags["Projekt B"]])
    html = response.get_data(as_text=True)
    assert response.status_code == 503
    assert "The entries may already be deleted: check the list before deleting again." in html
    assert "Projekt A" in html and "Projekt B" not in entries(api, "/2/tags/")
