"""A serving process is warmed before its first request: templates compiled, catalogues loaded,
and the start-up heap frozen out of the collector's full passes (`warm` and `production_app`
in app/cli.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json
from app.cli import production_app
application = production_app()
env = application.jinja_env
print(json.dumps({"frozen": gc.get_freeze_count(), "threshold": gc.get_threshold()[0],
                  "tracked": len(gc.get_objects()),
                  "templates": len(env.list_templates(extensions=("html",))),
                  "compiled": len(env.cache)}))
"""


def test_the_production_entry_point_warms_and_freezes_the_worker(tmp_path):
    env = {**os.environ, "BOOKDESK_SECRET_KEY": "warm-test-secret-key-0123456789",
           "BOOKDESK_UPSTREAM_URL": "http://127.0.0.1:9", "BOOKDESK_INSTANCE_PATH": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, env=env, check=True,
                         capture_output=True, text=True, timeout=120).stdout
    facts = json.loads(out.strip().splitlines()[-1])
    assert facts["templates"] > 50
    assert facts["compiled"] >= facts["templates"]
    # Nearly everything alive after start-up is frozen; full passes walk only what is left.
    assert facts["frozen"] > 20 * facts["tracked"]
    assert facts["threshold"] == 10_000
