"""bench/first_card.py at a tiny size (tests/bench/runs.py): two servers of its own (this commit as
its own baseline) on a database and a Redis of its own, one round in English. Their static files
start as copies of the run's prepared VAR_DIR's (the `stack_template` fixture,
bench/stack_template.py): collectstatic then copies and gzips nothing, as at `make run`'s second
start."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.runs import run_server_bench

pytestmark = pytest.mark.slow


def test_first_card_bench(private_redis: str, stack_template: Path) -> None:
    out = run_server_bench(
        "first_card.py",
        "BENCH_REDIS_URL",
        private_redis,
        span=2,
        STACK_TEMPLATE=str(stack_template),
    )
    assert "first card" in out and "load average" in out
    assert "newcomer   en" in out and "game page  en" in out
