"""List the live API's operations (tests/sandbox/live-api-shapes.json) the sandbox lacks.

Usage: .venv/bin/python tools/live_ops_missing.py  -> one "METHOD /path" line per missing
operation, then "N of M served". Each documented path is matched against the sandbox's
url_map with its parameters filled in, as a request would be.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from werkzeug.exceptions import HTTPException

SHAPES = Path(__file__).resolve().parents[1] / "tests/sandbox/live-api-shapes.json"
PARAM = re.compile(r"\{[^}]+\}")


def routed(app, method: str, path: str) -> bool:
    """True when the app has a view for method on path (parameters filled with 1)."""
    adapter = app.url_map.bind("sandbox.invalid")
    try:
        adapter.match(PARAM.sub("1", path), method=method)
    except HTTPException:
        return False
    return True


def missing(app, operations: list[dict]) -> list[str]:
    """The live operations the app does not route, as METHOD /path."""
    return [f"{op['method']} {op['path']}" for op in operations
            if not routed(app, op["method"], op["path"])]


def main() -> int:
    """Print the missing operations; exit 1 when there are any."""
    from sandbox import create_app

    operations = json.loads(SHAPES.read_text(encoding="utf-8"))["operations"]
    lacking = missing(create_app(), operations)
    print("\n".join(lacking))
    print(f"{len(operations) - len(lacking)} of {len(operations)} served")
    return 1 if lacking else 0


if __name__ == "__main__":
    sys.exit(main())
