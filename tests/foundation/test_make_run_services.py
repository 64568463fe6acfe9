"""`make run` (python -m tripeaks.stack.run) given a database and a Redis of its own: it uses them
and embeds neither, and a task already waiting in the queue runs only after migrate."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis

from tests.foundation.make_run import health, interrupt, solved_daily_deals, start, wait_until
from tests.ports import free_port

pytestmark = pytest.mark.slow


@pytest.fixture
def own_database() -> Any:
    """A fresh database on the machine's PostgreSQL, dropped afterwards."""
    name = f"make_run_{os.getpid()}"
    admin = "postgresql://postgres@127.0.0.1:5432/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_make_run_uses_the_database_and_redis_it_is_given(
    tmp_path: Path, own_database: str
) -> None:
    var, log, port = tmp_path / "var", tmp_path / "run.log", free_port()
    services = {"DATABASE_URL": own_database, "REDIS_URL": "redis://127.0.0.1:6379/8"}

    process = start(var, port, log, services)
    try:
        body = wait_until(lambda: health(port), 240, "healthy stack", log)
        assert body["database"]["embedded"] is False and body["redis"]["embedded"] is False
        assert body["worker"]["ok"] is True
        # The worker, beat and the server share the given services: today's deals land there.
        wait_until(lambda: solved_daily_deals(var, own_database), 120, "solved daily deal", log)
    finally:
        interrupt(process, log)
    assert not (var / "postgres").exists() and not (var / "redis").exists()


@pytest.fixture
def own_redis(tmp_path: Path) -> Any:
    """A redis-server of this test's own on a free port (a queue no other run shares)."""
    port = free_port()
    server = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    wait_until(client.ping, 15, "redis-server", tmp_path / "none.log")
    yield url
    server.terminate()
    server.wait(10)


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
        wait_until(lambda: health(port), 240, "healthy stack", log)
        done = f"Task accounts.tasks.release_usernames[{sent.id}] succeeded"
        wait_until(lambda: done in log.read_text(), 60, "the queued task's success", log)
    finally:
        interrupt(process, log)
    lines = log.read_text().splitlines()
    migrated = next(n for n, line in enumerate(lines) if line.startswith("make run: migrated"))
    received = next(n for n, line in enumerate(lines) if f"[{sent.id}] received" in line)
    assert migrated < received, "\n".join(lines[: received + 1])[-4000:]
    assert not any("Traceback" in line or "does not exist" in line for line in lines)
