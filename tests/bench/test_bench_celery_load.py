"""bench/celery_load.py at a tiny size (tests/bench/runs.py): the whole stack (`python -m
tripeaks.stack.run`: servers, workers and beat on an embedded PostgreSQL and Redis) under a flood
of solver work, its mail counted. In a file of its own, as the other whole-stack benches'
(test_bench_first_start.py; bench/idle_stack.py's in test_make_run_restart.py): each starts a
stack of its own, and two together took 61 s on one worker. Its stack starts on a copy of the run's prepared VAR_DIR (the `stack_template` fixture,
bench/stack_template.py), as a second start."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.runs import run_stack_bench

pytestmark = pytest.mark.slow


def test_celery_load(stack_template: Path) -> None:
    out = run_stack_bench("celery_load.py", stack_template)
    assert '"lost": 0' in out and "worker_rss_mb" in out
