"""`make run`'s stop (tripeaks/stack/run.py `Supervisor.stop`): SIGTERM, then after the grace
(`STOP_GRACE_SECONDS`, 5 s unless set) SIGQUIT to a process still running, on a clock of the
test's own."""

from __future__ import annotations

import signal
from types import SimpleNamespace

import pytest

from tripeaks.stack import run


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class BusyWorker:
    """A worker in its warm shutdown with a task running: SIGTERM does not end it, SIGQUIT does."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.signals: list[tuple[signal.Signals, float]] = []
        self.returncode: int | None = None

    def poll(self) -> int | None:
        return self.returncode

    def send_signal(self, sent: signal.Signals) -> None:
        self.signals.append((sent, self.clock.now))
        if sent == signal.SIGQUIT:
            self.returncode = -sent

    def wait(self, timeout: float | None = None) -> int | None:
        return self.returncode


@pytest.mark.parametrize(("env", "grace"), [({}, 5.0), ({"STOP_GRACE_SECONDS": "0.5"}, 0.5)])
def test_a_busy_worker_gets_its_cold_shutdown_after_the_grace(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], grace: float
) -> None:
    clock = Clock()
    monkeypatch.setattr(run, "time", SimpleNamespace(monotonic=clock.monotonic, sleep=clock.sleep))
    supervisor = run.Supervisor(env)
    worker = BusyWorker(clock)
    supervisor.processes["solver"] = worker  # type: ignore[assignment]

    supervisor.stop()

    (term, at_term), (quit_, at_quit) = worker.signals
    assert (term, quit_) == (signal.SIGTERM, signal.SIGQUIT)
    assert at_term == 0 and grace <= at_quit - at_term < grace + 0.2
