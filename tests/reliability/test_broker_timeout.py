"""A broker that never answers fails a command, it does not hold it: queueing solver work is best
effort (tripeaks/play/solver_queue.py), and a reply lost on a broken connection once held a game
start in LLEN for good (a test worker hung until CI was stopped)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
import redis
from celery import Celery
from django.conf import settings
from kombu.exceptions import OperationalError


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A TCP server on loopback that takes connections and never says a word."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    done = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not done.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    finally:
        done.set()
        thread.join()
        for connection in held:
            connection.close()
        listener.close()


def test_a_broker_command_with_no_answer_fails_within_the_socket_timeout(
    silent_server: str,
) -> None:
    app = Celery(
        set_as_current=False,  # the suite's own app stays the current one for later tests
        broker=silent_server,
        broker_transport_options=settings.CELERY_BROKER_TRANSPORT_OPTIONS,
        broker_connection_timeout=settings.CELERY_BROKER_CONNECTION_TIMEOUT,
    )
    failed: list[BaseException] = []

    def ask() -> None:
        try:
            with app.pool.acquire(block=True) as connection:
                connection.default_channel.client.llen("solver")
        except (redis.RedisError, OperationalError) as error:
            failed.append(error)

    # In a thread, so that a command held for ever (before: no socket timeout) fails the test
    # rather than hanging the run.
    asker = threading.Thread(target=ask, daemon=True)
    asker.start()
    asker.join(timeout=3 * settings.CELERY_BROKER_TRANSPORT_OPTIONS["socket_timeout"])
    assert not asker.is_alive(), "the broker command is still waiting for an answer"
    assert failed, "a silent broker answered?"
