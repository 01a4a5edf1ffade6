"""Partners: list and search, create, edit; the rules of spec 2.4 and 4.4 and their 400s."""
from __future__ import annotations

import re

import requests

from tests.app.conftest import csrf_token, signed_in
from tests.app.incomes_helpers import upstream_calls

FORM_KEY = re.compile(r'name="form_key" type="hidden" value="([^"]+)"')
BASE_STATE = re.compile(r'name="base_state" type="hidden" value="([^"]*)"')


def make_partner(api, **fields) -> dict:
    """A partner created straight through the API."""
    resp = api.post("/2/partners/create/", json={"is_customer": True, **fields})
    assert resp.status_code == 201, resp.text
    return resp.json()


def form_data(html: str, **fields) -> dict:
    """What the partner form posts: tokens from the page, then the given fields."""
    data = {"csrf_token": csrf_token(html), "form_key": FORM_KEY.search(html).group(1)}
    state = BASE_STATE.search(html)
    if state:
        data["base_state"] = state.group(1).replace("&#34;", '"').replace("&quot;", '"')
    data.update({key: value for key, value in fields.items() if value is not False})
    return data


def create_form(client, base: str, **fields):
    """Post the new-partner form as a browser would."""
    html = client.get(base + "new").get_data(as_text=True)
    return client.post(base + "new", data=form_data(html, **fields))


def creates(sandbox_log, company) -> list[dict]:
    """Partner creates the sandbox received, without the sign-in's write probe (an empty body,
    refused by the API; app/auth/flow.py probe_writes)."""
    return [entry for entry in sandbox_log.entries(company_id=company.id, method="POST",
                                                   path="/2/partners/create")
            if entry["body"] != {}]


def test_list_searches_by_name_or_tax_number_in_one_upstream_call(client, company, api,
                                                                  sandbox_log):
    make_partner(api, name="Alma Kft.", tax_number="11111111-2-41")
    make_partner(api, name="Körte Bt.", tax_number="22222222-2-42", is_vendor=True)
    base = signed_in(client, company, "partners/")
    sandbox_log.reset()
    response = client.get(base + "?q=22222222")
    html = response.get_data(as_text=True)
    assert "Körte Bt." in html and "Alma Kft." not in html
    # A small company's partners are read in one page and matched here (case, accents aside).
    read = sandbox_log.entries(company_id=company.id, path="/1/partners")
    assert len(read) == 1 and "search" not in read[0]["args"]
    assert upstream_calls(response) == 1
    assert "Körte Bt." in client.get(base + "?q=k%C3%B6rte").get_data(as_text=True)


def test_list_pages_follow_the_api_count_and_role_filter_reaches_the_api(client, company, api,
                                                                        sandbox_log):
    for number in range(27):
        make_partner(api, name=f"Partner {number:02d}", is_vendor=number % 2 == 0)
    base = signed_in(client, company, "partners/")
    first = client.get(base).get_data(as_text=True)
    assert "Partner 00" in first and "Partner 25" not in first and "page=2" in first
    second = client.get(base + "?page=2").get_data(as_text=True)
    assert "Partner 25" in second and "Partner 26" in second and "Partner 00" not in second
    gone = client.get(base + "?page=9")  # past the end: the first page, as the API's lists
    assert gone.status_code == 303 and "page=" not in gone.headers["Location"]
    sandbox_log.reset()
    client.get(base + "?role=vendor&ordering=created_at")
    assert sandbox_log.entries(company_id=company.id, path="/1/partners")[-1]["args"][
        "is_vendor"] == ["true"]


def test_create_sends_a_dashed_tax_number_compact_and_shows_it_with_dashes(client, company,
                                                                             api):
    base = signed_in(client, company, "partners/")
    response = create_form(client, base, name="Szállító Kft.", tax_number="12345676 2 41",
                           is_vendor="y")
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert 'id="stored-tax-number">12345676-2-41<' in page
    assert "The tax number was saved as" not in page
    stored = api.get("/1/partners/", params={"search": "Szállító"}).json()["results"]
    assert [p["tax_number"] for p in stored] == ["12345676241"]


def test_create_without_a_role_is_refused_before_anything_is_sent(client, company,
                                                                  sandbox_log):
    base = signed_in(client, company, "partners/")
    sandbox_log.reset()
    response = create_form(client, base, name="Szerepnélküli Kft.", city="Győr")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Choose at least one: customer, vendor or both." in html
    assert 'value="Szerepnélküli Kft."' in html and 'value="Győr"' in html
    assert creates(sandbox_log, company) == []


def test_the_form_says_a_role_is_required_before_sending(client, company):
    html = client.get(signed_in(client, company, "partners/") + "new").get_data(as_text=True)
    assert "At least one is required: a partner is a customer, a vendor or both." in html
    assert "data-roles-message=" in html


def test_create_sends_empty_text_fields_as_null_never_empty_strings(client, company,
                                                                   sandbox_log):
    base = signed_in(client, company, "partners/")
    sandbox_log.reset()
    response = create_form(client, base, name="Üres Mezők Kft.", city="", address="  ",
                           email="", is_customer="y")
    assert response.status_code == 303
    body = creates(sandbox_log, company)[0]["body"]
    assert body["city"] is None and body["address"] is None and body["email"] is None
    assert "" not in body.values() and body["is_vendor"] is False


