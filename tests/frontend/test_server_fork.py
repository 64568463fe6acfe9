"""The browser tests' forked server (conftest `_in_the_server_process`) starts with no daily deal
in memory: the fork copies what this process read, and the tests' own fresh start forgets it only
after the session's server is up. A server that kept one started a later test's daily games on a
deal that test's emptied database no longer had (a 500 from the foreign key, seen in a full run)."""

from __future__ import annotations

import multiprocessing
from datetime import date
from multiprocessing.connection import Connection

from tests.frontend.conftest import _in_the_server_process
from tripeaks.play import deals
from tripeaks.play.models import Deal


def _report_known_daily(pipe: Connection) -> None:
    _in_the_server_process()
    pipe.send(len(deals._known_daily))


def test_the_forked_server_keeps_no_daily_deal_read_before_the_fork() -> None:
    deals._known_daily[(date(2026, 1, 1), "wrap-closed", "classic")] = Deal(pk=10**9)
    try:
        fork = multiprocessing.get_context("fork")
        mine, theirs = fork.Pipe()
        process = fork.Process(target=_report_known_daily, args=(theirs,))
        process.start()
        assert mine.poll(30), "the forked process did not report"
        assert mine.recv() == 0
        process.join(10)
    finally:
        deals.forget_daily_deals()
