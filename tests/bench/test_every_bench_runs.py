"""Benchmarks that cannot rot: every bench under bench/ runs here at a tiny size, so a change
that breaks one (a new column its seeding does not know, a renamed function, a setting it needs)
fails `make test`. The figures at this size mean nothing; that each bench runs to its end and
says its checks passed does.

Each bench runs as its documented command, against a database of its own on the machine's
PostgreSQL and a private Redis server (the one `make run` embeds) so it disturbs nothing shared.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ports import free_port
from tripeaks.stack.run import EmbeddedRedis

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable

pytestmark = pytest.mark.slow

# Every bench with its tiny run (a test below each). Modules that are not benches themselves:
NOT_BENCHES = {
    "solver_baseline.py",  # the plain solver that solver_bench.py measures against
    "database.py",  # the benches' databases, copies of a migrated template
}
TINY = {
    "solver_bench.py": ["-m", "bench.solver_bench", "--deals", "3", "--hints", "3"],
    "layout_solvability.py": [
        "bench/layout_solvability.py",
        "--deals",
        "3",
        "--layouts",
        "classic",
        "--jobs",
        "1",
    ],
    "leaderboard_bench.py": [
        "bench/leaderboard_bench.py",
        "--results",
        "300",
        "--players",
        "50",
        "--requests",
        "5",
        "--naive-requests",
        "2",
        "--reseed",
        "--drop",
    ],
    "play_load.py": [
        "-m",
        "bench.play_load",
        "--players",
        "2",
        "--seconds",
        "1",
        "--servers",
        "1",
        "--baseline-seconds",
        "1",
        "--ramp",
        "0.3",
    ],
    "race_load.py": [
        "-m",
        "bench.race_load",
        "--players",
        "4",
        "--cap",
        "2",
        "--servers",
        "2",
        "--stagger",
        "0",
    ],
    "socket_flood.py": ["-m", "bench.socket_flood", "--sockets", "8", "--seconds", "1"],
    "solver_share.py": [
        "-m",
        "bench.solver_share",
        "--victims",
        "1",
        "--swarm",
        "2",
        "--accounts",
        "1",
        "--seconds",
        "1",
    ],
    "access_bench.py": ["bench/access_bench.py", "--requests", "20", "--rounds", "1"],
    "fairplay_bench.py": [
        "bench/fairplay_bench.py",
        "--honest",
        "300",
        "--cheats",
        "20",
        "--contest",
        "20",
    ],
    "solver_worst_case.py": ["bench/solver_worst_case.py", "--tiny", "--layouts", "pyramid"],
    "hint_attack.py": [
        "-m",
        "bench.hint_attack",
        "--attackers",
        "2",
        "--seconds",
        "1",
        "--baseline",
        "1",
    ],
    "celery_load.py": [
        "-m",
        "bench.celery_load",
        "--minutes",
        "0.2",
        "--attackers",
        "1",
        "--layouts",
        "pyramid",
        "--floor",
        "1",
        "--mail-every",
        "2",
        "--sample-every",
        "3",
    ],
    "idle_stack.py": [
        "-m",
        "bench.idle_stack",
        "--layouts",
        "pyramid",
        "--floor",
        "1",
        "--seconds",
        "2",
        "--settle",
        "0",
        "--limit",
        "100",
    ],
    "soak.py": [
        "-m",
        "bench.soak",
        "--players",
        "2",
        "--minutes",
        "0.1",
        "--servers",
        "1",
        "--sample-seconds",
        "2",
        "--think-ms",  # under production's 20 moves/s a player
        "200",
    ],
}


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[str]:
    redis = EmbeddedRedis(tmp_path / "redis")
    try:
        yield redis.start()
    finally:
        redis.stop()


def run_bench(args: list[str], **env: str) -> str:
    base = {
        name: value
        for name, value in os.environ.items()
        if name != "DJANGO_SETTINGS_MODULE" and not name.startswith("PYTEST")
    }
    done = subprocess.run(
        [PYTHON, *args],
        cwd=ROOT,
        env={**base, **env},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def test_every_bench_has_a_tiny_run_here() -> None:
    benches = {path.name for path in (ROOT / "bench").glob("*.py")} - NOT_BENCHES
    assert benches == set(TINY), "give each bench a tiny run in TINY (and a test) here"


def test_solver_bench() -> None:
    out = run_bench(TINY["solver_bench.py"])
    assert "speed-up" in out.lower() or "deals/s" in out


def test_layout_solvability() -> None:
    out = run_bench(TINY["layout_solvability.py"])
    assert "classic" in out


def test_leaderboard_bench_reseeds_its_own_database(private_redis: str) -> None:
    database = f"tripeaks_bench_test_{os.getpid()}"
    out = run_bench(
        [*TINY["leaderboard_bench.py"], "--database", database], BENCH_REDIS_URL=private_redis
    )
    assert "seeded 300 results by 50 players" in out
    assert f"dropped {database}" in out


def test_play_load(private_redis: str) -> None:
    base = urlsplit_path(os.environ["DATABASE_URL"], f"tripeaks_bench_play_test_{os.getpid()}")
    out = run_bench(
        [*TINY["play_load.py"], "--port", str(free_port(span=2))],
        BENCH_DATABASE_URL=base,
        BENCH_REDIS_URL=private_redis,
    )
    assert ": 0 differ from their stored state" in out
    drop_database(base)


def test_race_load(private_redis: str) -> None:
    base = urlsplit_path(os.environ["DATABASE_URL"], f"tripeaks_bench_race_test_{os.getpid()}")
    out = run_bench(
        [*TINY["race_load.py"], "--port", str(free_port(span=2))],
        BENCH_DATABASE_URL=base,
        BENCH_REDIS_URL=private_redis,
    )
    assert "not: 0" in out and ": 0 differ from their stored state" in out
    drop_database(base)


def test_access_bench() -> None:
    out = run_bench(TINY["access_bench.py"])
    assert "ratio" in out.lower()


def test_fairplay_bench() -> None:
    out = run_bench(TINY["fairplay_bench.py"])
    assert "false positives" in out and "caught" in out and "arena games" in out


def test_celery_load() -> None:
    out = run_bench(TINY["celery_load.py"])
    assert '"lost": 0' in out and "worker_rss_mb" in out


def test_idle_stack() -> None:
    out = run_bench(TINY["idle_stack.py"])
    assert "every pool full" in out and "idle stack:" in out


def test_solver_worst_case() -> None:
    out = run_bench(TINY["solver_worst_case.py"])
    assert "pyramid" in out


@pytest.mark.parametrize(
    ("bench", "redis_variable", "expected"),
    [
        ("hint_attack.py", "BENCH_HINT_REDIS_URL", "GET /api/me"),
        ("socket_flood.py", "BENCH_SOCKETS_REDIS_URL", "closed 4409"),
        ("solver_share.py", "BENCH_SHARE_REDIS_URL", "victims' 503 share"),
    ],
)
def test_attack_bench(private_redis: str, bench: str, redis_variable: str, expected: str) -> None:
    """The attack benches: one server of their own on a database and a Redis of their own."""
    name = f"tripeaks_bench_{bench.removesuffix('.py')}_test_{os.getpid()}"
    base = urlsplit_path(os.environ["DATABASE_URL"], name)
    out = run_bench(
        [*TINY[bench], "--port", str(free_port())],
        BENCH_DATABASE_URL=base,
        **{redis_variable: private_redis},
    )
    assert expected in out
    drop_database(base)


def test_soak() -> None:
    out = run_bench(TINY["soak.py"])
    assert "differ" in out


def urlsplit_path(url: str, database: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    return urlunsplit(urlsplit(url)._replace(path=f"/{database}"))


def drop_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(urlsplit_path(url, "postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
