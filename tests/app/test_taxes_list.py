"""The monthly lists: payment months, totals, record detail, filters and their refusals."""
from __future__ import annotations

import re

from app.taxes import present
from tests.app.conftest import signed_in
from tests.app.taxes_support import (
    ACCOUNT,
    TAX_NUMBER,
    create,
    sync,
    tag_ids,
    upstream_paths,
)


def _month_block(html: str, month: str) -> str:
    start = html.index(f'data-month="{month}"')
    return html[start:html.index("</details>", start)]


def _summary(html: str, month: str) -> str:
    block = _month_block(html, month)
    return block[:block.index("</summary>")]


def test_months_are_payment_months_with_totals_and_each_record_with_detail(client, company,
                                                                            api):
    tag = tag_ids(api)[0]
    tag_name = api.get("/2/tags/").json()[0]["name"]
    create(api, {"month": "2024-03", "amount": "150000", "code": "103",
                 "description": "Márciusi SZJA", "tags": [tag]},
           {"month": "2024-03", "amount": "25000.50", "name": "Helyi iparűzési adó",
            "account_number": ACCOUNT, "simple_tags": [tag]},
           {"month": "2024-04", "amount": "7000", "code": "104"})
    sync(api, {"month": "2024-04", "amount": "1000", "code": "125"}, source="nav")
    html = client.get(signed_in(client, company, "taxes/")).get_data(as_text=True)
    assert "Grouped by payment month" in html
    march, april = _summary(html, "2024-03"), _summary(html, "2024-04")
    assert "March 2024" in march and 'month__count muted">2<' in march
    assert "HUF\xa0175,000.50" in march  # 150,000 + 25,000.50: the fillér shown, not rounded
    assert "April 2024" in april and "HUF\xa08,000" in april and "Unpaid" in april
    block = _month_block(html, "2024-03")
    assert "Márciusi SZJA" in block and tag_name in block and "badge--simple" in block
    assert ACCOUNT in block and "Entered by hand" in block
    assert ">NAV<" in _month_block(html, "2024-04")
    assert "Total of the listed months" in html and "HUF\xa0183,000.50" in html


def test_amounts_are_right_aligned_and_forints_are_whole_unless_they_carry_filler(client,
                                                                                 company, api):
    create(api, {"month": "2024-03", "amount": "1234.50", "code": "103"},
           {"month": "2024-04", "amount": "2000", "code": "103"})
    html = client.get(signed_in(client, company, "taxes/")).get_data(as_text=True)
    assert re.search(r'<td class="num"><span class="num">HUF\xa01,234.50</span></td>', html)
    assert re.search(r'<td class="num"><span class="num">HUF\xa02,000</span></td>', html)
    assert "1,235" not in html and "2,000.00" not in html


def test_the_list_is_one_v2_listing_call_with_record_detail(client, company, api,
                                                             sandbox_log):
    create(api, {"month": "2024-03", "amount": "100", "code": "103"})
    base = signed_in(client, company, "taxes/")
    sandbox_log.reset()
    assert client.get(base).status_code == 200
    listing = sandbox_log.entries(company_id=company.id, path="/2/monthly-taxes/")
    assert len(listing) == 1 and listing[0]["args"]["fields"] == ["taxes"]
    assert all(path.startswith("/2/") for path in upstream_paths(sandbox_log, company.id))


def test_salaries_show_tax_number_and_due_date_per_month(client, company, api):
    create(api, {"month": "2024-05", "amount": "420000", "name": "Kovács Anna",
                 "account_number": ACCOUNT, "tax_number": TAX_NUMBER}, kind="salaries")
    html = client.get(signed_in(client, company, "salaries/")).get_data(as_text=True)
    block = _month_block(html, "2024-05")
    assert "Kovács Anna" in block and TAX_NUMBER in block and 'month__count muted">1<' in block
    assert "May 10, 2024" in block and "HUF\xa0420,000" in block


def test_filters_become_the_upstream_query(client, company, sandbox_log):
    base = signed_in(client, company, "taxes/")
    response = client.get(base + "?from=2024-03&to=2024-04&paid=no&partial=yes&source=manual")
    assert response.status_code == 200
    sent = sandbox_log.entries(company_id=company.id, path="/2/monthly-taxes/")[-1]["args"]
    assert sent == {"from_date": ["2024-03-01"], "to_date": ["2024-04-30"],
                    "is_paid": ["false"], "is_installment": ["true"], "source": ["manual"],
                    "fields": ["taxes"]}


