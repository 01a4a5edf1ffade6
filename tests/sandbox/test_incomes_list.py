"""GET /1/incomes: envelope, lookup tables, pagination, every filter, ordering, 7 (dates)."""
import pytest
from conftest import Api, create_company
from incomes_support import listing, make_income, numbers, read_catalogue


@pytest.fixture
def cat(sandbox_db_path, company):
    """The test company's catalogue ids."""
    return read_catalogue(sandbox_db_path, company.id)


@pytest.fixture(scope="module")
def shared(sandbox_url, sandbox_db_path):
    """One company for the read-only tests of this module (saves a company per test)."""
    company = create_company(sandbox_url)
    return Api(sandbox_url, company), read_catalogue(sandbox_db_path, company.id)


@pytest.fixture
def sapi(shared, sample) -> Api:
    """Client of the shared company that holds the sample."""
    return shared[0]


@pytest.fixture
def scat(shared):
    """Catalogue of the shared company."""
    return shared[1]


@pytest.fixture(scope="module")
def sample(shared):
    """Five incomes with distinct dates, states and partners."""
    api, cat = shared
    eur = cat.currencies["EUR"]
    rows = [
        dict(invoice_number="A-1", type=2, issued_at="2025-01-10", fulfilled_at="2025-01-08",
             due_at="2025-01-25", partner_name="Alfa Kft.", gross_amount="100.00",
             net_amount="78.74", needs_review=True, tags=[cat.tags[0]]),
        dict(invoice_number="B-2", type=1, source="szamlazz.hu", issued_at="2025-02-10",
             fulfilled_at="2025-02-09", due_at="2099-02-25", partner_name="Béta Bt.",
             gross_amount="300.00", net_amount="236.22", currency=eur, exchange_rate="400"),
        dict(invoice_number="C-3", type=6, issued_at="2025-03-10", fulfilled_at="2025-03-10",
             due_at="2025-03-10", partner_name="Cenzor Zrt.", gross_amount="200.00",
             net_amount="157.48", needs_review=True, review_done=True,
             payments=[{"paid_at": "2025-03-10", "amount": "200.00"}]),
        dict(invoice_number="D-4", type=7, issued_at="2025-04-10", fulfilled_at="2025-04-01",
             due_at="2025-04-30", partner_name="Alfa Kft.", gross_amount="400.00",
             net_amount="314.96", payments=[{"paid_at": "2025-04-12", "amount": "100.00"}]),
        dict(invoice_number="E-5", type=2, issued_at="2025-05-10", fulfilled_at="2025-05-10",
             due_at="2025-05-30", partner_name="Epszilon Kft.", gross_amount="500.00",
             net_amount="393.70", is_cancelled=True),
    ]
    return {row["invoice_number"]: make_income(api, **row) for row in rows}


def test_list_envelope_is_page_number_style_with_nested_results(sapi):
    body = listing(sapi)
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 5 and body["next"] is None and body["previous"] is None
    assert {"incomes", "revenue_types", "tags", "partners", "currencies"} <= set(body["results"])


def test_list_default_ordering_is_newest_issued_first(sapi):
    assert numbers(listing(sapi)) == ["E-5", "D-4", "C-3", "B-2", "A-1"]


def test_list_records_carry_references_as_integer_ids(sapi, scat):
    record = listing(sapi, invoice_number="B-2")["results"]["incomes"][0]
    assert record["currency"] == scat.currencies["EUR"]
    assert isinstance(record["assignments"][0]["revenue_type"], int)
    assert record["exchange_rate"] == "400.000000"
    expected = {"id", "partner", "partner_name", "invoice_number", "issued_at", "fulfilled_at",
                "due_at", "net_amount", "vat_amount", "gross_amount", "vat_area", "currency",
                "exchange_rate", "payment_method", "paid_status", "invoice_type",
                "is_cancelled", "referred_invoice_number", "assignments", "tags", "simple_tags",
                "accounting_period_start", "accounting_period_end", "planned_payment_date",
                "created_at", "partner_zip_code", "partner_city", "partner_address",
                "partner_country", "items", "type"}
    assert expected <= set(record)


def test_list_lookup_tables_cover_the_ids_on_the_page(sapi, scat):
    results = listing(sapi)["results"]
    type_ids = {a["revenue_type"] for r in results["incomes"] for a in r["assignments"]}
    assert {t["id"] for t in results["revenue_types"]} == type_ids
    assert {t["id"] for t in results["tags"]} == {scat.tags[0]}
    assert {c["code"] for c in results["currencies"]} == {"HUF", "EUR"}
    assert all(set(t) == {"id", "name"} for t in results["revenue_types"] + results["tags"])


def test_list_items_carry_vat_percent_as_float(api, cat):
    make_income(api, type=2, items=[{"name": "Sor", "unit_price": "100", "vat_percent": 27}])
    item = listing(api)["results"]["incomes"][0]["items"][0]
    assert item["vat_percent"] == 27.0 and isinstance(item["vat_percent"], float)


def test_list_assignment_vat_is_an_object_with_float_percent(api, cat):
    make_income(api, type=2, assignments=[{"revenue_type": cat.revenue_types[0],
                                           "vat": cat.vats[1]}])
    vat = listing(api)["results"]["incomes"][0]["assignments"][0]["vat"]
    assert vat["id"] == cat.vats[1] and vat["percent"] == 18.0


