"""A private TriPeaks stack for fault tests: its own PostgreSQL cluster and Redis server on free
ports, ASGI servers (tripeaks.stack.serve) and a Celery worker as subprocesses, all owned (and torn down) by the test
process that made it. The shared PostgreSQL and Redis (5432, 6379) are never touched.

    stack = Stack.create()          # initdb + migrate (or a copy of a migrated one), redis-server
    server = stack.start_server()   # tripeaks.stack.serve on a free port; server.kill() is SIGKILL
    stack.stop_postgres(); stack.start_postgres()
    stack.stop_redis(); stack.start_redis()
    worker = stack.start_worker()
    stack.close()                   # everything stopped, the temporary directory removed

The ``stack`` fixture (tests/reliability/conftest.py) makes one per test process (so one per
xdist worker, each on its own ports) on first use and closes it at the end of the session, also
when tests fail. Everything runs in the production profile (DEBUG off) with real Celery (not
eager).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.database import migrations_digest
from tests.ports import free_port
from tests.reliability.snippet_server import SnippetServer

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
BIN = Path(PYTHON).parent


def pg_bin(name: str) -> str:
    for candidate in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True):
        return str(candidate)
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"{name} not found: the fault tests need PostgreSQL's server binaries")
    return found


def _as_postgres(command: list[str]) -> list[str]:
    # initdb refuses to run as root: the cluster belongs to the postgres user then.
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def wait_until(check: Any, timeout: float, what: str, interval: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(Exception):
            value = check()
            if value:
                return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path
    port: int | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL, no goodbye: what a crashed or OOM-killed process looks like."""
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)

    def stop(self) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@dataclass
