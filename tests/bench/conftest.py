"""The benches' tests: a private Redis server for a bench that needs one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tripeaks.stack.run import EmbeddedRedis


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[str]:
    redis = EmbeddedRedis(tmp_path / "redis")
    try:
        yield redis.start()
    finally:
        redis.stop()