def test_any_integration_asks_for_every_known_integration_label(client, company, api,
                                                                sandbox_log):
    create(api, {"month": "2024-03", "amount": "100", "code": "103"})
    sync(api, {"month": "2024-03", "amount": "5", "code": "104"}, source="kulcs-ber")
    base = signed_in(client, company, "taxes/")
    html = client.get(base + "?source=integration").get_data(as_text=True)
    sent = sandbox_log.entries(company_id=company.id, path="/2/monthly-taxes/")[-1]["args"]
    assert sent["source"] == [",".join(present.INTEGRATIONS)]
    assert 'month__count muted">1<' in _summary(html, "2024-03") and "Kulcs-Bér" in html


def test_the_source_filter_offers_only_known_values(client, company):
    html = client.get(signed_in(client, company, "taxes/")).get_data(as_text=True)
    select = html[html.index('name="source"'):]
    select = select[:select.index("</select>")]
    values = re.findall(r'<option[^>]*value="([^"]*)"', select)
    assert values == ["", "manual", "integration", *present.INTEGRATIONS]


def test_an_unknown_source_in_the_url_is_refused_without_asking_the_upstream(
        client, company, sandbox_log):
    response = client.get(signed_in(client, company, "taxes/") + "?source=bogus")
    assert response.status_code == 400
    assert "Pick a source from the list." in response.get_data(as_text=True)
    assert sandbox_log.entries(company_id=company.id, path="/2/monthly-taxes/") == []


def test_the_upstreams_400_on_a_source_is_shown_as_a_message(client, company, monkeypatch):
    # A label the frontend knows but the upstream does not (yet, or any more).
    monkeypatch.setitem(present.INTEGRATIONS, "retired-payroll", "Retired payroll")
    response = client.get(signed_in(client, company, "taxes/") + "?source=retired-payroll")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "is not one of the available choices" in html and "list-problems" in html
    field = html.split('id="source"')[0].rsplit('<div class="field', 1)[1]
    assert "has-error" in field, "the refusal marks the Source filter itself"


def test_upstream_rejects_an_unrecognised_source_filter(api):
    response = api.get("/2/monthly-taxes/", params={"source": "bogus"})
    assert response.status_code == 400 and "source" in response.json()


def test_an_unreadable_month_is_refused_before_asking(client, company, sandbox_log):
    response = client.get(signed_in(client, company, "taxes/") + "?from=March")
    assert response.status_code == 400
    assert "Enter a month, e.g. March 2024." in response.get_data(as_text=True)
    assert sandbox_log.entries(company_id=company.id, path="/2/monthly-taxes/") == []


def test_htmx_filter_gets_only_the_months_fragment(client, company, api):
    create(api, {"month": "2024-03", "amount": "100", "code": "103"})
    response = client.get(signed_in(client, company, "taxes/") + "?paid=no",
                          headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith("<section") and 'id="tax-months"' in html
    assert "<html" not in html


def test_with_many_months_only_the_newest_starts_open(client, company, api):
    create(api, *[{"month": f"2024-0{n}", "amount": "1", "code": "103"} for n in range(1, 6)])
    html = client.get(signed_in(client, company, "taxes/")).get_data(as_text=True)
    opened = re.findall(r'data-month="([\d-]+)" open', html)
    assert opened == ["2024-05"]
    html = client.get(signed_in(client, company, "taxes/") + "?open=2024-02").get_data(as_text=True)
    assert re.findall(r'data-month="([\d-]+)" open', html) == ["2024-02"]


def test_months_typed_in_the_pages_language_give_the_apis_rows_and_urls_keep_yyyy_mm(
        client, company, api):
    create(api, *[{"month": f"2024-{n:02d}", "amount": "100", "code": "103"}
                  for n in (2, 3, 4, 5)])
    listing = api.get("/2/monthly-taxes/", params={
        "from_date": "2024-03-01", "to_date": "2024-04-30", "fields": "taxes"}).json()
    wanted = {record["id"] for month in listing["monthly_taxes"] for record in month["taxes"]}
    base = signed_in(client, company, "taxes/")
    typed = {"hu": ("2024. március", "2024. 04."), "en": ("March 2024", "2024-04-17")}
    for language, (first, last) in typed.items():
        client.get(f"/lang/{language}")
        response = client.get(base, query_string={"from": first, "to": last},
                              headers={"HX-Request": "true"})
        html = response.get_data(as_text=True)
        assert response.status_code == 200, html[:300]
        assert {int(i) for i in re.findall(r'data-record-id="(\d+)"', html)} == wanted
        assert response.headers["HX-Push-Url"].endswith("?from=2024-03&to=2024-04")
    assert len(wanted) == 2
    client.get("/lang/en")


def test_the_month_filters_show_the_month_in_the_pages_words(client, company):
    base = signed_in(client, company, "taxes/")
    client.get("/lang/hu")
    html = client.get(base + "?from=2024-03&to=2024-11").get_data(as_text=True)
    assert 'value="2024. március"' in html and 'value="2024. november"' in html
    assert 'type="month"' not in html and 'data-month=""' in html
    client.get("/lang/en")
