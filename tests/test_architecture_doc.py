"""docs/architecture.md says what the tree is: its module count and median size are those of
app/, every area it lists is a folder of app/ with the modules it names, and each path count and
line total in its Measures table is what tools/path_modules.py prints for that action."""
from __future__ import annotations

import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOC = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
MODULES = [p for p in (REPO / "app").rglob("*.py") if "migrations" not in p.parts]
# | action | `app/x/views.py:fn` | `tests/...::test_y` | 31 | 9,100 |
MEASURE = re.compile(r"^\| [^|]+ \| `(app/[\w/]+\.py:\w+)` "
                     r"\| `(tests/[\w/]+\.py::\w+)` \| (\d+) \| ([\d,]+) \|$", re.M)
# | `review` | ... | `actions.py`, `prefetch.py` ... |
AREA_ROW = re.compile(r"^\| `([\w/]+)`(?:, `([\w/]+)`)? \|(.*)\|$", re.M)


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_the_module_count_and_median_are_the_trees():
    found = re.search(r"app/ holds (\d+) Python modules \(migrations aside\); the median module "
                      r"is (\d+) lines", DOC)
    assert found, "docs/architecture.md states the module count and median"
    assert int(found[1]) == len(MODULES)
    assert int(found[2]) == int(statistics.median(_lines(p) for p in MODULES))


def test_every_area_listed_is_a_folder_with_the_modules_named():
    rows = AREA_ROW.findall(DOC.split("## The areas", 1)[1].split("## How to", 1)[0])
    areas = {name for first, second, _ in rows for name in (first, second) if name}
    folders = {p.parent.relative_to(REPO / "app").as_posix()
               for p in (REPO / "app").glob("*/**/views.py")}
    assert areas == folders
    for first, second, text in rows:
        for module in re.findall(r"`(\w+\.py)`", text):
            for area in filter(None, (first, second)):
                assert (REPO / "app" / area / module).is_file(), f"app/{area}/{module}"


@pytest.mark.parametrize("view, test, count, lines", MEASURE.findall(DOC))
def test_each_path_count_is_what_the_tool_prints(view, test, count, lines):
    run = subprocess.run([sys.executable, "tools/path_modules.py", view, test], cwd=REPO,
                         capture_output=True, text=True, timeout=600)
    printed = re.search(r"^(\d+) project modules on the path of \S+, (\d+) lines", run.stdout,
                        re.M)
    assert run.returncode == 0 and printed, run.stdout[-2000:] + run.stderr[-2000:]
    assert (int(printed[1]), int(printed[2])) == (int(count), int(lines.replace(",", "")))


def test_the_measures_table_has_both_actions():
    views = {view for view, *_rest in MEASURE.findall(DOC)}
    assert views == {"app/review/views.py:act", "app/policies/editor/views.py:save"}
