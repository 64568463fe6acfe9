"""bench/play_load.py at a tiny size (tests/bench/runs.py): servers of its own, every game replayed."""

from __future__ import annotations

import re

import pytest

from tests.bench.runs import run_server_bench

pytestmark = pytest.mark.slow


def test_play_load(private_redis: str) -> None:
    out = run_server_bench("play_load.py", "BENCH_REDIS_URL", private_redis, span=2)
    assert ": 0 differ from their stored state" in out
    # The echo beside the moves, every run (issue #37): its CPU a message and the ratios.
    echoes = re.findall(
        r"bare echo, same Uvicorn stack, (\d+) sockets.* (\d+) messages.*refused 0", out
    )
    # One socket and as many as players, with no pause, then each at the pace the players kept.
    assert [sockets for sockets, _ in echoes] == ["1", "2", "1", "2"], out
    assert all(int(messages) > 0 for _, messages in echoes), out
    ratio = re.search(
        r"server CPU a move vs a bare echo message: ([\d.]+|nan)x"
        r".*1 player alone vs 1 echo socket: ([\d.]+|nan)x",
        out,
    )
    assert ratio, out
    # The share of the measured moves that ended a game, which the CPU a move depends on.
    steady = re.search(
        r"once every player is playing \((\d+) moves, \d+ of them ending a game.*"
        r"1 player alone \((\d+) moves\)",
        out,
    )
    assert steady, out
    # A ratio whenever a move was measured. A tiny run on a machine at load 12 measured none in
    # its steady second (the players' first moves still in flight): no ratio to print then; nor
    # for the player alone at load 11 (one move in its second, taken as its first, not measured).
    assert (ratio[1] != "nan") == (int(steady[1]) > 0), out
    assert (ratio[2] != "nan") == (int(steady[2]) > 0), out
    assert re.search(r"1 sockets, a frame every [\d.]+ ms: \d+ messages", out), out
    assert re.search(r"2 sockets, a frame every [\d.]+ ms: \d+ messages", out), out
    # At a tiny run's few frames a second the echo's CPU may stay within one 10 ms tick: nan.
    assert re.search(r"a bare echo message at the players' pace .*: ([\d.]+|nan)x", out), out
    assert re.search(r"1 player alone vs 1 echo socket at the player's pace .*: ([\d.]+|nan)x", out)
