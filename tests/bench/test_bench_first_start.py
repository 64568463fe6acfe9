"""bench/first_start.py at a tiny size (tests/bench/runs.py): a fresh stack and a first minute of
random starts over every pool, none answered `pool_empty` (the shipped deals). In a file of its
own, as the other whole-stack benches (test_bench_celery_load.py, test_bench_idle_stack.py). Only
the static files are copied from the run's prepared VAR_DIR (bench/stack_template.py): the
database starts fresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.runs import TINY, run_bench

pytestmark = pytest.mark.slow


def test_first_start(stack_template: Path) -> None:
    out = run_bench(TINY["first_start.py"], STACK_TEMPLATE=str(stack_template))
    assert '"pool_empty": 0' in out and '"pools_dealt_at_end": 432' in out