class Stack:
    root: Path
    pg_port: int
    redis_port: int
    processes: list[Process] = field(default_factory=list)
    redis: subprocess.Popen[bytes] | None = None
    # Environment every process of the stack gets on top of env()'s (e.g. the soak's rates).
    overrides: dict[str, str] = field(default_factory=dict)
    # Random for each stack (a value written in the repository is refused with DEBUG off), the
    # same for every process of it: sessions and deals must agree between them.
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(50))
    deal_secret: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    _snippets: SnippetServer | None = field(default=None, repr=False)
    _snippets_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def create(cls, overrides: dict[str, str] | None = None) -> Stack:
        root = Path(tempfile.mkdtemp(prefix="tripeaks-stack-"))
        stack = cls(
            root=root, pg_port=free_port(), redis_port=free_port(), overrides=overrides or {}
        )
        try:
            stack._migrated_cluster()
            stack.start_redis()
        except BaseException:
            stack.close()
            raise
        return stack

    def close(self) -> None:
        if self._snippets is not None:
            self._snippets.close()
            self._snippets = None
        for process in self.processes:
            with contextlib.suppress(Exception):
                process.kill()
        self.processes.clear()
        with contextlib.suppress(Exception):
            self.stop_redis()
        with contextlib.suppress(Exception):
            self.stop_postgres(mode="immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    # ------------------------------------------------------------------ environment
    @property
    def database_url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.pg_port}/tripeaks"

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("PYTEST", "DJANGO", "DATABASE", "REDIS", "CELERY", "THROTTLE"))
        }
        env.update(
            DJANGO_SETTINGS_MODULE="tripeaks.config.settings",
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            DEBUG="0",
            SECRET_KEY=self.secret_key,
            DEAL_SECRET=self.deal_secret,
            ALLOWED_HOSTS="127.0.0.1,localhost",
            SECURE_SSL_REDIRECT="0",
            CELERY_VISIBILITY_TIMEOUT="4",
            CELERY_RESTORE_INTERVAL="1",
            CONN_MAX_AGE="60",
            DB_CONNECT_TIMEOUT="2",
            LOG_LEVEL="INFO",
            # Tests drive games at machine speed; the limits and the timing check are tested
            # on their own (test_throttling, test_fair_play).
            THROTTLE_MOVES="10000/s",
            THROTTLE_MOVES_ADDRESS="10000/s",
            THROTTLE_GAME_STARTS="10000/min",
            THROTTLE_GAME_STARTS_ADDRESS="10000/min",
            THROTTLE_USER="100000/min",
            # Every test's sockets and requests come from 127.0.0.1 (the front gate is tested on
            # its own: test_front_gate).
            THROTTLE_SOCKET_OPENS_ADDRESS="100000/s",
            THROTTLE_API_ADDRESS="100000/s",
            THROTTLE_API_ADDRESS_MINUTE="1000000/min",
            THROTTLE_API_CREDENTIAL="100000/s",
            THROTTLE_API_CREDENTIAL_MINUTE="1000000/min",
            FAIR_PLAY_TIMING_CHECK="0",
            FAIR_PLAY_HOLD_SHARED="0",
            # A worker fills every random pool when it starts (432 of them): not here, where a
            # test's own tasks must not queue behind that (tests/play/test_deal_pools.py).
            RANDOM_POOL_SIZE="0",
            # A sign-up's hash at Django's work factor is 0.23 s of CPU; tests sign dozens up at
            # once (accounts/hashers.py).
            PASSWORD_HASH_ITERATIONS="1000",
            ALLOW_WEAK_PASSWORD_HASHES="1",
            PYTHONUNBUFFERED="1",
            # HTML pages need the hashed static files (`collect_static`).
            STATIC_ROOT=str(self.root / "static"),
        )
        env.update(self.overrides)
        env.update(extra)
        return env

    def manage(self, *args: str, timeout: float = 120) -> str:
        done = subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=ROOT,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
        return done.stdout

    def collect_static(self) -> None:
        """The collected static files, for tests that render HTML pages (the production profile's
        static storage needs its manifest): those of the test run's prepared VAR_DIR
        (bench/stack_template.py), which `make run`'s own collectstatic made from this checkout
        with this storage, linked in and only read. Collecting them again here was a Django
        process of 3.6 s of CPU (35 MB written) in each test process that rendered a page; the
        run's benches make the template anyway."""
        if not (self.root / "static" / "staticfiles.json").exists():
            from tests.bench.runs import this_runs_stack_template

            (self.root / "static").symlink_to(this_runs_stack_template() / "static")

    def python(self, code: str, timeout: float = 120) -> Any:
        """Run `code` in a Django process on this stack; it prints one JSON value, returned. Each
        snippet runs in a child forked from the stack's one set-up Django process (snippet_server.py):
        a process of its own, without the imports and django.setup() each one cost before."""
        env = self.env(LOG_LEVEL="WARNING")
        with self._snippets_lock:
            if self._snippets is not None and self._snippets.env != env:
                self._snippets.close()  # another environment (overrides): another process
                self._snippets = None
            if self._snippets is None:
                self._snippets = SnippetServer.start(env, self.root / "snippets.log")
            try:
                done = self._snippets.run(code, timeout)
            except BaseException:
                self._snippets.close()
                self._snippets = None
                raise
        if done["rc"]:
            raise RuntimeError(f"stack script failed:\n{done['stderr'][-3000:]}")
        return json.loads(done["stdout"].strip().splitlines()[-1])

    # ------------------------------------------------------------------ postgres
    @property
    def pgdata(self) -> Path:
        return self.root / "pgdata"

    def _migrated_cluster(self) -> None:
        """PostgreSQL running with the project's database migrated. initdb and migrate cost 3.3 s
        of CPU (and the server's own): the first stack keeps a copy of its stopped cluster in the
        temporary directory, under a name made of the migrations' text, and later stacks (of
        this run's other processes, the soak's, the next runs') start from a copy of it."""
        digest = hashlib.sha256(pg_bin("initdb").encode() + migrations_digest().encode())
        cache = Path(tempfile.gettempdir()) / f"tripeaks-stack-pgdata-{digest.hexdigest()[:16]}"
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
        with open(f"{cache}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if (cache / "PG_VERSION").exists():
                subprocess.run(["cp", "-a", str(cache), str(self.pgdata)], check=True, timeout=60)
                self.start_postgres()
                return
            self._initdb()
            self.start_postgres()
            self._create_database()
            self.manage("migrate", "--noinput", "-v0")
            self.stop_postgres()
            partial = Path(f"{cache}.partial")
            shutil.rmtree(partial, ignore_errors=True)
            subprocess.run(["cp", "-a", str(self.pgdata), str(partial)], check=True, timeout=60)
            partial.rename(cache)
        self.start_postgres()

    def _initdb(self) -> None:
        subprocess.run(
            _as_postgres(
                [pg_bin("initdb"), "-D", str(self.pgdata), "-A", "trust", "-U", "postgres"]
                + ["--no-sync", "-E", "UTF8"]
            ),
            check=True,
            capture_output=True,
            timeout=60,
        )

    def start_postgres(self) -> None:
        options = (
            f"-p {self.pg_port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=200 -c full_page_writes=off"
        )
        subprocess.run(
            _as_postgres(
                [pg_bin("pg_ctl"), "-D", str(self.pgdata), "-o", options]
                + ["-l", str(self.root / "postgres.log"), "-w", "-t", "30", "start"]
            ),
            check=True,
            capture_output=True,
            timeout=60,
        )

    def stop_postgres(self, mode: str = "fast") -> None:
        subprocess.run(
            _as_postgres([pg_bin("pg_ctl"), "-D", str(self.pgdata), "-m", mode, "-w", "stop"]),
            check=False,
            capture_output=True,
            timeout=60,
        )

    def postgres_up(self) -> bool:
        done = subprocess.run(
            _as_postgres([pg_bin("pg_ctl"), "-D", str(self.pgdata), "status"]),
            capture_output=True,
            check=False,
            timeout=10,
        )
        return done.returncode == 0

    def _create_database(self) -> None:
        import psycopg

        with psycopg.connect(
            f"postgresql://postgres@127.0.0.1:{self.pg_port}/postgres", autocommit=True
        ) as connection:
            connection.execute('CREATE DATABASE "tripeaks"')

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(
            f"postgresql://postgres@127.0.0.1:{self.pg_port}/tripeaks", connect_timeout=5
        ) as connection:
            cursor = connection.execute(query, params)
            return list(cursor.fetchall()) if cursor.description else []

    # ------------------------------------------------------------------ redis
    def start_redis(self) -> None:
        log = open(self.root / "redis.log", "ab")  # noqa: SIM115 - kept by the process
        self.redis = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.root),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        wait_until(self.redis_up, 15, "redis-server")

    def redis_pid(self) -> int | None:
        return None if self.redis is None else self.redis.pid

    def postgres_pids(self) -> list[int]:
        """The postmaster and every process it started (backends, checkpointer, ...)."""
        postmaster = int((self.pgdata / "postmaster.pid").read_text().split()[0])
        children = Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split()
        return [postmaster, *map(int, children)]

    def stop_redis(self) -> None:
        if self.redis is not None and self.redis.poll() is None:
            self.redis.kill()
            self.redis.wait(timeout=10)
        self.redis = None

    def redis_up(self) -> bool:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        # One try (redis-py retries three times with backoff by default: a Redis that was down
        # cost each look 3.7 s); the callers poll.
        client = redis.Redis(
            port=self.redis_port, socket_connect_timeout=1, retry=Retry(NoBackoff(), 0)
        )
        try:
            return bool(client.ping())
        except redis.exceptions.ConnectionError:
            return False
        finally:
            client.close()

    def ensure_up(self) -> None:
        """Undo what a previous test broke: PostgreSQL and Redis running."""
        if not self.postgres_up():
            self.start_postgres()
        if not self.redis_up():
            self.start_redis()

    # ------------------------------------------------------------------ servers, workers
    def _spawn(
        self,
        name: str,
        command: list[str],
        port: int | None = None,
        env: dict[str, str] | None = None,
    ) -> Process:
        log_path = self.root / f"{name}.log"
        log = open(log_path, "ab")  # noqa: SIM115 - kept by the process
        popen = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env(**(env or {})),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kill() takes its children too
        )
        log.close()
        process = Process(name=name, popen=popen, log=log_path, port=port)
        self.processes.append(process)
        return process

    def start_server(
        self, name: str = "server", port: int | None = None, env: dict[str, str] | None = None
    ) -> Process:
        """`env`: more environment for this server only (e.g. a smaller pool)."""
        port = port or free_port()
        server = self._spawn(
            name,
            [str(BIN / "python"), "-m", "tripeaks.stack.serve", "--port", str(port)],
            port,
            env,
        )

        def answers() -> bool:
            if server.popen.poll() is not None:
                raise RuntimeError(f"{name} exited:\n{server.log_text()[-3000:]}")
            try:
                urllib.request.urlopen(f"{server.url}/api/today", timeout=2).read()
                return True
            except (urllib.error.URLError, OSError):
                return False

        wait_until(answers, 40, f"{name} on port {port}", interval=0.2)
        return server

    def shared_server(self, name: str, env: dict[str, str] | None = None) -> Iterator[Process]:
        """A server for several tests of one module (a module-scoped fixture yields from this):
        started once, stopped after the module. Only for tests that leave it as they found it
        (each resets the limits' counters in Redis, none stops PostgreSQL or Redis under it).
        A server start is 1.5 to 2 s of CPU, most of a short finding's test."""
        self.ensure_up()
        server = self.start_server(name, env=env)
        try:
            yield server
        finally:
            server.kill()
            self.processes.remove(server)

    def start_worker(self, name: str = "worker") -> Process:
        worker = self._spawn(
            name,
            [str(BIN / "celery"), "-A", "tripeaks.config", "worker", "--pool=solo", "-l", "INFO"]
            + ["--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"{name}@%h"],
        )
        wait_until(lambda: "ready" in worker.log_text(), 40, f"celery {name}", interval=0.2)
        return worker

    def players(self, count: int, prefix: str) -> list[tuple[str, str]]:
        """Players ``{prefix}{i}`` with a session key (sockets) and a token (REST)."""
        code = (
            "from bench.play_load import make_players\n"
            f"print(json.dumps(make_players({count}, {prefix!r})))\n"
        )
        return [tuple(pair) for pair in self.python(code)]  # type: ignore[misc]


def check_database() -> dict[str, Any]:
    """(Inside a Django process.) Is every game's stored state its move log's replay, every game's
    seq its log's length, and every statistic its recomputation?"""
    from django.db import transaction
    from django.db.models import Count, F

    from bench.play_load import verify_replays
    from leaderboard.models import PlayerStats
    from leaderboard.services.recompute import recompute_stats
    from tripeaks.play.models import Game

    ids = {str(pk) for pk in Game.objects.values_list("pk", flat=True)}
    checked, bad = verify_replays(ids)
    gaps = Game.objects.annotate(logged=Count("log")).exclude(logged=F("seq")).count()
    fields = [f.name for f in PlayerStats._meta.fields if f.name not in ("id",)]
    before = sorted(PlayerStats.objects.values_list(*fields))
    with transaction.atomic():
        recompute_stats()
        after = sorted(PlayerStats.objects.values_list(*fields))
        transaction.set_rollback(True)
    return {
        "games": checked,
        "replay_mismatches": bad,
        "seq_gaps": gaps,
        "stats_rows": len(before),
        "stats_equal_recomputed": before == after,
    }


def _headers(message: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in message.items()}


def request(
    method: str,
    url: str,
    body: Any = None,
    token: str | None = None,
    timeout: float = 15,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, Any], dict[str, str], float]:
    """(status, JSON body, headers, seconds) of one HTTP request; never raises on an HTTP error.
    Header names are lower-cased: they are case-insensitive, and servers differ in how they send
    them."""
    data = None if body is None else json.dumps(body).encode()
    sent = dict(headers or {})
    if data is not None:
        sent["Content-Type"] = "application/json"
    if token:
        sent["Authorization"] = f"Token {token}"
    started = time.monotonic()
    req = urllib.request.Request(url, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            status, raw, got = response.status, response.read(), _headers(response.headers)
    except urllib.error.HTTPError as error:
        status, raw, got = error.code, error.read(), _headers(error.headers)
    elapsed = time.monotonic() - started
    try:
        parsed = json.loads(raw) if raw else {}
    except ValueError:
        parsed = {"_raw": raw[:500].decode(errors="replace")}
    return status, parsed, got, elapsed
