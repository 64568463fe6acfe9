"""The private stack's static files (tests/reliability/stack.py, `collect_static`): the test run's
prepared VAR_DIR's (bench/stack_template.py), linked and read, not collected again by a Django
process of the stack's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bench.runs import this_runs_stack_template
from tests.reliability.stack import Stack

pytestmark = pytest.mark.slow


def test_a_stack_serves_the_runs_collected_static_files_without_collecting_them(
    tmp_path: Path,
) -> None:
    stack = Stack(root=tmp_path, pg_port=0, redis_port=0)  # no server needed to place the files
    stack.collect_static()
    collected = this_runs_stack_template() / "static"
    assert (tmp_path / "static").resolve() == collected.resolve()
    # The manifest the production profile's storage reads, with the hashed names of the pages'
    # files.
    manifest = json.loads((tmp_path / "static" / "staticfiles.json").read_text())
    assert manifest["paths"]["frontend/js/app.js"] != "frontend/js/app.js"
    stack.collect_static()  # a second call finds them there
    assert (tmp_path / "static").resolve() == collected.resolve()
