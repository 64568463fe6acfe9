"""The benches that start the whole stack (`python -m tripeaks.stack.run`: servers, workers and
beat on an embedded PostgreSQL and Redis), at a tiny size: each in this file of their own, apart
from the short benches (test_every_bench_runs.py)."""

from __future__ import annotations

import pytest

from tests.bench.runs import TINY, run_bench

pytestmark = pytest.mark.slow


def test_celery_load() -> None:
    out = run_bench(TINY["celery_load.py"])
    assert '"lost": 0' in out and "worker_rss_mb" in out


def test_idle_stack() -> None:
    out = run_bench(TINY["idle_stack.py"])
    assert "every pool full" in out and "idle stack:" in out


def test_first_start() -> None:
    out = run_bench(TINY["first_start.py"])
    assert '"pool_empty": 0' in out and '"pools_dealt_at_end": 432' in out
