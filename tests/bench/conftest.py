"""The benches' tests: a private Redis server for a bench that needs one; the prepared VAR_DIR
the whole-stack benches start on (bench/stack_template.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bench.runs import this_runs_stack_template
from tripeaks.stack.run import EmbeddedRedis


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[str]:
    redis = EmbeddedRedis(tmp_path / "redis")
    try:
        yield redis.start()
    finally:
        redis.stop()


@pytest.fixture(scope="session")
def stack_template() -> Path:
    return this_runs_stack_template()
