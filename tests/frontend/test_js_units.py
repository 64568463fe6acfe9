"""The JavaScript unit tests (layout geometry, keyboard navigation, the move protocol, the
keyboard map, formatting; a new deal over the game socket) run with Node's built-in runner, so
`make test` runs them too."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = [Path(__file__).resolve().parents[1] / "js", Path(__file__).resolve().parent / "js"]
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="needs Node.js (node --test)")
def test_javascript_unit_tests_pass() -> None:
    assert NODE is not None
    files = sorted(str(p) for folder in JS_TESTS for p in folder.glob("*.test.js"))
    assert files, "no JavaScript tests found"
    run = subprocess.run(
        [NODE, "--test", *files], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
