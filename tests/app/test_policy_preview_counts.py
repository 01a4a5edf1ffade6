"""Each number on the policy preview's filter links is the number of incomes its link lists.

The incomes of test_policy_editor_preview cover every outcome, incomes skipped for several
matching policies included (they wait for review, so "Need review" counts and lists them).
"""
from __future__ import annotations

import html
import json
import re
from io import BytesIO

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
    assert len(stats) == 6
    for link, number in stats:
        response = client.get(html.unescape(link))
        assert response.status_code == 200
        assert len(ROW.findall(response.get_data(as_text=True))) == int(number), link
    states = dict((link.rsplit("show=", 1)[1], int(n)) for link, n in stats)
    assert states["review"] >= 2, "a skipped income and a needs-review one both wait for review"


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
