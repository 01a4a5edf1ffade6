"""Exchange rates are read as DRF's DecimalField(14, 6) on incomes, expenses and taxes: a rate
written with six decimals or fewer is kept exactly, one with more is refused and never rounded."""
import itertools
from decimal import Decimal

import expense_support
import pytest
from expense_support import make_expense
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from incomes_support import create, read_catalogue

ecat = expense_support.ecat  # a fixture, found by name

PLACES_MSG = "Ensure that there are no more than 6 decimal places."
DIGITS_MSG = "Ensure that there are no more than 14 digits in total."
# Positive rates with up to eight whole digits and up to eight decimals: some kept, some refused.
RATES = st.decimals(min_value=Decimal("0.00000001"), max_value=Decimal("99999999.99999999"),
                    places=8, allow_nan=False, allow_infinity=False)
NUMBERS = itertools.count(1)


@pytest.fixture
def cat(sandbox_db_path, company):
    """The test company's catalogue ids."""
    return read_catalogue(sandbox_db_path, company.id)


def _kept_or_refused(resp, rate: Decimal, before: Decimal, read_back) -> None:
    if -rate.as_tuple().exponent <= 6:  # decimals as written: DRF counts trailing zeros
        assert resp.status_code == 200, (rate, resp.text)
        assert Decimal(read_back()) == rate
    else:
        assert resp.status_code == 400, (rate, resp.text)
        assert resp.json()["exchange_rate"] in ([PLACES_MSG], [DIGITS_MSG])
        assert Decimal(read_back()) == before


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rate=RATES)
def test_an_expense_rate_is_kept_exactly_or_refused(api, ecat, rate):
    expense = make_expense(api, ecat, currency=2, exchange_rate="400")
    path = f"/2/expenses/{expense['id']}/"
    resp = api.patch(f"{path}update/", json={"exchange_rate": str(rate)})
    _kept_or_refused(resp, rate, Decimal("400"), lambda: api.get(path).json()["exchange_rate"])


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rate=RATES)
def test_an_income_rate_is_kept_exactly_or_refused(api, cat, rate):
    income = create(api, cat, f"RATE-{next(NUMBERS)}", currency=cat.currencies["EUR"],
                    exchange_rate="400")
    path = f"/1/incomes/{income['id']}/"
    resp = api.patch(f"/2/incomes/{income['id']}/update/", json={"exchange_rate": str(rate)})
    _kept_or_refused(resp, rate, Decimal("400"), lambda: api.get(path).json()["exchange_rate"])


@pytest.mark.parametrize(("rate", "message"), [
    ("395.1234567", PLACES_MSG),
    ("123456789", "Ensure that there are no more than 8 digits before the decimal point."),
    ("0", "Ensure this value is greater than 0."),
    (None, "This field may not be null."),
])
def test_a_tax_rate_is_refused_with_drf_s_message(api, rate, message):
    item = {"title": "2026-09-01", "amount": "1", "code": "104", "exchange_rate": rate}
    resp = api.post("/2/taxes/create/", json=[item])
    assert resp.status_code == 400, resp.text
    assert message in str(resp.json())


def test_a_tax_rate_with_six_decimals_reads_back_exactly(api):
    item = {"title": "2026-09-01", "amount": "1", "code": "104", "exchange_rate": "395.123456"}
    resp = api.post("/2/taxes/create/", json=[item])
    assert resp.status_code in (200, 201), resp.text
    months = api.get("/2/monthly-taxes/", params={"fields": "taxes"}).json()["monthly_taxes"]
    rates = [t["exchange_rate"] for m in months for t in m["taxes"]]
    assert "395.123456" in rates
