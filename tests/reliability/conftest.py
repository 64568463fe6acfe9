"""Fixtures of the reliability tests. ``stack``: a private PostgreSQL + Redis (+ ASGI servers
and Celery workers the tests start) per test process, made on first use and torn down at the end
of the session even when tests fail; see stack.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.reliability.stack import Stack


@pytest.fixture(scope="session")
def _private_stack() -> Iterator[Stack]:
    stack = Stack.create()
    try:
        yield stack
    finally:
        stack.close()


@pytest.fixture
def stack(_private_stack: Stack) -> Iterator[Stack]:
    """The private stack with PostgreSQL and Redis up; servers and workers a test starts are
    stopped after it."""
    _private_stack.ensure_up()
    started = len(_private_stack.processes)
    try:
        yield _private_stack
    finally:
        for process in _private_stack.processes[started:]:
            process.kill()
        del _private_stack.processes[started:]
        _private_stack.ensure_up()
