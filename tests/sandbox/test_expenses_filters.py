"""GET /2/expenses filters (spec 4.3 and its rules 1-3; spec 7 date-format and resync rows)."""
from datetime import UTC, datetime, timedelta

import expense_support
import pytest
from expense_support import assignment, listed_ids, make_expense

ecat = expense_support.ecat  # a fixture, found by name


def _at(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def base() -> datetime:
    """A whole minute ten days ago, in UTC."""
    return (datetime.now(UTC) - timedelta(days=10)).replace(second=0, microsecond=0)


@pytest.fixture
def two_updates(api, ecat, base):
    """Expense A updated at base, B two hours later."""
    a = make_expense(api, ecat, updated_at=_at(base))["id"]
    b = make_expense(api, ecat, updated_at=_at(base + timedelta(hours=2)))["id"]
    return a, b


@pytest.mark.parametrize(("param", "expected"), [
    ("is_paid=true", [2]), ("is_paid=false", [3, 1]),
    ("is_installment=true", [3]), ("is_installment=false", [2, 1])])
def test_is_paid_and_is_installment_filter_by_paid_status(api, ecat, param, expected):
    ids = {status: make_expense(api, ecat, paid_status=status)["id"] for status in (1, 2, 3)}
    assert listed_ids(api, param) == [ids[s] for s in expected]


def test_is_paid_with_a_non_boolean_value_is_400(api):
    resp = api.get("/2/expenses?is_paid=maybe")
    assert resp.status_code == 400 and "is_paid" in resp.json()


def test_updated_since_with_zone_selects_later_updates(api, two_updates, base):
    since = (base + timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M:%S") + "%2B02:00"
    assert listed_ids(api, f"updated_since={since}") == [two_updates[1]]


def test_updated_since_with_z_suffix_is_utc(api, two_updates, base):
    assert listed_ids(api, updated_since=_at(base + timedelta(hours=1))) == [two_updates[1]]


def test_updated_since_without_zone_is_read_as_utc(api, two_updates, base):
    since = (base + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%S")
    assert listed_ids(api, updated_since=since) == [two_updates[1]]


def test_updated_since_with_encoded_plus_offset_is_accepted(api, two_updates, base):
    since = (base + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M:%S")
    resp = api.get(f"/2/expenses?updated_since={since}%2B00:00")
    assert resp.status_code == 200
    assert [e["id"] for e in resp.json()["results"]["expenses"]] == [two_updates[1]]


def test_updated_since_with_raw_plus_is_invalid_date_format(api, base):
    since = base.strftime("%Y-%m-%dT%H:%M:%S") + "+02:00"
    resp = api.get(f"/2/expenses?updated_since={since}")
    assert resp.status_code == 400
    body = resp.json()
    assert body["code"] == "invalid_date_format"
    assert "%2B" in body["updated_since"][0]


def test_updated_since_with_garbage_is_invalid_date_format(api):
    resp = api.get("/2/expenses?updated_since=yesterday")
    assert resp.status_code == 400
    assert resp.json()["code"] == "invalid_date_format"


def test_updated_since_too_old_requires_full_resync(api):
    old = _at(datetime.now(UTC) - timedelta(days=91))
    resp = api.get("/2/expenses", params={"updated_since": old})
    assert resp.status_code == 400
    body = resp.json()
    assert set(body) == {"updated_since"}  # field-keyed, as every 400 (no invented code)
    assert "full resync" in body["updated_since"][0]


def test_updated_since_inside_the_horizon_is_accepted(api, ecat):
    make_expense(api, ecat)
    since = _at(datetime.now(UTC) - timedelta(days=89))
    assert len(listed_ids(api, updated_since=since)) == 1


def test_date_field_created_at_with_from_date(api, ecat, base):
    make_expense(api, ecat, created_at=_at(base - timedelta(days=2)))
    late = make_expense(api, ecat, created_at=_at(base))["id"]
    day = base.date().isoformat()
    assert listed_ids(api, date_field="created_at", from_date=day) == [late]


def test_date_field_created_at_to_date_includes_the_whole_day(api, ecat, base):
    early = make_expense(api, ecat, created_at=_at(base.replace(hour=23, minute=59)))["id"]
    make_expense(api, ecat, created_at=_at(base + timedelta(days=1, hours=1)))
    day = base.date().isoformat()
    assert listed_ids(api, date_field="created_at", from_date=day, to_date=day) == [early]


def test_from_date_without_date_field_filters_issued_at(api, ecat):
    make_expense(api, ecat, issued_at="2025-01-10")
    late = make_expense(api, ecat, issued_at="2025-02-10")["id"]
    assert listed_ids(api, from_date="2025-02-01") == [late]


def test_unknown_date_field_is_400(api):
    resp = api.get("/2/expenses?date_field=paid_at&from_date=2025-01-01")
    assert resp.status_code == 400 and "date_field" in resp.json()


def test_from_date_with_bad_format_is_invalid_date_format(api):
    resp = api.get("/2/expenses?date_field=created_at&from_date=2025.01.01")
    assert resp.status_code == 400
    assert resp.json()["code"] == "invalid_date_format"


def test_search_matches_custom_field_values_case_insensitively(api, ecat):
    hit = make_expense(api, ecat, custom_fields={"Projekt": "Tavaszi KAMPÁNY"})["id"]
    make_expense(api, ecat, custom_fields={"Projekt": "Webshop"})
    assert listed_ids(api, search="kampány") == [hit]


def test_search_matches_invoice_number_and_partner_name(api, ecat):
    by_number = make_expense(api, ecat, invoice_number="MOL-2025-00042")["id"]
    by_partner = make_expense(api, ecat, partner_name="Árvíztűrő Tükörfúró Kft.")["id"]
    make_expense(api, ecat, invoice_number="OTHER-1")
    assert listed_ids(api, search="mol-2025") == [by_number]
    assert listed_ids(api, search="ÁRVÍZTŰRŐ") == [by_partner]


def test_search_treats_like_wildcards_literally(api, ecat):
    make_expense(api, ecat, invoice_number="ABC")
    assert listed_ids(api, search="%") == []


def test_amount_range_uses_the_assignment_gross_total(api, ecat):
    split = [assignment(ecat, net="100", vat="0", gross="100"),
             assignment(ecat, net="200", vat="0", gross="200")]
    total_300 = make_expense(api, ecat, assignments=split)["id"]
    small = make_expense(api, ecat, assignments=[assignment(ecat, net="50", vat="0",
                                                            gross="50")])["id"]
    assert listed_ids(api, min_amount="250") == [total_300]
    assert listed_ids(api, max_amount="250") == [small]
    assert listed_ids(api, min_amount="50", max_amount="300") == [small, total_300]


def test_amount_range_with_a_non_number_is_400(api):
    resp = api.get("/2/expenses?min_amount=lots")
    assert resp.status_code == 400 and "min_amount" in resp.json()


def test_filters_combine_with_and(api, ecat):
    make_expense(api, ecat, paid_status=2, custom_fields={"KH": "Raktár"})
    hit = make_expense(api, ecat, paid_status=1, custom_fields={"KH": "Raktár"})["id"]
    make_expense(api, ecat, paid_status=1, custom_fields={"KH": "Iroda"})
    assert listed_ids(api, is_paid="false", search="raktár") == [hit]


def test_filters_survive_into_the_next_cursor(api, ecat):
    for _ in range(3):
        make_expense(api, ecat, paid_status=1)
    make_expense(api, ecat, paid_status=2)
    page = api.get("/2/expenses?is_paid=false&page_size=2").json()
    rest = api.get(page["next"].removeprefix(api.base)).json()
    assert len(page["results"]["expenses"]) + len(rest["results"]["expenses"]) == 3
    assert rest["next"] is None
