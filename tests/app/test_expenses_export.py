"""CSV export of the expense list: the current filter, every page, BOM, `;` in Hungarian."""
from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.expenses import views
from tests.app.conftest import signed_in
from tests.app.expenses_helpers import catalogue, list_args, make_expense, row
from tests.app.list_pages import csv_rows


def _rows(response) -> tuple[str, list[list[str]]]:
    text = response.get_data().decode("utf-8")
    return text, csv_rows(text)


def test_export_follows_every_page_of_the_current_filter(client, company, api, sandbox_log,
                                                         monkeypatch):
    ids = catalogue(api)
    for number in range(5):
        make_expense(api, ids, invoice_number=f"OPEN-{number}", paid_status=1)
    make_expense(api, ids, invoice_number="PAID-9", paid_status=2)
    monkeypatch.setattr(views, "EXPORT_PAGE_SIZE", 2)
    base = signed_in(client, company, "expenses/")
    sandbox_log.reset()
    response = client.get(base + "export?is_paid=false&cursor=abc")
    _text, rows = _rows(response)
    numbers = sorted(r[1] for r in rows[1:])
    assert numbers == [f"OPEN-{n}" for n in range(5)]
    sent = list_args(sandbox_log, company.id)
    assert len(sent) == 3 and all(args["is_paid"] == ["false"] for args in sent)
    assert "cursor" not in sent[0] and all("cursor" in args for args in sent[1:])


def test_export_in_hungarian_has_bom_semicolons_and_decimal_commas(client, company, api):
    ids = catalogue(api)
    make_expense(api, invoice_number="HU-1", partner_name="Gamma Bt.",
                 assignments=[row(ids, "1000.50", "270.14", "1270.64"), row(ids)])
    base = signed_in(client, company, "expenses/")
    response = client.get(base + "export", headers={"Accept-Language": "hu"})
    text, rows = _rows(response)
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    assert text.startswith("\ufeff") and ";" in text.splitlines()[0]
    assert rows[0][0] == "Iktatószám"
    line = next(r for r in rows if r[1] == "HU-1")
    assert line[2] == "Gamma Bt." and line[7:10] == ["2000,50", "540,14", "2540,64"]
    assert line[10] == "HUF" and "Anyagköltség" in line[13]


def test_export_in_english_uses_commas_and_points(client, company, api):
    make_expense(api, catalogue(api), invoice_number="EN-1")
    base = signed_in(client, company, "expenses/")
    text, rows = _rows(client.get(base + "export", headers={"Accept-Language": "en"}))
    assert rows[0][0] == "Filing number"
    assert next(r for r in rows if r[1] == "EN-1")[9] == "1270.00"


def test_export_with_a_too_old_changed_since_shows_the_list_message(client, company, api):
    base = signed_in(client, company, "expenses/")
    response = client.get(base + "export?since=2001-01-01T00:00&tz=UTC")
    assert response.status_code == 400
    assert 'id="full-reload"' in response.get_data(as_text=True)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moment=st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 12, 31),
                           timezones=st.just(UTC)))
def test_a_created_moment_is_exported_as_its_day_in_budapest(client, company, api, moment):
    made = make_expense(api, catalogue(api), invoice_number=f"AT-{moment.timestamp():.0f}",
                        created_at=moment.isoformat())
    base = signed_in(client, company, "expenses/")
    _text, rows = _rows(client.get(base + "export", headers={"Accept-Language": "en"}))
    created = rows[0].index("Created")
    line = next(r for r in rows if r[1] == made["invoice_number"])
    assert line[created] == moment.astimezone(ZoneInfo("Europe/Budapest")).date().isoformat()
