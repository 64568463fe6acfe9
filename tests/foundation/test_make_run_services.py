"""`make run` (python -m tripeaks.stack.run) given a database and a Redis of its own: it uses them
and embeds neither, and a task already waiting in the queue runs only after migrate. One start
checks both (a stack's start is most of either check's time, and the queued task changes nothing
the first check reads); the embedded stack and its restart: test_make_run.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.stack_template import copy_into
from tests.foundation.make_run import (
    health,
    interrupt,
    queue_task,
    solved_daily_deals,
    start,
    wait_until,
)
from tests.ports import free_port

pytestmark = pytest.mark.slow


def test_make_run_uses_the_database_and_redis_it_is_given_and_runs_a_queued_task_after_migrate(
    tmp_path: Path, own_database: str, own_redis: str, stack_template: Path
) -> None:
    """A task left in the broker's queue (a run stopped before its worker took it, a deployment's
    beat) was taken by the worker while migrate was still creating the tables: a traceback at
    start (issue 35). The worker starts after migrate now."""
    var, log, port = tmp_path / "var", tmp_path / "run.log", free_port()
    # A task that reads a table of the project, queued before anything started.
    sent = queue_task(own_redis, "accounts.tasks.release_usernames")
    # A Redis of its own: on the machine's, another run's worker could take this one's tasks.
    services = {"DATABASE_URL": own_database, "REDIS_URL": own_redis, "LOG_LEVEL": "INFO"}

    # Its static files collected already (bench/stack_template.py): the fresh collect is
    # test_make_run.py's; the database stays empty, for migrate to make while the task waits.
    copy_into(var, stack_template, database=False)
    process = start(var, port, log, services)
    try:
        body = wait_until(lambda: health(port), 240, "healthy stack", log, process)
        assert body["database"]["embedded"] is False and body["redis"]["embedded"] is False
        assert body["worker"]["ok"] is True
        done = f"Task accounts.tasks.release_usernames[{sent}] succeeded"
        wait_until(lambda: done in log.read_text(), 60, "the queued task's success", log, process)
        # The worker, beat and the server share the given services: today's deals land there.
        wait_until(
            lambda: solved_daily_deals(var, own_database), 120, "solved daily deal", log, process
        )
    finally:
        interrupt(process, log)
    assert not (var / "postgres").exists() and not (var / "redis").exists()
    lines = log.read_text().splitlines()
    migrated = next(n for n, line in enumerate(lines) if line.startswith("make run: migrated"))
    received = next(n for n, line in enumerate(lines) if f"[{sent}] received" in line)
    assert migrated < received, "\n".join(lines[: received + 1])[-4000:]
    assert not any("Traceback" in line or "does not exist" in line for line in lines)
    # The workers asked no neighbours at their start (mingle: a broadcast and a second's wait for
    # replies, before the first task and the health check's ping).
    assert not any("mingle" in line for line in lines)


def test_the_task_queued_before_a_start_leaves_this_process_celery_app_alone(
    own_redis: str,
) -> None:
    """The test above queues its task with an app of its own; the suite's app stays the current
    one for the worker's later tests (they failed at setup, reaching the stopped Redis)."""
    import redis
    from celery import current_app

    from tripeaks.config.celery import app

    queue_task(own_redis, "accounts.tasks.release_usernames")
    assert current_app._get_current_object() is app
    assert redis.Redis.from_url(own_redis).llen("celery") == 1
