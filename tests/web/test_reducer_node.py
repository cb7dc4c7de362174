"""The browser table's reducer and codes, unit-tested in Node's own test runner.

``tests/web/js/*.test.mjs`` import ``src/uth/web/static/reducer.js`` (pure: no DOM, no
socket) and ``i18n.js`` and assert the exact state after each message type of
docs/protocol.md, and that every code the page words has its text in English and
Russian. Node (20 or later, on the developers' machines and CI) runs them in well under
a second, without a browser; the test is skipped only where ``node`` is absent, and
fails there when the ``CI`` environment variable is set (as the browser tests do).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).parent / "js"


def test_reducer_in_node() -> None:
    node = shutil.which("node")
    if node is None:
        reason = "node is not installed (the reducer's tests run in Node's test runner)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI is set: the reducer's tests must run)")
        pytest.skip(reason)
    files = sorted(str(p) for p in JS_TESTS.glob("*.test.mjs"))
    assert files, f"no Node tests in {JS_TESTS}"
    run = subprocess.run(
        [node, "--test", "--test-reporter=tap", *files],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    summary = {
        line.split()[1]: int(line.split()[2])
        for line in run.stdout.splitlines()
        if line.startswith("# ") and len(line.split()) == 3 and line.split()[2].isdigit()
    }
    assert summary["fail"] == 0 and summary["pass"] >= 30, summary
