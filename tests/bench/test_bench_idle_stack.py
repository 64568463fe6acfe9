"""bench/idle_stack.py at a tiny size (tests/bench/runs.py): the whole stack (`python -m
tripeaks.stack.run`) started, its pools filled and its idle CPU sampled. In a file of its own, as
bench/celery_load.py's test (test_bench_celery_load.py). Its stack starts on a copy of the run's
prepared VAR_DIR (the `stack_template` fixture, bench/stack_template.py), as a second start: the
first start's steps are test_make_run.py's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.runs import run_stack_bench

pytestmark = pytest.mark.slow


def test_idle_stack(stack_template: Path) -> None:
    out = run_stack_bench("idle_stack.py", stack_template)
    assert "every pool full" in out and "idle stack:" in out
