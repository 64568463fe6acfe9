"""Calls made at the same moment: threads released together by a barrier (the suite's attacks of
concurrent requests against a limit, a lock or a count)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection


def at_once(calls: Sequence[Callable[[], Any]]) -> list[Any]:
    """Each call's answer, in order, or what it raised; each thread's database connection closed
    after its call (a thread's connection is its own)."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            answers[i] = calls[i]()
        except Exception as error:  # noqa: BLE001 - the caller's test reports it
            answers[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers
