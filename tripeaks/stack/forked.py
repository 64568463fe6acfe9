"""`make run`'s processes forked from its supervisor once it has set Django up (tripeaks/stack/run.py).

Each of a stack's five Python processes (prepare, the two workers, the server, beat) started
Python and set Django up on its own: 0.8-0.9 s of CPU each (`django.setup()` and the imports of
Celery, Uvicorn and the ASGI application), 4 of a second start's 9.5 s. The supervisor now does
it once and forks each of them: the child takes what the parent imported and runs the same entry
point the command line ran (`python -m celery ...`, `python -m tripeaks.stack.serve`, `python -m
tripeaks.stack.prepare`). The parent never opens a database or Redis connection through Django
(the pool's threads and sockets would be shared): prepare, which migrates, is a child too.

A forked child keeps the supervisor's command line; its name (`/proc/PID/comm`, what `ps -o comm`
and psutil's `name()` read) says which it is: ``stack-worker``, ``stack-solver``, ``stack-web``,
``stack-beat``, ``stack-prepare`` (`NAME_PREFIX`).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import importlib
import logging
import os
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable

NAME_PREFIX = "stack-"
_PR_SET_NAME = 15
_PR_SET_PDEATHSIG = 1


def preload(env: dict[str, str]) -> None:
    """Django set up in this process with the stack's environment, and the modules its children
    import at their start. Nothing here connects to a server, starts a thread or builds the ASGI
    application: its import freezes the collector's objects and sets its thresholds for the
    server's process alone, and WhiteNoise reads the static files collectstatic is yet to write."""
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks.config.settings")
    import django

    try:
        django.setup()
    except Exception as failure:  # a setting's error: said, as prepare's process said it
        traceback.print_exc()
        raise RuntimeError(f"Django's setup: {failure}") from failure
    from django.conf import settings

    for module in (
        "celery.apps.beat",
        "celery.apps.worker",
        "celery.__main__",
        "celery.bin.celery",
        "channels.routing",
        "uvicorn",
        "tripeaks.config.celery",
        "tripeaks.config.routing",
        "tripeaks.infra.front_gate",
        "tripeaks.infra.request_threads",
        "tripeaks.infra.socket_outage",
        "tripeaks.infra.socket_sessions",
        "tripeaks.infra.socket_threads",
        "tripeaks.stack.prepare",
        "tripeaks.stack.serve",
        settings.ROOT_URLCONF,
        *(path.rsplit(".", 1)[0] for path in settings.MIDDLEWARE),
    ):
        importlib.import_module(module)
    gc.collect()
    gc.freeze()


def die_with_parent() -> None:
    """In a child (forked, or before exec): if the supervisor dies, even by SIGKILL, the child
    gets SIGTERM."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _as_child(name: str, env: dict[str, str]) -> None:
    """What Popen's `start_new_session`, `env` and the supervisor's `preexec_fn` did."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.setsid()
    die_with_parent()
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_NAME, (NAME_PREFIX + name)[:15].encode())
    os.environ.clear()
    os.environ.update(env)
    # As PYTHONUNBUFFERED in a process of its own: each line in the log as it is written.
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(line_buffering=True, write_through=True)  # type: ignore[union-attr]


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write(f"{code}\n")  # as the interpreter reports sys.exit("message")
    return 1


def fork(name: str, env: dict[str, str], target: Callable[[], object]) -> Forked:
    """`target` run in a child of this process, its exit status the child's. The child ends with
    `os._exit`: the supervisor's exit hooks (the embedded PostgreSQL's) are not its."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return Forked(pid)
    code = 1
    try:
        _as_child(name, env)
        target()
        code = 0
    except SystemExit as done:
        code = _exit_code(done.code)
    except BaseException:  # noqa: BLE001 - a child never returns into the supervisor's code
        traceback.print_exc()
    finally:
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # nothing to report it to
                stream.flush()
        os._exit(code)


class Forked:
    """A forked child, as the supervisor handles a `subprocess.Popen`."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout or 0.0)
            time.sleep(0.05)
        return code

    def send_signal(self, sent: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sent)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)
