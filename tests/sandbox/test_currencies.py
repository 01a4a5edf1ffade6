"""Spec 2.7 and 4.9: the currency catalogue."""


def test_currency_catalogue_is_a_plain_list_of_id_and_iso_code(api):
    body = api.get("/2/currencies/").json()
    assert isinstance(body, list)
    codes = {row["code"]: row["id"] for row in body}
    assert {"HUF", "EUR", "USD"} <= set(codes)
    assert all(isinstance(row["id"], int) and len(row["code"]) == 3 for row in body)


def test_currency_ids_are_those_of_income_payloads(api):
    codes = {row["code"]: row["id"] for row in api.get("/2/currencies/").json()}
    income = api.post("/2/incomes/create/", json={
        "invoice_number": "C-1", "issued_at": "2025-01-01", "net_amount": "10",
        "gross_amount": "10", "currency": codes["EUR"], "exchange_rate": "400",
        "assignments": [{"revenue_type": _first_revenue_type(api), "net_amount": "10",
                         "gross_amount": "10"}]}).json()
    listed = api.get("/1/incomes?invoice_number=C-1").json()["results"]["incomes"][0]
    assert listed["currency"] == codes["EUR"] == income["currency"]["id"]


def _first_revenue_type(api) -> int:
    import requests

    made = requests.post(f"{api.base}/_sandbox/incomes/", json={"company_id": api.company.id},
                         timeout=10).json()
    return made["assignments"][0]["revenue_type"]["id"]


def test_currency_catalogue_works_without_trailing_slash_and_needs_a_token(api):
    assert api.get("/2/currencies").status_code == 200
    assert api.get("/2/currencies/", token=None).status_code == 401
