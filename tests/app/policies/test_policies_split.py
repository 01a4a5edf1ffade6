"""Splits: one assignment per part, amounts in exact cents that add up to the income's totals."""

from decimal import Decimal

import pytest

from app.policies import labels as M
from app.policies.engine import evaluate
from app.policies.validate import empty_config

ANY = [{"field": "gross_amount", "op": "gte", "value": -1000000}]


def split(parts, income, **actions):
    policy = {"name": "Split", "conditions": ANY, "set": {"split": parts, **actions}}
    return evaluate({**empty_config(), "policies": [policy]}, income)


def income(net, vat, gross, **extra):
    return {"net_amount": net, "vat_amount": vat, "gross_amount": gross, **extra}


def amounts(outcome, key="gross_amount"):
    return [assignment[key] for assignment in outcome.assignments]


def totals(outcome):
    return [
        sum(Decimal(a[k]) for a in outcome.assignments)
        for k in ("net_amount", "vat_amount", "gross_amount")
    ]


def test_split_by_percent_gives_one_assignment_per_part():
    parts = [{"percent": 60, "revenue_type": 1}, {"percent": 40, "revenue_type": 2}]
    outcome = split(parts, income("10000.00", "2700.00", "12700.00"))
    assert amounts(outcome) == ["7620.00", "5080.00"]
    assert amounts(outcome, "net_amount") == ["6000.00", "4000.00"]
    assert amounts(outcome, "vat_amount") == ["1620.00", "1080.00"]
    assert [a["revenue_type"] for a in outcome.assignments] == [1, 2]


def test_split_remainder_goes_to_last_part():
    parts = [{"percent": "33.33"}, {"percent": "33.33"}, {"percent": "33.34"}]
    outcome = split(parts, income("100.00", "0.01", "100.01"))
    assert amounts(outcome) == ["33.33", "33.33", "33.35"]
    assert totals(outcome) == [Decimal("100.00"), Decimal("0.01"), Decimal("100.01")]


def test_thirds_of_an_awkward_amount_add_up_to_the_cent():
    parts = [{"percent": "33.333"}, {"percent": "33.333"}, {"percent": "33.334"}]
    outcome = split(parts, income("1000.00", "270.00", "1270.00"))
    assert totals(outcome) == [Decimal("1000.00"), Decimal("270.00"), Decimal("1270.00")]
    for assignment in outcome.assignments:
        net, vat, gross = (
            Decimal(assignment[k]) for k in ("net_amount", "vat_amount", "gross_amount")
        )
        assert net + vat == gross


def test_rounding_is_half_away_from_zero():
    outcome = split([{"percent": 50}, {"percent": 50}], income("0.01", "0.00", "0.01"))
    assert amounts(outcome) == ["0.01", "0.00"]


def test_split_by_amounts_that_cover_the_gross():
    parts = [{"amount": "10000.00", "job_number": "A"}, {"amount": "2700.00", "job_number": "B"}]
    outcome = split(parts, income("10000.00", "2700.00", "12700.00"))
    assert amounts(outcome) == ["10000.00", "2700.00"]
    assert amounts(outcome, "net_amount") == ["7874.02", "2125.98"]
    assert totals(outcome) == [Decimal("10000.00"), Decimal("2700.00"), Decimal("12700.00")]


def test_amounts_that_do_not_cover_the_gross_apply_nothing_and_flag_review():
    outcome = split([{"amount": "100.00"}, {"amount": "50.00"}], income("100", "27", "127"))
    assert (outcome.matched, outcome.applied, outcome.needs_review) == ([0], None, True)
    assert outcome.skipped_multiple is False
    assert amounts(outcome) == ["127.00"]
    assert outcome.review_reason.message == M.REVIEW_SPLIT_MISMATCH
    assert outcome.review_reason.params == {"parts": "150.00", "gross": "127.00"}


def test_amounts_first_then_percent_parts_share_the_rest():
    parts = [{"amount": "1000.00", "revenue_type": 1}, {"percent": 75}, {"percent": 25}]
    outcome = split(parts, income("10000.00", "2700.00", "12700.00"))
    assert amounts(outcome) == ["1000.00", "8775.00", "2925.00"]
    assert totals(outcome)[2] == Decimal("12700.00")


