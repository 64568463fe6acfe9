"""The Django process behind `Stack.python` (tests/reliability/stack.py): it imports Django and
runs django.setup() once (0.6 to 1.1 s of CPU, most of what a snippet's own process cost), then
for each snippet read on stdin (one JSON line, {"code": ...}) forks a child that runs it and
exits. Each snippet so starts from the same state as the process of its own it used to have:
nothing one does (settings, environment, connections, modules' globals) reaches the next. The
answer is one JSON line on the original stdout: {"rc", "stdout", "stderr"} of the child.

    python -m tests.reliability.snippet_server     # with the stack's environment
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class SnippetServer:
    """(In the test process.) The running server, started with `env`; its stderr in a log."""

    popen: subprocess.Popen[bytes]
    env: dict[str, str]
    log: Path

    @classmethod
    def start(cls, env: dict[str, str], log: Path) -> SnippetServer:
        with open(log, "ab") as errors:
            popen = subprocess.Popen(
                [sys.executable, "-m", "tests.reliability.snippet_server"],
                cwd=ROOT,
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors,
                start_new_session=True,  # its own process group: close() takes a child too
            )
        return cls(popen=popen, env=env, log=log)

    def run(self, code: str, timeout: float) -> dict[str, Any]:
        """The child's {"rc", "stdout", "stderr"}; subprocess.TimeoutExpired after `timeout`."""
        assert self.popen.stdin is not None and self.popen.stdout is not None
        self.popen.stdin.write((json.dumps({"code": code}) + "\n").encode())
        self.popen.stdin.flush()
        answer = b""
        deadline = time.monotonic() + timeout
        while not answer.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.popen.stdout], [], [], left)[0]:
                raise subprocess.TimeoutExpired(["stack snippet"], timeout)
            chunk = os.read(self.popen.stdout.fileno(), 1 << 20)
            if not chunk:
                text = self.log.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"the stack's snippet server exited:\n{text}")
            answer += chunk
        result: dict[str, Any] = json.loads(answer)
        return result

    def close(self) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)
        for pipe in (self.popen.stdin, self.popen.stdout):
            if pipe is not None:
                pipe.close()


def run_child(code: str, out: IO[bytes], err: IO[bytes]) -> None:
    """(In the forked child.) Run `code` with its stdout and stderr in `out` and `err`; exit."""
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    rc = 0
    try:
        import django

        scope = {"__name__": "__main__", "django": django, "json": json}
        exec(compile(code, "<stack snippet>", "exec"), scope)
    except SystemExit as stop:
        rc = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # noqa: BLE001 - reported as the process's would be
        traceback.print_exc()
        rc = 1
    finally:
        try:
            from django.db import connections

            connections.close_all()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(rc)


def run(code: str) -> dict[str, Any]:
    """A child's exit status, stdout and stderr for `code`."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            run_child(code, out, err)
        _, status = os.waitpid(pid, 0)
        out.seek(0)
        err.seek(0)
        return {
            "rc": os.waitstatus_to_exitcode(status),
            "stdout": out.read().decode(errors="replace"),
            "stderr": err.read().decode(errors="replace"),
        }


def main() -> None:
    # The answers' own channel: what Django or a module prints while setting up goes to stderr.
    channel = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    import django

    django.setup()
    from django.db import connections

    # A connection opened here would be shared by every child: none may be.
    assert all(connection.connection is None for connection in connections.all())
    for line in sys.stdin:
        channel.write(json.dumps(run(json.loads(line)["code"])) + "\n")
        channel.flush()


if __name__ == "__main__":
    main()
