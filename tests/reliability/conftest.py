"""Fixtures of the reliability tests. ``stack``: a private PostgreSQL + Redis (+ ASGI servers
and Celery workers the tests start) per test process, made on first use and torn down at the end
of the session even when tests fail; see stack.py. The API fuzz tests are built when they run
(fuzz_builds.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.reliability import fuzz_builds
from tests.reliability.stack import Stack

fuzz_builds.install()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    fuzz_builds.build_before_setup(item)


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


@pytest.fixture
def fuzz_player(db: None) -> Iterator[dict[str, Any]]:
    """The fuzzed API's player, its games and token; the database checked after each operation's
    test (tests/reliability/api_fuzz.py)."""
    from tests.reliability.api_fuzz import fuzz_player as make

    yield from make()