def test_a_single_100_percent_part_takes_whatever_the_amounts_leave():
    parts = [{"percent": 100, "revenue_type": 2}, {"amount": "0.50", "revenue_type": 1}]
    outcome = split(parts, income("100.00", "27.00", "127.00"))
    assert amounts(outcome) == ["126.50", "0.50"]


def test_amounts_larger_than_the_gross_flag_review_even_with_a_rest_part():
    parts = [{"amount": "200.00"}, {"percent": 100}]
    outcome = split(parts, income("100", "27", "127"))
    assert (outcome.applied, outcome.needs_review) == (None, True)
    assert outcome.review_reason.message == M.REVIEW_SPLIT_EXCEEDS


def test_storno_amounts_split_with_the_income_sign():
    parts = [{"amount": "100.00"}, {"percent": 100}]
    outcome = split(parts, income("-100.00", "-27.00", "-127.00"))
    assert amounts(outcome) == ["-100.00", "-27.00"]
    assert totals(outcome) == [Decimal("-100.00"), Decimal("-27.00"), Decimal("-127.00")]


def test_zero_income_splits_into_zero_parts():
    outcome = split([{"percent": 50}, {"percent": 50}], income("0", "0", "0"))
    assert amounts(outcome) == ["0.00", "0.00"]


def test_parts_inherit_policy_level_fields_and_override_them():
    parts = [{"percent": 50, "revenue_type": 2, "tags": ["b"]}, {"percent": 50}]
    outcome = split(parts, income("10", "0", "10"), revenue_type=1, tags=["a"], job_number="J")
    assert [a["revenue_type"] for a in outcome.assignments] == [2, 1]
    assert [a["tags"] for a in outcome.assignments] == [["b"], ["a"]]
    assert [a["job_number"] for a in outcome.assignments] == ["J", "J"]


def test_part_ledger_number_lands_on_ledger_number_id():
    outcome = split([{"percent": 100, "ledger_number": 44}], income("10", "0", "10"))
    assert outcome.assignments[0]["ledger_number_id"] == 44


def test_vat_and_other_assignment_keys_carry_over_to_every_part():
    existing = {
        "gross_amount": "127",
        "net_amount": "100",
        "vat_amount": "27",
        "vat": 3,
        "company_vat_category_id": 9,
    }
    outcome = split(
        [{"percent": 50}, {"percent": 50}], income("100", "27", "127", assignments=[existing])
    )
    assert [(a["vat"], a["company_vat_category_id"]) for a in outcome.assignments] == [
        (3, 9),
        (3, 9),
    ]


def test_existing_assignments_with_one_vat_rate_are_split_as_a_whole():
    existing = [
        {"net_amount": "100", "vat_amount": "27", "gross_amount": "127", "vat": 3},
        {"net_amount": "100", "vat_amount": "27", "gross_amount": "127", "vat": 3},
    ]
    outcome = split(
        [{"percent": 50}, {"percent": 50}], income("200", "54", "254", assignments=existing)
    )
    assert amounts(outcome) == ["127.00", "127.00"]
    assert outcome.changes == {}


def test_different_vat_rates_cannot_be_split_and_flag_review():
    existing = [{"gross_amount": "127", "vat": 3}, {"gross_amount": "105", "vat": 4}]
    outcome = split([{"percent": 100}], income("200", "32", "232", assignments=existing))
    assert (outcome.applied, outcome.needs_review) == (None, True)
    assert outcome.review_reason.message == M.REVIEW_SPLIT_VAT
    assert len(outcome.assignments) == 2


def test_split_changes_show_the_gross_amounts_before_and_after():
    parts = [{"percent": 60, "revenue_type": 1}, {"percent": 40, "revenue_type": 2}]
    outcome = split(parts, income("100", "0", "100"))
    assert outcome.changes == {
        "revenue_type": (None, [1, 2]),
        "split": (["100.00"], ["60.00", "40.00"]),
    }
    assert outcome.set_by == {"revenue_type": "Split", "split": "Split"}


@pytest.mark.parametrize("gross", ["0.03", "1.00", "999999.99", "12345.67"])
def test_percent_splits_always_add_up(gross):
    parts = [{"percent": "12.5"}, {"percent": "37.5"}, {"percent": "20"}, {"percent": "30"}]
    outcome = split(parts, income(gross, "0", gross))
    assert totals(outcome)[2] == Decimal(gross)
