"""The salaries create grid: one tax identification number per payment month, checked first."""
from __future__ import annotations

import pytest

from app.taxes import flow
from app.taxes.forms import Row
from app.taxes.present import SALARIES
from app.upstream import ValidationError, make_client
from tests.app.conftest import signed_in
from tests.app.taxes_support import (
    ACCOUNT,
    TAX_NUMBER,
    cell,
    create,
    grid,
    months,
    rows,
    writes,
)

CREATE = "/2/salaries/create/"
OTHER_NUMBER = "8498765439"


def _salary(month="2024-03", number=TAX_NUMBER, name="Kovács Anna", amount="420 000"):
    return {"month": month, "amount": amount, "name": name, "account_number": ACCOUNT,
            "tax_number": number}


def _post(client, base: str, *items):
    return client.post(base + "new", data={**grid(client, base + "new"), **rows(*items)})


def test_salaries_of_several_employees_are_created_in_one_request(client, company, api,
                                                                 sandbox_log):
    base = signed_in(client, company, "salaries/")
    response = _post(client, base, _salary(), _salary(number=OTHER_NUMBER, name="Szabó Péter"),
                     _salary("2024-04"))
    assert response.status_code == 303
    assert len(writes(sandbox_log, company.id, CREATE)) == 1
    listed = months(api, "salaries")
    assert listed["2024-03"]["amount"] == "840000.00" and listed["2024-04"]["count"] == 1
    assert "currency" not in writes(sandbox_log, company.id, CREATE)[0]["body"][0]


def test_a_second_salary_for_one_tax_number_in_a_month_is_refused_before_sending(
        client, company, sandbox_log):
    base = signed_in(client, company, "salaries/")
    response = _post(client, base, _salary(), _salary(number="84123-45673", name="Again"))
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "already has a salary in this payment month" in cell(html, "1", "tax_number")
    assert "field__errors" not in cell(html, "0", "tax_number")
    assert writes(sandbox_log, company.id, CREATE) == []


def test_a_tax_number_already_paid_that_month_is_refused_before_sending(client, company, api,
                                                                       sandbox_log):
    create(api, _salary(amount="1"), kind="salaries")
    base = signed_in(client, company, "salaries/")
    sandbox_log.reset()
    response = _post(client, base, _salary("2024-04"), _salary())
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "already has a salary" in cell(html, "1", "tax_number")
    assert "already has a salary" not in cell(html, "0", "tax_number")
    assert writes(sandbox_log, company.id, CREATE) == []
    checks = sandbox_log.entries(company_id=company.id, path="/2/monthly-salaries/")
    assert len(checks) == 1
    assert checks[0]["args"]["from_date"] == ["2024-03-01"]
    assert checks[0]["args"]["to_date"] == ["2024-04-30"]


def test_a_grid_sent_reads_its_months_once_for_its_check_and_its_twins(client, company, api,
                                                                       sandbox_log):
    base = signed_in(client, company, "salaries/")
    sandbox_log.reset()
    assert _post(client, base, _salary("2024-04"), _salary()).status_code == 303
    checks = sandbox_log.entries(company_id=company.id, path="/2/monthly-salaries/")
    assert len(checks) == 1 and len(writes(sandbox_log, company.id, CREATE)) == 1


def test_tax_number_name_and_account_are_required(client, company, sandbox_log):
    base = signed_in(client, company, "salaries/")
    response = _post(client, base, {"month": "2024-03", "amount": "100"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    for name in ("tax_number", "name", "account_number"):
        assert "This field is required." in cell(html, "0", name)
    assert writes(sandbox_log, company.id, CREATE) == []


def test_the_salary_grid_has_no_tax_code_column(client, company):
    html = client.get(signed_in(client, company, "salaries/") + "new").get_data(as_text=True)
    assert 'name="rows-0-tax_number"' in html and 'name="rows-0-due_at"' in html
    assert 'name="rows-0-code"' not in html


def test_upstream_refuses_a_second_tax_number_in_a_month_on_that_row(app, company, api):
    create(api, _salary(amount="420000"), kind="salaries")
    sent = [Row("0", SALARIES.fields), Row("1", SALARIES.fields)]
    with app.test_request_context(headers={"Accept-Language": "hu"}):
        client = make_client(company.id, company.tokens["admin"])
        with pytest.raises(ValidationError) as refused:
            client.post(CREATE, json=[{**_salary("2024-05"), "amount": "1"},
                                      {**_salary(), "amount": "1"}])
        assert flow.place(refused.value, sent) == []
    assert not sent[0].has_errors
    assert sent[1].errors["tax_number"] == [
        "Ehhez az adóazonosító jelhez ebben a hónapban már van bér."]
    assert len(months(api, "salaries")) == 1
