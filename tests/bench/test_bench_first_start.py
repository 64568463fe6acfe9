"""bench/first_start.py at a tiny size (tests/bench/runs.py): a stack and a second of random starts
over every pool, none answered `pool_empty` (the shipped deals alone: a floor of 0, no solver
filling pools meanwhile). In a file of its own, as the
other whole-stack benches (test_bench_celery_load.py). It starts on a
copy of the run's prepared VAR_DIR, database included (`--second-start`, bench/stack_template.py):
the fresh start, and the shipped deals it loads into every pool, are test_make_run.py's (here a
fresh database cost initdb, every migration and the 2,160 shipped deals once more)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.runs import run_stack_bench

pytestmark = pytest.mark.slow


def test_first_start(stack_template: Path) -> None:
    out = run_stack_bench("first_start.py", stack_template)
    assert '"pool_empty": 0' in out and '"pools_dealt_at_end": 432' in out
