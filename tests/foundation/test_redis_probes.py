"""The looks for a Redis that may not be up ask once: `make run`'s embedded Redis
(tripeaks/stack/run.py, `EmbeddedRedis.answers`, and its stop's SHUTDOWN, which expects the
connection to drop) and the fault tests' private Redis (tests/reliability/stack.py,
`Stack.redis_up`). Their callers poll; redis-py's default of three retries with backoff made each
failed look 3.7 s: twice a start of `make run` or a test stack, once a stop, once each look of
the fault tests at a Redis a test had stopped."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.reliability.stack import Stack
from tripeaks.stack.run import EmbeddedRedis


class HangUp:
    """A listener that closes every connection at once (a server on its way down), counting."""

    def __init__(self, listener: socket.socket) -> None:
        self.listener = listener
        self.taken = 0
        listener.listen(8)
        self.thread = threading.Thread(target=self._hang_up, daemon=True)
        self.thread.start()

    def _hang_up(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:  # closed: the test is over
                return
            self.taken += 1
            connection.close()

    def close(self) -> None:
        self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        self.thread.join(5)


@pytest.fixture
def unix_hang_up(tmp_path: Path) -> Iterator[tuple[EmbeddedRedis, HangUp]]:
    redis = EmbeddedRedis(tmp_path / "redis")
    redis.socket.parent.mkdir(parents=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(redis.socket))
    hang_up = HangUp(listener)
    yield redis, hang_up
    hang_up.close()


@pytest.fixture
def tcp_hang_up() -> Iterator[tuple[int, HangUp]]:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    hang_up = HangUp(listener)
    yield listener.getsockname()[1], hang_up
    hang_up.close()


def test_the_embedded_redis_probe_asks_once(unix_hang_up: tuple[EmbeddedRedis, HangUp]) -> None:
    redis, hang_up = unix_hang_up
    assert redis.answers() is False
    assert hang_up.taken == 1


def test_the_embedded_redis_stop_asks_once(unix_hang_up: tuple[EmbeddedRedis, HangUp]) -> None:
    redis, hang_up = unix_hang_up
    redis.stop()
    assert hang_up.taken == 1


def test_the_fault_tests_redis_probe_asks_once(
    tcp_hang_up: tuple[int, HangUp], tmp_path: Path
) -> None:
    port, hang_up = tcp_hang_up
    stack = Stack(root=tmp_path, pg_port=0, redis_port=port)
    assert stack.redis_up() is False
    assert hang_up.taken == 1
