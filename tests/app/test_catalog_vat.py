"""VAT categories: list with read-only type, create with type (once), edit (spec 2.8, 4.8)."""
from __future__ import annotations

import re

from tests.app.conftest import csrf_token, signed_in

FORM_KEY = re.compile(r'name="form_key" type="hidden" value="([^"]+)"')


def post_new(client, page: str, key: str | None = None, **fields):
    html = client.get(page).get_data(as_text=True)
    data = {"csrf_token": csrf_token(html), "form_key": key or FORM_KEY.search(html).group(1),
            "name": "", "percent": "", "vat_area": "HU", "country": "HU", "type": "cost"}
    return client.post(page + "new", data={**data, **fields})


def categories(api) -> list[dict]:
    return api.get("/2/accounting/vat-categories/").json()


def test_list_shows_each_type_as_text_not_as_an_input(client, company):
    html = client.get(signed_in(client, company, "vat-categories/")).get_data(as_text=True)
    listing = html.split('id="vat-list-title"')[1]
    assert "Revenue" in listing and "Cost" in listing
    assert 'name="type"' not in listing


def test_create_sends_the_chosen_type_and_shows_it(client, company, api, sandbox_log):
    page = signed_in(client, company, "vat-categories/")
    sandbox_log.reset()
    response = post_new(client, page, name="12% bevétel", percent="12,5", type="revenue")
    assert response.status_code == 303
    [sent] = sandbox_log.entries(company_id=company.id, method="POST",
                                 path="/2/accounting/vat-categories/create")
    assert sent["body"] == {"name": "12% bevétel", "percent": 12.5, "vat_area": "HU",
                            "country": "HU", "type": "revenue"}
    created = next(c for c in categories(api) if c["name"] == "12% bevétel")
    assert created["type"] == "revenue"
    row = client.get(page).get_data(as_text=True).split(f'data-entry-id="{created["id"]}"')[1]
    assert "Revenue" in row.split("</tr>")[0]


def test_double_submit_creates_one_category(client, company, api):
    page = signed_in(client, company, "vat-categories/")
    html = client.get(page).get_data(as_text=True)
    key = FORM_KEY.search(html).group(1)
    before = len(categories(api))
    for _ in range(2):
        assert post_new(client, page, key, name="Egyszeri", percent="7").status_code == 303
    assert len(categories(api)) == before + 1


def test_invalid_rate_stays_on_its_field_and_nothing_is_sent(client, company, sandbox_log):
    page = signed_in(client, company, "vat-categories/")
    sandbox_log.reset()
    response = post_new(client, page, name="Rossz", percent="120")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Enter a percentage between 0 and 100" in html and 'value="Rossz"' in html
    assert sandbox_log.entries(company_id=company.id, method="POST") == []


def test_edit_changes_name_rate_and_type(client, company, api, sandbox_log):
    page = signed_in(client, company, "vat-categories/")
    target = next(c for c in categories(api) if c["name"] == "18%" and c["type"] == "cost")
    html = client.get(f"{page}{target['id']}/edit").get_data(as_text=True)
    assert 'value="18"' in html
    sandbox_log.reset()
    response = client.post(f"{page}{target['id']}/edit", data={
        "csrf_token": csrf_token(html), "name": "18% (módosított)", "percent": "18",
        "vat_area": "HU", "country": "HU", "type": "revenue"})
    assert response.status_code == 303
    assert sandbox_log.entries(company_id=company.id, method="POST")[0]["path"] == (
        f"/2/accounting/vat-categories/update/{target['id']}/")
    stored = next(c for c in categories(api) if c["id"] == target["id"])
    assert stored["name"] == "18% (módosított)" and stored["type"] == "revenue"
    assert "18% (módosított)" in client.get(page).get_data(as_text=True)


def test_edit_of_an_unknown_category_is_a_404(client, company):
    base = signed_in(client, company, "vat-categories/")
    assert client.get(f"{base}999999/edit").status_code == 404


def test_api_refusal_lands_on_its_field(app, company):
    from app.catalog import forms, service
    from app.upstream import ValidationError, make_client

    with app.test_request_context():
        form = forms.VatForm(meta={"csrf": False}, data={"name": "X", "percent": "5"})
        try:
            service.create_vat(make_client(company.id, company.tokens["admin"]),
                              {"name": "X", "percent": 5, "type": "both"})
        except ValidationError as exc:
            form.place(exc)
    assert form.type.errors and not form.form_errors


def test_a_category_made_elsewhere_after_caching_can_be_edited(client, company, api):
    page = signed_in(client, company, "vat-categories/")
    client.get(page)  # the list is now cached
    made = api.post("/2/accounting/vat-categories/create/",
                    json={"name": "Máshol készült", "percent": 9}).json()
    category_id = made["created_vat_categories"][0]["id"]
    html = client.get(f"{page}{category_id}/edit").get_data(as_text=True)
    assert 'value="Máshol készült"' in html
