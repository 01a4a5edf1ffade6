"""Each number on the policy preview's filter links is the number of incomes its link lists.

The incomes of test_policy_editor_preview cover every outcome, incomes skipped for several
matching policies included (they wait for review, so "Need review" counts and lists them).
"""
from __future__ import annotations

import html
import json
import re
from collections import Counter
from datetime import date
from io import BytesIO

from hypothesis import given
from hypothesis import strategies as st

from app.policies.editor.present import OUTCOMES, Preview, Row
from tests.app.test_policy_editor_kit import Editor, policy
from tests.app.test_policy_editor_preview import POLICIES, ROW, imported  # noqa: F401 (fixture)

COUNT_ROW = re.compile(r'<tr><td class="num">\d+</td><td>([^<]*)(.*?)</tr>', re.S)
STAT = re.compile(r'<a class="stat [^"]*"\s+href="([^"]+)"[^>]*>\s*'
                  r'<span class="stat__label">[^<]*</span><span class="stat__value">(\d+)</span>')


def test_every_preview_filter_number_is_the_number_of_rows_it_lists(client, company, imported):  # noqa: F811
    editor = Editor(client, company)
    upload = {"file": (BytesIO(json.dumps(POLICIES).encode()), "policies.json")}
    assert editor.post("/import", upload, content_type="multipart/form-data").status_code == 303
    stats = STAT.findall(editor.html("/preview?months=1"))
    assert len(stats) == 7
    for link, number in stats:
        response = client.get(html.unescape(link))
        assert response.status_code == 200
        assert len(ROW.findall(response.get_data(as_text=True))) == int(number), link
    states = dict((link.rsplit("show=", 1)[1], int(n)) for link, n in stats)
    assert states["review"] >= 2, "a skipped income and a needs-review one both wait for review"
    assert sum(states[key] for key in OUTCOMES) == states["all"], "the outcomes part the incomes"


BLIND = "Counted with an empty note"


def test_only_the_counts_of_a_rule_on_the_note_say_they_were_counted_without_notes(
        client, company, imported):  # noqa: F811
    notes = policy("Megjegyzés", field="note", op="contains", value="sürgős",
                   revenue_type="Sürgős")
    editor = Editor(client, company)
    body = {**POLICIES, "policies": [*POLICIES["policies"], notes]}
    upload = {"file": (BytesIO(json.dumps(body).encode()), "policies.json")}
    assert editor.post("/import", upload, content_type="multipart/form-data").status_code == 303
    page = editor.html("/preview?months=1")
    rows = {name: cells for name, cells in COUNT_ROW.findall(page)}
    assert BLIND in rows["Megjegyzés"] and rows["Megjegyzés"].count(BLIND) == 4  # two cells
    assert all(BLIND not in cells for name, cells in rows.items() if name != "Megjegyzés")


# Every state a preview row can end in (present.py row_state), with or without several matches.
ROW_STATES = st.sampled_from(["changed", "unchanged", "ignored", "review", "skipped", "none"])


@given(st.lists(st.tuples(ROW_STATES, st.integers(0, 3)), max_size=30))
def test_the_outcome_filters_part_the_incomes_checked(drawn):
    rows = [Row({"id": n}, state, [f"p{i}" for i in range(matches)], None, [])
            for n, (state, matches) in enumerate(drawn)]
    counts = Preview(rows, [], [], Counter(), date(2026, 11, 1)).counts()
    assert sum(counts[key] for key in OUTCOMES) == counts["all"] == len(rows)
    assert counts["multiple"] == sum(1 for _state, matches in drawn if matches > 1)
