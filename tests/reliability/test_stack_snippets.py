"""`Stack.python` (tests/reliability/stack.py): each snippet runs in a process of its own on the
stack, forked from one set-up Django process (snippet_server.py) instead of importing Django and
running django.setup() again; what a snippet changes never reaches the next one."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.reliability.stack import Stack

pytestmark = pytest.mark.slow

WHO = (
    "import os\nfrom django.conf import settings\nfrom django.db import connection\n"
    "import tripeaks\n"
    "connection.ensure_connection()\n"
    "print(json.dumps({'pid': os.getpid(), 'parent': os.getppid(),"
    " 'marked': getattr(tripeaks, 'MARKED', None), 'env': os.environ.get('SNIPPET_MARK'),"
    " 'setting': getattr(settings, 'SNIPPET_MARK', None),"
    " 'heartbeat': os.environ.get('CLOCK_HEARTBEAT_S'),"
    " 'backend': connection.connection.info.backend_pid}))\n"
)
MARK = (
    "import os\nfrom django.conf import settings\nimport tripeaks\n"
    "tripeaks.MARKED = 1\nos.environ['SNIPPET_MARK'] = '1'\nsettings.SNIPPET_MARK = 1\n"
    "print(json.dumps(1))\n"
)


def test_snippets_share_one_set_up_process_and_leak_nothing_into_the_next(stack: Stack) -> None:
    first = stack.python(WHO)
    assert stack.python(MARK) == 1
    second = stack.python(WHO)
    # Processes of their own, both children of the one Django process the stack set up (not of
    # this test process): django.setup() ran once for both.
    assert first["pid"] != second["pid"] != os.getpid()
    assert first["parent"] == second["parent"] != os.getpid()
    # The module global, the environment and the setting MARK changed are gone, and each
    # snippet had its own database connection.
    assert second["marked"] is None and second["env"] is None and second["setting"] is None
    assert first["backend"] != second["backend"]


def test_a_failing_snippet_raises_and_the_next_one_runs(stack: Stack) -> None:
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        stack.python("print(1 / 0)")
    with pytest.raises(RuntimeError, match="stack script failed"):
        stack.python("raise SystemExit(3)")
    assert stack.python("print(json.dumps(2))") == 2


def test_a_snippet_over_its_time_is_stopped_and_the_next_one_runs(stack: Stack) -> None:
    with pytest.raises(subprocess.TimeoutExpired):
        stack.python("import time\ntime.sleep(60)", timeout=1)
    assert stack.python("print(json.dumps(3))") == 3


def test_snippets_run_with_the_stacks_environment_as_it_is_now(stack: Stack) -> None:
    before = stack.python(WHO)
    stack.overrides["CLOCK_HEARTBEAT_S"] = "1.5"
    try:
        changed = stack.python(WHO)
    finally:
        del stack.overrides["CLOCK_HEARTBEAT_S"]
    after = stack.python(WHO)
    assert before["heartbeat"] is None and after["heartbeat"] is None
    assert changed["heartbeat"] == "1.5"
    # A process set up with the other environment ran it: Django's settings read it at set-up.
    assert changed["parent"] != before["parent"]
