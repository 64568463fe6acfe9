"""`make run` (python -m tripeaks.stack.run): the real stack on embedded PostgreSQL and Redis.

One test, run for real: first start in an empty VAR_DIR, the worker precomputes today's daily
deals at once (beat queues its schedule at start), Ctrl-C stops every process, and a second start
finds the same data and secrets.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import psycopg
import pytest
import redis

from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def wait_until(check: Callable[[], Any], seconds: float, what: str, log: Path) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = check()
        except Exception:  # noqa: BLE001 - not there yet
            value = None
        if value:
            return value
        time.sleep(0.25)
    raise AssertionError(f"no {what} within {seconds} s; log:\n{log.read_text()[-4000:]}")


def health(port: int) -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as answer:
            body: dict[str, Any] = json.loads(answer.read())
            return body if body["status"] == "ok" else None
    except OSError:
        return None


def solved_daily_deals(var: Path, conninfo: str | None = None) -> int:
    connect = (
        psycopg.connect(conninfo)
        if conninfo
        else psycopg.connect(host=str(var / "postgres"), user="postgres", dbname="tripeaks")
    )
    with connect as conn:
        row = conn.execute(
            "SELECT count(*) FROM play_deal WHERE source = 'daily' AND winnable IS NOT NULL"
        ).fetchone()
    assert row is not None
    return int(row[0])


def start(
    var: Path, port: int, log: Path, services: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    env = {
        name: value
        for name, value in os.environ.items()
        # This process's test settings point at the machine's services: make run must not see them.
        if name not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY"}
        and name != "DEAL_SECRET"
        and not name.startswith("PYTEST")
    }
    env |= {
        "DEBUG": "1",
        "VAR_DIR": str(var),
        "LOG_LEVEL": "WARNING",
        # The rest of the suite runs beside it: the worker solves today's deals on one core only.
        "CELERY_WORKER_CONCURRENCY": "1",
        "DAILY_DEALS_DAYS_AHEAD": "0",
        "RANDOM_POOL_SIZE": "0",
        **(services or {}),
    }
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "tripeaks.stack.run", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def interrupt(process: subprocess.Popen[bytes], log: Path) -> None:
    """Ctrl-C, then every process it started is gone."""
    children = psutil.Process(process.pid).children(recursive=True)
    process.send_signal(signal.SIGINT)
    try:
        assert process.wait(60) == 0, log.read_text()[-4000:]
    finally:
        if process.poll() is None:
            process.kill()
    gone, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, f"still running after Ctrl-C: {[p.cmdline() for p in alive]}"


def test_make_run_starts_the_real_stack_embedded_and_restarts_with_its_data(
    tmp_path: Path,
) -> None:
    var, log, port = tmp_path / "var", tmp_path / "run.log", free_port()
    # One deal a pool: a top-up task for each of the hundreds of pools is queued at the start, as
    # on a fresh deployment, and today's deals must not wait behind them all.
    pools = {"RANDOM_POOL_SIZE": "1"}

    process = start(var, port, log, pools)
    try:
        body = wait_until(lambda: health(port), 240, "healthy stack", log)
        assert body["database"] | {"version": "-"} == {
            "ok": True,
            "vendor": "postgresql",
            "version": "-",
            "embedded": True,
        }
        assert body["redis"]["vendor"] == "redis" and body["redis"]["embedded"] is True
        assert body["worker"]["ok"] is True and body["worker"]["workers"] >= 1
        # Nobody asked for a deal: the worker made today's daily deals because beat queued them.
        made = wait_until(lambda: solved_daily_deals(var), 120, "solved daily deal", log)
        secrets_first = (var / "secrets.json").read_text()
    finally:
        interrupt(process, log)
    assert "healthy" in log.read_text()

    process = start(var, port, log, pools)
    try:
        wait_until(lambda: health(port), 240, "healthy stack after a restart", log)
        assert solved_daily_deals(var) >= made
        assert (var / "secrets.json").read_text() == secrets_first
    finally:
        interrupt(process, log)


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