def test_edit_sends_only_changed_fields_and_a_cleared_field_as_null(client, company, api,
                                                                   sandbox_log):
    partner = make_partner(api, name="Régi Név Kft.", city="Pécs", zip_code="7621")
    base = signed_in(client, company, "partners/")
    path = f"{base}{partner['id']}/"
    html = client.get(path).get_data(as_text=True)
    sandbox_log.reset()
    response = client.post(path, data=form_data(html, name="Régi Név Kft.", city="",
                                                zip_code="7622", is_customer="y"))
    assert response.status_code == 303
    patches = sandbox_log.entries(company_id=company.id, method="PATCH")
    assert [entry["body"] for entry in patches] == [{"city": None, "zip_code": "7622"}]
    stored = api.get(f"/1/partners/{partner['id']}/").json()
    assert stored["city"] is None and stored["zip_code"] == "7622"


def test_collision_shows_the_existing_partner_with_a_link_and_does_not_merge(client, company,
                                                                            api, sandbox_log):
    existing = make_partner(api, name="Meglévő Kft.", tax_number="87654323-1-11")
    base = signed_in(client, company, "partners/")
    sandbox_log.reset()
    response = create_form(client, base, name="Új Név Kft.", tax_number="87654323 1 11",
                           city="Szeged", is_vendor="y")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert f'href="{base}{existing["id"]}/" id="existing-partner-link">Meglévő Kft.' in html
    assert "A partner with this tax number already exists." in html
    assert 'value="Új Név Kft."' in html and 'value="Szeged"' in html
    assert 'value="87654323 1 11"' in html, "the tax number as it was typed"
    assert api.get(f"/1/partners/{existing['id']}/").json()["name"] == "Meglévő Kft."
    assert api.get("/1/partners/").json()["count"] == 1


def test_restricted_update_names_the_refused_fields_on_the_form(client, company, api,
                                                               sandbox_url):
    partner = make_partner(api, name="Szinkron Kft.", city="Eger")
    requests.patch(f"{sandbox_url}/_sandbox/partners/{partner['id']}/",
                   json={"source": "billingo"}, timeout=10).raise_for_status()
    base = signed_in(client, company, "partners/")
    path = f"{base}{partner['id']}/"
    html = client.get(path).get_data(as_text=True)
    response = client.post(path, data=form_data(html, name="Átnevezett Kft.", city="Vác",
                                                default_account_number="11773016-11111111",
                                                is_customer="y"))
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "so nothing was saved. Put these back to save the rest: Name, City." in page
    assert page.count("Cannot be changed for this partner.") == 2
    assert 'value="Átnevezett Kft."' in page and 'value="11773016-11111111"' in page
    assert api.get(f"/1/partners/{partner['id']}/").json()["name"] == "Szinkron Kft."


def test_restricted_partner_still_takes_the_allowed_fields(client, company, api, sandbox_url):
    partner = make_partner(api, name="Szinkron Bt.")
    requests.patch(f"{sandbox_url}/_sandbox/partners/{partner['id']}/",
                   json={"source": "szamlazz.hu"}, timeout=10).raise_for_status()
    base = signed_in(client, company, "partners/")
    path = f"{base}{partner['id']}/"
    html = client.get(path).get_data(as_text=True)
    response = client.post(path, data=form_data(html, name="Szinkron Bt.", is_customer="y",
                                                is_vendor="y", default_account_name="OTP"))
    assert response.status_code == 303
    stored = api.get(f"/1/partners/{partner['id']}/").json()
    assert stored["is_vendor"] is True and stored["default_account_name"] == "OTP"


def test_double_submit_of_one_form_creates_one_partner(client, company, api, sandbox_log):
    base = signed_in(client, company, "partners/")
    html = client.get(base + "new").get_data(as_text=True)
    data = form_data(html, name="Egyszer Kft.", is_customer="y")
    sandbox_log.reset()
    first, second = client.post(base + "new", data=data), client.post(base + "new", data=data)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert len(creates(sandbox_log, company)) == 1
    assert api.get("/1/partners/").json()["count"] == 1


def test_a_refused_create_can_be_corrected_and_sent_with_the_same_form(client, company, api):
    make_partner(api, name="Foglalt Kft.", tax_number="13579131-1-13")
    base = signed_in(client, company, "partners/")
    html = client.get(base + "new").get_data(as_text=True)
    data = form_data(html, name="Másik Kft.", tax_number="13579131-1-13", is_customer="y")
    assert client.post(base + "new", data=data).status_code == 400
    data["tax_number"] = "24680242-2-24"
    assert client.post(base + "new", data=data).status_code == 303
    assert api.get("/1/partners/").json()["count"] == 2


def _refusal(app, company, body: dict):
    """Send a create the form itself would never send; place the API's 400 on a fresh form."""
    from app.partners.forms import PartnerForm
    from app.partners.views import show_refusal
    from app.upstream import ValidationError, make_client

    with app.test_request_context():
        client = make_client(company.id, company.tokens["admin"])
        try:
            client.post("/2/partners/create/", json=body)
        except ValidationError as exc:
            form = PartnerForm(meta={"csrf": False}, data=body)
            show_refusal(form, exc)
            return form
    raise AssertionError("the API accepted the body")


def test_api_refusal_of_no_role_lands_on_the_role_choice(app, company):
    form = _refusal(app, company, {"name": "X Kft.", "is_customer": False, "is_vendor": False})
    assert form.role_errors() and not form.name.errors


def test_api_refusal_of_an_empty_string_lands_on_that_field(app, company):
    form = _refusal(app, company, {"name": "X Kft.", "city": "", "is_customer": True})
    assert form.city.errors and not form.name.errors and not form.form_errors


def test_search_from_htmx_gets_only_the_list_fragment(client, company, api):
    make_partner(api, name="Fragmens Kft.")
    base = signed_in(client, company, "partners/")
    response = client.get(base + "?q=Fragmens", headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert "<html" not in html and 'id="partner-list"' in html and "Fragmens Kft." in html
