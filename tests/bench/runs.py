"""The benches' tiny runs (a test under tests/bench/ for each; bench/idle_stack.py's measures the
stack of tests/foundation/test_make_run_restart.py) and how a test runs one: as its
documented command, against a database of its own on the machine's PostgreSQL and, where it needs
one, a private Redis server (the `private_redis` fixture, tests/bench/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable

# Every bench with its tiny run (a test for each, above). Modules that are not benches themselves:
NOT_BENCHES = {
    "solver_baseline.py",  # the plain solver that solver_bench.py measures against
    "database.py",  # the benches' databases, copies of a migrated template
    "echo_server.py",  # the echoes that play_load.py and socket_floor.py measure against
    "stack_template.py",  # the prepared VAR_DIR the whole-stack benches start on in the tests
}
TINY = {
    "move_python.py": ["-m", "bench.move_python", "--rounds", "1", "--counter", "time"],
    "end_start.py": ["-m", "bench.end_start", "--games", "2", "--counter", "time"],
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
        "--echo-seconds",
        "1",
    ],
    "race_load.py": [
        "-m",
        "bench.race_load",
        "--players",
        "4",
        "--cap",  # the least it takes: each of its two rounds lasts about the cap and 3 s
        "1",
        "--servers",
        "2",
        "--stagger",
        "0",
        "--solo-seconds",  # the solo phase: a second of moves, measured
        "1",
        "--channel-redis",  # the channel layer and the contest feed over two Redis servers
        "2",
    ],
    "race_feed.py": ["-m", "bench.race_feed", "--moves", "50"],
    "game_opening.py": ["-m", "bench.game_opening", "--players", "2", "--rounds", "2"],
    "race_opening.py": ["-m", "bench.race_opening", "--races", "1", "--rounds", "1"],
    # One quiet and one flood phase: a second round repeats both.
    "socket_flood.py": [
        "-m",
        "bench.socket_flood",
        "--sockets",
        "8",
        "--seconds",
        "1",
        "--rounds",
        "1",
    ],
    "socket_floor.py": [
        "-m",
        "bench.socket_floor",
        "--sockets",
        "2",
        "--seconds",
        "0.5",
        "--rounds",
        "1",
    ],
    "api_swarm.py": ["-m", "bench.api_swarm", "--rate", "100", "--seconds", "1"],
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
        "--sensitivity",  # its five populations' rows: 50,000 runs were 95 % of the tiny run
        "100",
    ],
    "solver_worst_case.py": ["bench/solver_worst_case.py", "--tiny", "--layouts", "pyramid"],
    "review_analysis.py": ["-m", "bench.review_analysis", "--games", "4", "--baseline", "2"],
    "hint_attack.py": [
        "-m",
        "bench.hint_attack",
        "--attackers",
        "2",
        "--seconds",
        "1",
        "--baseline",
        "1",
        "--pool-par-nodes",  # no par for the pool's deals: a start does not wait on one
        "0",
    ],
    "celery_load.py": [
        "-m",
        "bench.celery_load",
        "--minutes",  # three seconds: three sign-ups' mails, two samples
        "0.05",
        "--attackers",
        "1",
        "--layouts",
        "pyramid",
        "--floor",
        "1",
        "--mail-every",
        "1",
        "--sample-every",
        "1.5",
    ],
    "idle_stack.py": [
        "-m",
        "bench.idle_stack",
        "--layouts",
        "pyramid",
        "--floor",
        "1",
        "--seconds",
        "1",
        # The worker ends the task that filled the last pool as the sample would begin: a one
        # second sample at once read 100 % of a core once (wall time only, no CPU).
        "--settle",
        "2",
        "--limit",
        "100",
    ],
    "first_card.py": [
        "-m",
        "bench.first_card",
        "--rounds",
        "1",
        "--languages",
        "en",
        "--baseline",
        "HEAD",
    ],
    "first_start.py": [
        "-m",
        "bench.first_start",
        "--seconds",
        "1",
        "--players",
        "2",
        "--within",
        "120",
        "--second-start",  # the fresh start is tests/foundation/test_make_run.py's
        # The shipped deals serve every start: no floor for the solver to fill in 432 pools
        # meanwhile (it solved through the whole run, 2-4 s of its CPU).
        "--floor",
        "0",
    ],
    "soak.py": [
        "-m",
        "bench.soak",
        "--players",
        "2",
        "--minutes",  # three seconds, a sample each second
        "0.05",
        "--servers",
        "1",
        "--sample-seconds",
        "1",
        "--think-ms",  # under production's 20 moves/s a player
        "200",
    ],
}


def this_runs_stack_template() -> Path:
    """The prepared VAR_DIR (bench/stack_template.py) of this checkout's inputs, shared by the
    run's workers and by later runs on the same inputs."""
    from bench import stack_template

    return stack_template.for_these_inputs()


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


def run_stack_bench(bench: str, template: Path) -> str:
    """A bench that starts `make run`'s whole stack, on a copy of the run's prepared VAR_DIR
    (bench/stack_template.py); its output. The stack makes today's daily deals only, as make
    run's tests have it (tests/foundation/make_run.py): the week ahead kept its worker solving
    beside the rest of the suite for most of the bench's run, and no bench reads them. Its stop
    gives a running task 1 s, not 5 (STOP_GRACE_SECONDS): the benches' stacks stop with their
    solver busy (celery_load's flood, first_start's pools), and it solved on through the grace
    (a stop of 7.7 s; Ctrl-C's own test, tests/foundation/test_make_run.py, keeps the 5 s)."""
    return run_bench(
        TINY[bench],
        STACK_TEMPLATE=str(template),
        DAILY_DEALS_DAYS_AHEAD="0",
        STOP_GRACE_SECONDS="1",
    )


def run_server_bench(
    bench: str, redis_variable: str, redis_url: str, span: int = 1, **env: str
) -> str:
    """A bench that starts servers of its own, on a database and a Redis of its own; its output."""
    name = f"tripeaks_bench_{bench.removesuffix('.py')}_test_{os.getpid()}"
    base = urlsplit_path(os.environ["DATABASE_URL"], name)
    out = run_bench(
        [*TINY[bench], "--port", str(free_port(span=span))],
        BENCH_DATABASE_URL=base,
        **{redis_variable: redis_url},
        **env,
    )
    drop_database(base)
    return out


def urlsplit_path(url: str, database: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    return urlunsplit(urlsplit(url)._replace(path=f"/{database}"))


def drop_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(urlsplit_path(url, "postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
