"""Count the project modules one action passes through, from its view function down.

    python tools/path_modules.py app/review/views.py:act \
        "tests/app/test_review_screen.py::test_done_is_one_write_and_the_next_income_comes_in_place"

Runs the named tests (they drive the action against the sandbox, as in `make test`) with a
profiler that switches on when the view function is entered and off when it returns, in the
request thread and in the worker threads that run the view's concurrent reads. It prints every
module of app/ whose code ran in between with its length, then their count and their lines.
App-wide request hooks (session, CSRF, headers) run outside the view function and are not
counted: they are the same for every page.
"""
from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from app.upstream.parallel import restart_pool

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app") + "/"


class Tracer:
    """A pytest plugin that records app/ modules run inside one view function."""

    def __init__(self, target: str) -> None:
        path, _, self.function = target.partition(":")
        self.filename = str((ROOT / path).resolve())
        self.active = 0
        self.calls = 0
        self.modules: set[str] = set()

    def profile(self, frame, event, _arg):
        """sys.setprofile hook: count the view's entries, collect modules while inside it."""
        code = frame.f_code
        is_view = code.co_filename == self.filename and code.co_name == self.function
        if event == "call" and is_view:
            self.active += 1
            self.calls += 1
        if self.active and event == "call" and code.co_filename.startswith(APP):
            self.modules.add(str(Path(code.co_filename).relative_to(ROOT)))
        if event == "return" and is_view:
            self.active -= 1

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item):
        """Profile the test body only: fixtures set up the sandbox and sign in beforehand."""
        sys.setprofile(self.profile)
        threading.setprofile(self.profile)
        restart_pool()  # fixtures started the pool's threads before the profiler was set
        try:
            return (yield)
        finally:
            sys.setprofile(None)
            threading.setprofile(None)


def main(argv: list[str]) -> int:
    """Run the tests, then print the modules the view function passed through."""
    if len(argv) < 2 or ":" not in argv[0]:
        print(__doc__)
        return 2
    tracer = Tracer(argv[0])
    code = pytest.main(["-q", "-p", "no:xdist", "-p", "no:randomly", *argv[1:]],
                       plugins=[tracer])
    if not tracer.calls:
        print(f"{argv[0]} was never called by the tests named")
        return 1
    lines = 0
    for module in sorted(tracer.modules):
        count = len((ROOT / module).read_text(encoding="utf-8").splitlines())
        lines += count
        print(f"{count:5d} {module}")
    print(f"{len(tracer.modules)} project modules on the path of {argv[0]}, "
          f"{lines} lines between them")
    return int(code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
