"""Table cells built in Python escape their text as Jinja's autoescaping would."""
from __future__ import annotations

from markupsafe import escape

from app.templating import Amount, amount_cells, overdue_mark, td


def test_a_cell_escapes_its_text_like_markupsafe_and_keeps_its_tail():
    text = "A & B <i>\"quoted\"</i> 'x'"
    assert td("date", text, "<b>") == f'<td class="date">{escape(text)}<b></td>'


def test_the_overdue_mark_escapes_its_label():
    assert 'title="a &amp; b"' in overdue_mark("a & b")


def test_a_negative_amount_cell_is_marked_negative():
    assert str(amount_cells([Amount("-1", True), Amount("2")])) == (
        '<td class="num is-negative">-1</td><td class="num">2</td>')
