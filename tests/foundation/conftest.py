"""Fixtures of the tests of `make run`: a VAR_DIR for its embedded services (test_make_run.py);
given services of its own (test_make_run_services.py), a database and a
Redis server no other run shares; the prepared VAR_DIR of a second start
(bench/stack_template.py: test_make_run_restart.py, and the static files of
test_make_run_services.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis

from tests.bench.runs import this_runs_stack_template
from tests.foundation.make_run import wait_until
from tests.ports import free_port


@pytest.fixture
def var_dir() -> Iterator[Path]:
    """A VAR_DIR outside pytest's temporary root: the embedded PostgreSQL runs as another user
    there (pgserver, when the tests run as root), and every pytest session that starts on the
    machine takes that user's access to /tmp/pytest-of-root away again (it keeps the folder to its
    owner): the cluster's checkpoint then failed ('pg_control: Permission denied') and the restart
    with it, in a make test run beside others."""
    scratch = Path(tempfile.mkdtemp(prefix="make-run-"))
    try:
        yield scratch / "var"
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(scope="session")
def stack_template() -> Path:
    return this_runs_stack_template()


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
