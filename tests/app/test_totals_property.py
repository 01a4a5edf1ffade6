"""Properties of app/forms/totals.py: what it computes adds up exactly, and every typed line
it accepts adds up within one smallest unit of the currency. Also of the check an edit of a
document's totals gets against its stored line items (app/incomes/flow.py)."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import create_app
from app.forms.totals import (
    AMOUNTS,
    PLAIN,
    STORNO,
    Rules,
    Sheet,
    filled,
    line_problems,
    sum_texts,
    vat_of,
    vat_places,
)
from app.incomes.flow import stored_items_problems
from app.numbers import amount_places, format_amount

CURRENCIES = ("HUF", "EUR", "USD", "JPY", "CHF")
RATES = st.one_of(st.sampled_from([Decimal(27), Decimal(18), Decimal(5), Decimal(0)]),
                  st.decimals(min_value=0, max_value=100, places=2))


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """An app for the request context messages are written in (no upstream is called)."""
    return create_app({"TESTING": True, "SECRET_KEY": "property", "DEFAULT_LOCALE": "en",
                       "UPSTREAM_URL": "http://127.0.0.1:9",
                       "INSTANCE_PATH": str(tmp_path_factory.mktemp("instance"))})


@st.composite
def nets(draw, currency: str) -> Decimal:
    """A net amount in the currency's unit, up to ten thousand million, either sign."""
    units = draw(st.integers(min_value=-10**12, max_value=10**12))
    return Decimal(units).scaleb(-vat_places(currency))


@st.composite
def lines(draw):
    """(rules, rate, net) for a currency drawn from those the product shows."""
    currency = draw(st.sampled_from(CURRENCIES))
    net = draw(nets(currency))
    return Rules(currency, STORNO if net < 0 else PLAIN), draw(RATES), net


def computed(rules: Rules, rate: Decimal, net: Decimal) -> dict:
    """A line with VAT and gross worked out from its net."""
    return {"net_amount": net, **filled({"net_amount": net}, rate, rules,
                                        {"vat_amount", "gross_amount"})}


@settings(max_examples=200, deadline=None)
@given(lines())
def test_computed_vat_plus_net_is_gross_exactly_and_passes_the_check(app, line):
    rules, rate, net = line
    line = computed(rules, rate, net)
    assert line["net_amount"] + line["vat_amount"] == line["gross_amount"]
    assert line["vat_amount"] == line["vat_amount"].quantize(rules.unit)
    with app.test_request_context():
        assert line_problems(line, rate, rules) == {}


@settings(max_examples=200, deadline=None)
@given(lines(), st.integers(min_value=-3, max_value=3), st.integers(min_value=-2, max_value=2))
def test_a_typed_line_the_check_accepts_adds_up_within_one_unit(app, line, vat_off, gross_off):
    rules, rate, net = line
    vat = vat_of(net, rate, rules.unit) + vat_off * rules.unit
    gross = net + vat + gross_off * rules.unit
    typed = {"net_amount": net, "vat_amount": vat, "gross_amount": gross}
    with app.test_request_context():
        problems = line_problems(typed, rate, Rules(rules.currency, 0))
    adds_up = net + vat == gross and abs(vat - net * rate / 100) <= rules.unit
    one_sign = len({value < 0 for value in (net, vat, gross) if value}) <= 1
    assert (not problems) == (adds_up and one_sign)
    if not problems:
        assert net + vat == gross
        assert abs(vat - net * rate / 100) <= rules.unit


@settings(max_examples=200, deadline=None)
@given(lines())
def test_a_wrong_sign_is_never_accepted(app, line):
    rules, rate, net = line
    line = computed(rules, rate, net)
    flipped = Rules(rules.currency, PLAIN if rules.sign == STORNO else STORNO)
    with app.test_request_context():
        problems = line_problems(line, rate, flipped)
    assert bool(problems) == any(value != 0 for value in line.values())


@st.composite
def splits(draw, currency: str) -> list[dict]:
    """One to six categorisation rows of a document in the currency, any sign."""
    amounts = st.integers(min_value=-10**10, max_value=10**10).map(
        lambda units: Decimal(units).scaleb(-amount_places(currency)))
    return draw(st.lists(st.fixed_dictionaries({name: amounts for name in AMOUNTS}),
                         min_size=1, max_size=6))


@settings(max_examples=200, deadline=None)
@given(st.data(), st.sampled_from(CURRENCIES), st.booleans())
def test_the_total_row_shows_each_columns_exact_sum_and_the_saved_one_only_when_it_differs(
        app, data, currency, same):
    rows = data.draw(splits(currency))
    before = rows if same else data.draw(splits(currency))
    blank = {"vat": 1, "net_amount": None}  # a row with a category chosen, no amount yet
    sheet = Sheet({}, dict(enumerate([*rows, blank])), base=dict(enumerate(before)), new=False)
    with app.test_request_context():
        shown = sum_texts(sheet, Rules(currency))
        for name in AMOUNTS:
            total = sum((row[name] for row in rows), Decimal(0))
            saved = sum((row[name] for row in before), Decimal(0))
            assert shown["sums"][name] == format_amount(total, currency)
            assert shown["saved"][name] == ("" if saved == total else
                                            f"saved: {format_amount(saved, currency)}")


def _document(nets: list[Decimal], net: Decimal) -> dict:
    """A HUF document without VAT whose stored lines carry nets and whose header says net."""
    lines = [{"net_amount": str(n), "vat_amount": "0.00"} for n in nets]
    return {"items": lines, "net_amount": str(net), "vat_amount": "0.00",
            "gross_amount": str(net)}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=-10**11, max_value=10**11), min_size=1, max_size=6),
       st.integers(min_value=-10, max_value=10), st.integers(min_value=-10, max_value=10))
def test_an_edit_is_refused_exactly_when_it_takes_agreeing_totals_off_the_stored_lines(
        app, cents, stored_off, typed_off):
    nets = [Decimal(c).scaleb(-2) for c in cents]
    total, unit = sum(nets, Decimal(0)), Decimal("0.01")
    document = _document(nets, total + stored_off * unit)
    typed = str(total + typed_off * unit)
    with app.test_request_context():
        found = stored_items_problems(document, {"net_amount": typed, "gross_amount": typed},
                                      Rules("HUF"))
    agreed = abs(stored_off) <= len(nets)
    assert ("net_amount" in found) == (agreed and abs(typed_off) > len(nets))
    assert "vat_amount" not in found
