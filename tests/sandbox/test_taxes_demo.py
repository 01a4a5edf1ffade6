"""Demo data: twelve months of taxes and salaries in the seeded sandbox."""
import pytest
import requests

from sandbox.core.server import start


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """A demo-seeded sandbox and a GET helper with the demo admin token."""
    server, url = start(port=0, db_path=str(tmp_path_factory.mktemp("demo") / "demo.db"),
                        seed="demo")

    def get(path, token="demo-admin", **params):
        resp = requests.get(f"{url}{path}", params=params, timeout=30,
                            headers={"Authorization": f"Token {token}"})
        assert resp.status_code == 200, resp.text
        return resp.json()

    yield get
    server.shutdown()


def _records(body, key):
    return [r for m in body[f"monthly_{key}"] for r in m[key]]


def test_demo_taxes_cover_twelve_payment_months(demo):
    months = demo("/2/monthly-taxes/")["monthly_taxes"]
    assert len(months) == 12 and all(m["month"].endswith("-01") for m in months)
    assert months[0]["paid_status"] == 1 and months[-1]["paid_status"] == 2


def test_demo_taxes_mix_codes_named_taxes_and_synced_sources(demo):
    taxes = _records(demo("/2/monthly-taxes/", fields="taxes"), "taxes")
    assert {"103", "104", "125"} <= {t["code"] for t in taxes}
    assert any(t["code"] is None and t["name"] and t["account_number"] for t in taxes)
    assert {"manual", "nav", "kulcs-ber"} <= {t["source"] for t in taxes}
    assert {1, 2, 3} <= {t["paid_status"] for t in taxes}


def test_demo_salaries_have_one_tax_number_per_month(demo):
    body = demo("/2/monthly-salaries/", fields="salaries")
    for month in body["monthly_salaries"]:
        numbers = [s["tax_number"] for s in month["salaries"]]
        assert len(numbers) == len(set(numbers)) == 5 and month["due_at"]


def test_demo_second_company_has_its_own_kiva_taxes(demo):
    taxes = _records(demo("/2/monthly-taxes/", token="demo-admin-2", fields="taxes"), "taxes")
    assert any("KIVA" in (t["name"] or "") for t in taxes)
    assert len(demo("/2/monthly-salaries/", token="demo-admin-2")["monthly_salaries"]) == 12
