"""`python -c CODE` with an environment of its own, started as a fork of a warm process: the
settings tests (tests/foundation/test_settings*.py) each start Python to read the settings under
an environment, and each such process spent 0.5-0.6 s of CPU importing what the settings module
imports (django_stubs_ext's patches import Django's models and admin) before reading a variable.

One server process a test process (started when first asked, gone when its stdin closes) imports
those libraries, none of which reads the environment or the settings when imported, and forks a
child for each run: the child empties its environment and takes the run's, points its stdout and
stderr at files, and runs the code as `python -c` runs it (exit status 1 and the traceback on
stderr for an exception, `sys.exit`'s code). Nothing of the project is imported before the fork:
the settings module is read afresh in each child.
"""

from __future__ import annotations

import atexit
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
# How long a run may take before its child is killed (as `subprocess.run`'s timeout was).
TIMEOUT_S = 120

SERVER = r"""
import json, os, sys, tempfile, time, traceback

import django_stubs_ext.patch  # Django's models, forms and admin, as the settings' monkeypatch
import environ
import csp.constants
import django.contrib.auth.hashers
import django.core.exceptions
import psycopg
import psycopg_pool

def run(code, env, out, err):
    os.environ.clear()
    os.environ.update(env)
    nothing = os.open(os.devnull, os.O_RDONLY)  # not the server's input: the runs' requests
    os.dup2(nothing, 0)
    os.close(nothing)
    for fd, path in ((1, out), (2, err)):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(target, fd)
        os.close(target)
    status = 0
    try:
        exec(compile(code, "<string>", "exec"), {"__name__": "__main__"})
    except SystemExit as done:
        if done.code is None:
            status = 0
        elif isinstance(done.code, int):
            status = done.code
        else:
            print(done.code, file=sys.stderr)
            status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    return status

scratch = tempfile.mkdtemp(prefix="forked-python-")
out, err = os.path.join(scratch, "out"), os.path.join(scratch, "err")
for line in sys.stdin:
    ask = json.loads(line)
    child = os.fork()
    if child == 0:
        status = 1
        try:
            status = run(ask["code"], ask["env"], out, err)
        finally:
            os._exit(status)
    deadline = time.monotonic() + ask["timeout"]
    while (ended := os.waitpid(child, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.005)
    if ended[0] == 0:
        os.kill(child, 9)
        ended = os.waitpid(child, 0)
    returncode = os.waitstatus_to_exitcode(ended[1])
    answer = {"returncode": returncode}
    for name, path in (("stdout", out), ("stderr", err)):
        with open(path, encoding="utf-8", errors="replace") as read:
            answer[name] = read.read()
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
"""

_lock = threading.Lock()
_servers: dict[str, subprocess.Popen[str]] = {}


@atexit.register
def _stop_servers() -> None:
    """Each server ends at the end of its input, and is waited for: its CPU and its children's
    count in this process's (`time`, tests/file_durations.py) as a child's did."""
    for server in _servers.values():
        if server.stdin is not None:
            server.stdin.close()
        server.wait(10)


def _server(base: dict[str, str]) -> subprocess.Popen[str]:
    """This process's server for runs over the environment `base` (started when first asked)."""
    key = json.dumps(base, sort_keys=True)
    server = _servers.get(key)
    if server is None or server.poll() is not None:
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER],
            cwd=ROOT,
            env=base,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        _servers[key] = server
    return server


def run(code: str, base: dict[str, str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`python -c code` in ROOT with the environment `base` and `env` over it, as `subprocess.run`
    with captured text output would give it."""
    with _lock:
        server = _server(base)
        streams: tuple[IO[str] | None, IO[str] | None] = (server.stdin, server.stdout)
        ask, answer = streams
        assert ask is not None and answer is not None
        ask.write(json.dumps({"code": code, "env": {**base, **env}, "timeout": TIMEOUT_S}) + "\n")
        ask.flush()
        line = answer.readline()
    if not line:
        raise RuntimeError(f"the forking server exited ({server.wait()})")
    done = json.loads(line)
    return subprocess.CompletedProcess(
        [sys.executable, "-c", code], done["returncode"], done["stdout"], done["stderr"]
    )
