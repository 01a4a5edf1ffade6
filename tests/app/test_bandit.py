"""bandit finds nothing of medium or higher severity and confidence in app/ and sandbox/.

A justified finding is marked in place with `# nosec BXXX` and a comment saying why.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def bandit_findings() -> list[dict]:
    """bandit's results at medium severity and medium confidence (-ll -ii)."""
    script = Path(sys.executable).parent / "bandit"
    command = [str(script) if script.exists() else "bandit", "-q", "-r", "app", "sandbox",
               "-ll", "-ii", "-f", "json"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.stdout.strip(), f"bandit produced no report: {done.stderr[-2000:]}"
    report = json.loads(done.stdout)
    assert not report.get("errors"), f"bandit could not scan: {report['errors']}"
    return report["results"]


def test_bandit_reports_no_medium_or_high_findings():
    findings = bandit_findings()
    lines = [f"{f['filename']}:{f['line_number']} {f['test_id']} ({f['issue_severity']}/"
             f"{f['issue_confidence']}): {f['issue_text']}" for f in findings]
    assert not findings, "fix, or mark justified ones `# nosec BXXX` with a reason:\n" + \
        "\n".join(lines)
