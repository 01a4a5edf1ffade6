"""Spec 4.2 update rule 6 (VAT period), 2.2 vat_period fields, 7 row about the pair."""
import pytest
from conftest import Api
from incomes_support import detail, make_income


@pytest.fixture
def vat_api(make_company, sandbox_url) -> Api:
    """A company with enable_vat_period on."""
    return Api(sandbox_url, make_company(enable_vat_period=True))


def _patch(api, income_id, **body):
    return api.patch(f"/2/incomes/{income_id}/update/", json=body)


def test_vat_period_fields_are_editable_when_enabled_and_not_booked(vat_api, api):
    income = make_income(vat_api, type=2)
    assert {"vat_period_type", "vat_period_started_at"} <= set(income["editable_fields"])
    assert "vat_period_type" not in make_income(api, type=2)["editable_fields"]


def test_vat_period_type_without_started_at_is_rejected(vat_api):
    income = make_income(vat_api, type=2)
    resp = _patch(vat_api, income["id"], vat_period_type="monthly")
    assert resp.status_code == 400 and "non_field_errors" in resp.json()


def test_vat_period_started_at_without_type_is_rejected(vat_api):
    income = make_income(vat_api, type=2)
    assert _patch(vat_api, income["id"], vat_period_started_at="2025-02-10").status_code == 400


def test_vat_period_type_set_with_null_start_is_rejected(vat_api):
    income = make_income(vat_api, type=2)
    resp = _patch(vat_api, income["id"], vat_period_type="monthly", vat_period_started_at=None)
    assert resp.status_code == 400


def test_vat_period_start_is_rounded_down_to_month_start(vat_api):
    income = make_income(vat_api, type=2)
    body = _patch(vat_api, income["id"], vat_period_type="monthly",
                  vat_period_started_at="2025-02-17").json()
    assert body["vat_period_started_at"] == "2025-02-01"


def test_vat_period_start_is_rounded_down_to_quarter_start(vat_api):
    income = make_income(vat_api, type=2)
    body = _patch(vat_api, income["id"], vat_period_type="quarterly",
                  vat_period_started_at="2025-08-30").json()
    assert body["vat_period_started_at"] == "2025-07-01"


def test_vat_period_start_is_rounded_down_to_year_start(vat_api):
    income = make_income(vat_api, type=2)
    body = _patch(vat_api, income["id"], vat_period_type="yearly",
                  vat_period_started_at="2025-11-05").json()
    assert body["vat_period_started_at"] == "2025-01-01"


def test_vat_period_ended_at_is_returned_with_fields_accounting(vat_api):
    income = make_income(vat_api, type=2)
    _patch(vat_api, income["id"], vat_period_type="quarterly",
           vat_period_started_at="2024-11-30")
    body = detail(vat_api, income["id"], fields="accounting")
    assert body["vat_period_started_at"] == "2024-10-01"
    assert body["vat_period_ended_at"] == "2024-12-31"


def test_both_null_clears_the_vat_period(vat_api):
    income = make_income(vat_api, type=2)
    _patch(vat_api, income["id"], vat_period_type="monthly", vat_period_started_at="2025-02-01")
    body = _patch(vat_api, income["id"], vat_period_type=None,
                  vat_period_started_at=None).json()
    assert body["vat_period_type"] is None and body["vat_period_started_at"] is None


def test_vat_period_type_must_be_monthly_quarterly_or_yearly(vat_api):
    income = make_income(vat_api, type=2)
    resp = _patch(vat_api, income["id"], vat_period_type="weekly",
                  vat_period_started_at="2025-02-01")
    assert resp.status_code == 400 and "vat_period_type" in resp.json()


def test_vat_period_is_not_editable_when_setting_is_off(api):
    income = make_income(api, type=2)
    resp = _patch(api, income["id"], vat_period_type="monthly",
                  vat_period_started_at="2025-02-01")
    assert resp.status_code == 400 and "vat_period_type" in resp.json()


def test_vat_period_is_not_editable_on_booked_income(vat_api):
    income = make_income(vat_api, type=2, is_booked=True)
    assert "vat_period_type" not in income["editable_fields"]
    resp = _patch(vat_api, income["id"], vat_period_type="monthly",
                  vat_period_started_at="2025-02-01")
    assert resp.status_code == 400
    assert "vat_period_type" in resp.json()["not_editable_fields"]
