"""Benchmarks that cannot rot: every bench under bench/ runs at a tiny size (tests/bench/runs.py),
so a change that breaks one (a new column its seeding does not know, a renamed function, a setting
it needs) fails `make test`. The figures at this size mean nothing; that each bench runs to its end
and says its checks passed does.

The benches that start servers of their own take 10-40 s each; they have a file each
(test_bench_*.py; the idle stack's measures tests/foundation/test_make_run_restart.py's stack), so
that no test file takes more than 30 s on one worker. The short ones are here.
"""

from __future__ import annotations

import os

import pytest

from tests.bench.runs import NOT_BENCHES, ROOT, TINY, drop_database, run_bench, urlsplit_path

pytestmark = pytest.mark.slow


def test_every_bench_has_a_tiny_run_here() -> None:
    benches = {path.name for path in (ROOT / "bench").glob("*.py")} - NOT_BENCHES
    assert benches == set(TINY), (
        "give each bench a tiny run in TINY (tests/bench/runs.py) and a test"
    )


def test_solver_bench() -> None:
    out = run_bench(TINY["solver_bench.py"])
    assert "speed-up" in out.lower() or "deals/s" in out


def test_move_python() -> None:
    out = run_bench(TINY["move_python.py"])
    assert "this checkout: " in out and " ns a move (advance, the stored copy, the view" in out


def test_layout_solvability() -> None:
    out = run_bench(TINY["layout_solvability.py"])
    assert "classic" in out


def test_fairplay_bench() -> None:
    out = run_bench(TINY["fairplay_bench.py"])
    assert "false positives" in out and "caught" in out and "arena games" in out


def test_solver_worst_case() -> None:
    out = run_bench(TINY["solver_worst_case.py"])
    assert "pyramid" in out


def test_game_opening(private_redis: str) -> None:
    url = urlsplit_path(os.environ["DATABASE_URL"], f"tripeaks_bench_game_opening_{os.getpid()}")
    out = run_bench(TINY["game_opening.py"], BENCH_DATABASE_URL=url, BENCH_REDIS_URL=private_redis)
    drop_database(url)
    assert "round 1 (clocks running): a game socket's opening" in out
    assert "round 2 (clocks stopped)" in out and "Redis round trips" in out


def test_game_opening_bursts(private_redis: str) -> None:
    url = urlsplit_path(os.environ["DATABASE_URL"], f"tripeaks_bench_game_bursts_{os.getpid()}")
    command = [*TINY["game_opening.py"], "--burst", "7"]
    out = run_bench(command, BENCH_DATABASE_URL=url, BENCH_REDIS_URL=private_redis)
    drop_database(url)
    assert "round 1 (clocks running): a burst of 7 opens" in out
    assert "10.00 hops, 15.00 statements" in out  # two players: 5 served a burst, 2 refused


def test_race_opening(private_redis: str) -> None:
    url = urlsplit_path(os.environ["DATABASE_URL"], f"tripeaks_bench_race_opening_{os.getpid()}")
    out = run_bench(TINY["race_opening.py"], BENCH_DATABASE_URL=url, BENCH_REDIS_URL=private_redis)
    drop_database(url)
    assert "round 1: a race socket's opening" in out and "a start" in out


def test_race_feed(private_redis: str) -> None:
    out = run_bench(TINY["race_feed.py"], BENCH_REDIS_URL=private_redis)
    assert "the mover's server" in out and "the other server" in out