def test_list_pagination_links_are_absolute_urls(sapi):
    first = listing(sapi, page_size=2)
    assert first["count"] == 5 and len(first["results"]["incomes"]) == 2
    assert first["next"].startswith("http://") and "page=2" in first["next"]
    url = first["next"].replace("page=2", "page=3")
    third = sapi.get(url.removeprefix(sapi.base)).json()
    assert numbers(third) == ["A-1"] and third["next"] is None
    assert "page=2" in third["previous"]


def test_list_default_page_size_is_20(api):
    for i in range(21):
        make_income(api, type=2, invoice_number=f"P-{i:02d}")
    body = listing(api)
    assert len(body["results"]["incomes"]) == 20 and body["next"]


@pytest.mark.parametrize(("params", "expected"), [
    ({"from_date": "2025-02-01", "to_date": "2025-04-10"}, ["D-4", "C-3", "B-2"]),
    ({"from_date": "2025-04-05", "date_field": "fulfilled_at"}, ["E-5"]),
    ({"to_date": "2025-01-31", "date_field": "due_at"}, ["A-1"]),
    ({"issued_at_from": "2025-05-01"}, ["E-5"]),
    ({"fulfilled_at_to": "2025-01-31"}, ["A-1"]),
    ({"due_at_from": "2099-01-01"}, ["B-2"]),
    ({"paid_status": "1"}, ["B-2", "A-1"]),
    ({"paid_status": "2,3"}, ["E-5", "D-4", "C-3"]),
    ({"needs_review": "true", "review_done": "false"}, ["A-1"]),
    ({"review_done": "true"}, ["C-3"]),
    ({"is_cancelled": "true"}, ["E-5"]),
    ({"type": "6,7"}, ["D-4", "C-3"]),
    ({"invoice_number": "C-3"}, ["C-3"]),
    ({"search": "alfa"}, ["D-4", "A-1"]),
    ({"search": "b-2"}, ["B-2"]),
    ({"currency": "EUR"}, ["B-2"]),
    ({"source": "szamlazz.hu"}, ["B-2"]),
    ({"is_overdue": "true"}, ["D-4", "A-1"]),
    ({"invoice_type": "0", "type": "1"}, ["B-2"]),
])
def test_list_filters(sapi, params, expected):
    assert numbers(listing(sapi, **params)) == expected


def test_list_partner_filter_takes_a_partner_id(api, cat):
    partner = api.post("/2/partners/create/", json={"name": "Zéta Kft.",
                                                    "is_customer": True}).json()
    make_income(api, type=2, invoice_number="Z-1", partner_id=partner["id"])
    make_income(api, type=2, invoice_number="Y-1")
    body = listing(api, partner=partner["id"])
    assert numbers(body) == ["Z-1"]
    assert body["results"]["partners"][0]["id"] == partner["id"]


def test_list_currency_filter_takes_an_id(sapi, scat):
    assert numbers(listing(sapi, currency=scat.currencies["EUR"])) == ["B-2"]


@pytest.mark.parametrize(("ordering", "expected"), [
    ("issued_at", ["A-1", "B-2", "C-3", "D-4", "E-5"]),
    ("-gross_amount", ["E-5", "D-4", "B-2", "C-3", "A-1"]),
    ("partner_name,-issued_at", ["D-4", "A-1", "B-2", "C-3", "E-5"]),
    ("invoice_number", ["A-1", "B-2", "C-3", "D-4", "E-5"]),
    ("-fulfilled_at", ["E-5", "D-4", "C-3", "B-2", "A-1"]),
    ("due_at", ["A-1", "C-3", "D-4", "E-5", "B-2"]),
    ("-id", ["E-5", "D-4", "C-3", "B-2", "A-1"]),
    ("created_at", ["A-1", "B-2", "C-3", "D-4", "E-5"]),
    ("unknown_field", ["E-5", "D-4", "C-3", "B-2", "A-1"]),
])
def test_list_ordering(sapi, ordering, expected):
    assert numbers(listing(sapi, ordering=ordering)) == expected


@pytest.mark.parametrize("param", ["from_date", "to_date", "issued_at_from", "due_at_to"])
def test_list_invalid_date_format_returns_400(sapi, param):
    resp = sapi.get("/1/incomes", params={param: "2025-13-45"})
    assert resp.status_code == 400
    assert param in resp.json()


def test_list_unencoded_plus_in_timestamp_offset_returns_400(sapi):
    bad = sapi.get("/1/incomes?from_date=2025-03-01T00:00:00+01:00")
    assert bad.status_code == 400 and "from_date" in bad.json()
    good = sapi.get("/1/incomes?from_date=2025-03-01T00:00:00%2B01:00")
    assert good.status_code == 200 and numbers(good.json()) == ["E-5", "D-4", "C-3"]


@pytest.mark.parametrize(("param", "value"), [("needs_review", "maybe"), ("paid_status", "x"),
                                              ("date_field", "paid_at")])
def test_list_invalid_filter_values_return_400(sapi, param, value):
    assert sapi.get("/1/incomes", params={param: value}).status_code == 400


def test_list_path_works_with_and_without_trailing_slash(sapi):
    assert listing(sapi)["count"] == sapi.get("/1/incomes/").json()["count"] == 5


def test_list_shows_only_the_token_company_incomes(sapi, make_company, sandbox_url):
    from conftest import Api

    other = Api(sandbox_url, make_company())
    assert other.get("/1/incomes").json()["count"] == 0


def test_list_requires_authentication(sapi):
    assert sapi.get("/1/incomes", token=None).status_code == 401
