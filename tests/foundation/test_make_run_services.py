"""`make run` (python -m tripeaks.stack.run) given a database and a Redis of its own: it uses them
and embeds neither. A task already waiting in the queue runs only after migrate:
test_make_run_queue.py (a file of its own, so that parallel workers share the two starts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.foundation.make_run import health, interrupt, solved_daily_deals, start, wait_until
from tests.ports import free_port

pytestmark = pytest.mark.slow


def test_make_run_uses_the_database_and_redis_it_is_given(
    tmp_path: Path, own_database: str, own_redis: str
) -> None:
    var, log, port = tmp_path / "var", tmp_path / "run.log", free_port()
    # A Redis of its own: on the machine's, another run's worker could take this one's tasks.
    services = {"DATABASE_URL": own_database, "REDIS_URL": own_redis}

    process = start(var, port, log, services)
    try:
        body = wait_until(lambda: health(port), 240, "healthy stack", log, process)
        assert body["database"]["embedded"] is False and body["redis"]["embedded"] is False
        assert body["worker"]["ok"] is True
        # The worker, beat and the server share the given services: today's deals land there.
        wait_until(
            lambda: solved_daily_deals(var, own_database), 120, "solved daily deal", log, process
        )
    finally:
        interrupt(process, log)
    assert not (var / "postgres").exists() and not (var / "redis").exists()
