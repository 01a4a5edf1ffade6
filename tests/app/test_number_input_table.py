"""Every row of the input table in docs/number-input.md, in its page's language."""
from __future__ import annotations

from datetime import date, datetime

import pytest
from flask_babel import force_locale
from support.number_table import rows

from app.numbers import (
    InputError,
    parse_amount,
    parse_date,
    parse_moment,
    parse_month,
    parse_number,
    parse_percent,
)

PARSERS = {
    "number": lambda row: parse_number(row.text),
    "amount": lambda row: parse_amount(row.text, row.currency),
    "percent": lambda row: parse_percent(row.text),
    "date": lambda row: parse_date(row.text),
    "month": lambda row: parse_month(row.text),
    "moment": lambda row: parse_moment(row.text),
}
ROWS = rows()


def test_the_table_has_rows_of_every_kind_in_both_languages():
    assert {(row.kind, row.locale) for row in ROWS} == {
        (kind, locale) for kind in PARSERS for locale in ("hu", "en")}
    assert len(ROWS) > 60


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_each_row_reads_as_the_table_says(app, row):
    with app.test_request_context("/"), force_locale(row.locale):
        if row.refused:
            with pytest.raises(InputError) as refused:
                PARSERS[row.kind](row)
            assert str(refused.value) == row.refused
            return
        value = PARSERS[row.kind](row)
    if row.kind == "date":
        assert value == date.fromisoformat(row.result)
    elif row.kind == "month":
        assert value == date.fromisoformat(row.result + "-01")
    elif row.kind == "moment":
        assert value == datetime.fromisoformat(row.result)
    else:
        assert value == row.value
