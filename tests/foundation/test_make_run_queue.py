"""`make run` (python -m tripeaks.stack.run) given a database and a Redis of its own: a task already
waiting in the queue runs only after migrate. That it uses them: test_make_run_services.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.foundation.make_run import health, interrupt, start, wait_until
from tests.ports import free_port

pytestmark = pytest.mark.slow


def test_a_task_waiting_in_the_queue_runs_only_after_migrate(
    tmp_path: Path, own_database: str, own_redis: str
) -> None:
    """A task left in the broker's queue (a run stopped before its worker took it, a deployment's
    beat) was taken by the worker while migrate was still creating the tables: a traceback at
    start (issue 35). The worker starts after migrate now."""
    from celery import Celery

    var, log, port = tmp_path / "var", tmp_path / "run.log", free_port()
    # A task that reads a table of the project, queued before anything started.
    sent = Celery(broker=own_redis).send_task("accounts.tasks.release_usernames")
    services = {"DATABASE_URL": own_database, "REDIS_URL": own_redis, "LOG_LEVEL": "INFO"}

    process = start(var, port, log, services)
    try:
        wait_until(lambda: health(port), 240, "healthy stack", log, process)
        done = f"Task accounts.tasks.release_usernames[{sent.id}] succeeded"
        wait_until(lambda: done in log.read_text(), 60, "the queued task's success", log, process)
    finally:
        interrupt(process, log)
    lines = log.read_text().splitlines()
    migrated = next(n for n, line in enumerate(lines) if line.startswith("make run: migrated"))
    received = next(n for n, line in enumerate(lines) if f"[{sent.id}] received" in line)
    assert migrated < received, "\n".join(lines[: received + 1])[-4000:]
    assert not any("Traceback" in line or "does not exist" in line for line in lines)
