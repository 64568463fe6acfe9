"""How the tests of `make run` (tests/foundation/test_make_run*.py) start it, stop it and watch
it."""

from __future__ import annotations

import json
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

from bench.idle_stack import start_stack


def wait_until(
    check: Callable[[], Any],
    seconds: float,
    what: str,
    log: Path,
    process: subprocess.Popen[bytes] | None = None,
) -> Any:
    """`check`'s first true value within `seconds`; an AssertionError with the log's end when
    none comes, at once when `process` (the stack) has exited meanwhile: what it waited for
    will not come then."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = check()
        except Exception:  # noqa: BLE001 - not there yet
            value = None
        if value:
            return value
        if process is not None and process.poll() is not None:
            what = f"{what} before the stack exited with {process.returncode}"
            break
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
    return count(var, "source = 'daily' AND winnable IS NOT NULL", conninfo)


def count(var: Path, where: str, conninfo: str | None = None) -> int:
    """How many deals of the stack's database match `where`."""
    connect = (
        psycopg.connect(conninfo)
        if conninfo
        else psycopg.connect(host=str(var / "postgres"), user="postgres", dbname="tripeaks")
    )
    with connect as conn:
        row = conn.execute(f"SELECT count(*) FROM play_deal WHERE {where}").fetchone()
    assert row is not None
    return int(row[0])


# Counts the solved daily deals of a stopped stack's database: its embedded PostgreSQL started
# and stopped again in a process of its own (pgserver's exit hook logs into pytest's closed
# capture otherwise).
_COUNT_STOPPED = """
import sys
from pathlib import Path
from tests.foundation.make_run import solved_daily_deals
from tripeaks.stack.run import EmbeddedPostgres
var = Path(sys.argv[1])
postgres = EmbeddedPostgres(var / "postgres")
postgres.start()
try:
    print(solved_daily_deals(var))
finally:
    postgres.stop()
"""


def solved_daily_deals_when_stopped(var: Path) -> int:
    """`solved_daily_deals` of a stack that is not running: what its Ctrl-C left."""
    done = subprocess.run(
        [sys.executable, "-c", _COUNT_STOPPED, str(var)],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return int(done.stdout.split()[-1])


def start(
    var: Path,
    port: int,
    log: Path,
    services: dict[str, str] | None = None,
    template: Path | None = None,
) -> subprocess.Popen[bytes]:
    """`make run` in `var`, started as bench/idle_stack.py starts it (its environment without this
    process's test settings), with no random pool unless `services` sets RANDOM_POOL_SIZE (of
    every layout unless it sets RANDOM_POOL_LAYOUTS); on a copy of `template`
    (bench/stack_template.py) when given."""
    extra = {
        # The rest of the suite runs beside it: the worker solves today's deals on one core only.
        "CELERY_WORKER_CONCURRENCY": "1",
        "DAILY_DEALS_DAYS_AHEAD": "0",
        **(services or {}),
    }
    floor = int(extra.pop("RANDOM_POOL_SIZE", "0"))
    layouts = extra.pop("RANDOM_POOL_LAYOUTS", "*")
    return start_stack(var, port, floor, layouts, log, template, **extra)


def queue_task(broker: str, name: str) -> str:
    """The task `name` queued on `broker` before any stack runs; its id. Sent by a Celery app of
    its own that does not make itself this process's current app: it did, and a later test of the
    same worker that used `current_app` (tests/play/conftest.py's `broker`) reached this test's
    Redis, stopped by then ("Connection refused" at its setup)."""
    from celery import Celery

    with Celery(broker=broker, set_as_current=False) as app:
        return str(app.send_task(name).id)


def interrupt(process: subprocess.Popen[bytes], log: Path) -> None:
    """Ctrl-C, then every process it started is gone."""
    if process.poll() is not None:
        raise AssertionError(
            f"the stack exited ({process.returncode}) before Ctrl-C; log:\n"
            + log.read_text()[-4000:]
        )
    children = psutil.Process(process.pid).children(recursive=True)
    process.send_signal(signal.SIGINT)
    try:
        assert process.wait(60) == 0, log.read_text()[-4000:]
    finally:
        if process.poll() is None:
            process.kill()
    gone, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, f"still running after Ctrl-C: {[p.cmdline() for p in alive]}"
