"""A game's end and the player's next start on a socket, counted in instructions (issue #37 item 4).

    .venv/bin/python -m bench.end_start [--games 40] [--against /path/to/another/checkout]
                                        [--counter instructions|time|calls|profile] [--reuse]

What the worker threads of a socket's game end (`finish_copy`: the ending move, its result, the
statistics) and of the next `new` (`start_requested_game`, the new game's state) run, with the
views of both and their JSON, as `bench.play_load`'s players make them: the daily deal played
again (a practice run), at machine speed (flagged for staff, logged), mostly lost. The socket's
Redis trips (the clock's beat, the groups, the screens) are not in it; the database's own CPU is
not either (another process): the server's Python and psycopg's are.

1. A database of its own (`BENCH_DATABASE_URL`'s name, suffixed `_end_start_<games>`) holds
   `--games` players, each with the daily deal played once and a second game one move before its
   end (random legal moves, the move that ends it noted).
2. Each count runs in a fresh copy of it: a process loads every game's copy and its last step,
   then ends and restarts `--games` of them (or none: the count of none is taken off, as
   bench.move_python does). Valgrind's callgrind counts instructions (the same code, the same
   count, whatever the machine's load); `--counter time` takes the thread's CPU time instead, and
   `--counter calls` Python's calls (`sys.setprofile`), `--counter profile` writes cProfile's
   thread-CPU profile to END_START_PROFILE, all with no valgrind. With END_START_CALLGRIND set,
   callgrind's files are kept (`$END_START_CALLGRIND.<checkout>.<games>`).
`--against` counts another checkout (its own `.venv`, the same migrations) on the same games.
`--reuse` takes the games the last run of as many prepared (their database is only copied).
"""

from __future__ import annotations

import argparse
import inspect
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.database import create_migrated_database, migrations_digest  # noqa: E402
from bench.play_load import bench_env  # noqa: E402

PREPARED = "{}_end_start_{}"  # the prepared database: BENCH_DATABASE_URL's name, the games
SEED = 11


def end_and_start(games: int, counter: str) -> tuple[int, int]:
    """(In the counted process.) The prepared games loaded, then `games` of them ended and the
    next started: how many, and the thread's CPU nanoseconds or Python calls of that part (with
    `counter` "profile", cProfile's thread-CPU profile of it written to END_START_PROFILE)."""
    import cProfile
    import json
    import time

    import django

    django.setup()
    import orjson
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from leaderboard import live as live_board
    from tripeaks.engine.rules import Rules
    from tripeaks.play import services, steps
    from tripeaks.play.models import Game
    from tripeaks.play.payloads import game_payload

    users = {user.pk: user for user in get_user_model().objects.all()}
    now, ready = timezone.now(), []
    for game_id, move in json.loads(os.environ["END_START_GAMES"]):
        copy = Game.objects.select_related("deal", "player").get(pk=game_id)
        step = steps.advance(copy, services.load_game_state(copy), now=now, **move)
        ready.append((copy, step, users[copy.player_id]))
    calls, profile = [0], cProfile.Profile(time.thread_time)

    def count(frame: Any, event: str, arg: Any) -> None:
        calls[0] += event in ("call", "c_call")

    request: Any = {"mode": "daily", "layout": "classic", "rules": Rules()}
    began = time.thread_time_ns()
    if counter == "profile":
        profile.enable()
    if counter == "calls":
        sys.setprofile(count)
    for copy, step, user in ready[:games]:
        with live_board.held_sends():
            outcome = services.finish_copy(game=copy, step=step, now=now)
        assert outcome is not None
        orjson.dumps({"type": "view", "game": outcome.view})
        with live_board.held_sends():
            game = services.start_requested_game(user, request, device="", address="127.0.0.1")
        view = game_payload(game, services.load_game_state(game), now)
        orjson.dumps({"type": "started", "game": view})
    sys.setprofile(None)
    profile.disable()
    if counter == "profile":
        profile.dump_stats(os.environ["END_START_PROFILE"])
    return games, calls[0] if counter == "calls" else time.thread_time_ns() - began


def prepare(games: int) -> list[tuple[str, dict[str, Any]]]:
    """(In this process, Django set up on the prepared database.) `games` players, each with the
    daily deal played once and a second game a move before its end: the games and their last
    moves."""
    import random

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connections

    from tripeaks.engine.rules import Rules
    from tripeaks.play import deals, services
    from tripeaks.play.dealday import deal_day

    chooser = random.Random(SEED)
    deal = deals.daily_deal(deal_day(), Rules())
    found = []
    for i in range(games):
        user = get_user_model().objects.create(username=f"ender{i}")
        _play(services.start_game(user=user, mode="daily", rules=Rules(), deal=deal), chooser)
        game = services.start_game(user=user, mode="daily", rules=Rules(), deal=deal)
        found.append((str(game.pk), _play(game, chooser)))
    connections.close_all()
    return found


def _play(game: Any, chooser: Any) -> dict[str, Any]:
    """Random legal moves on `game` until the next would end it: that move (made too when the
    game is the player's first)."""
    from django.utils import timezone

    from tripeaks.play import services, steps
    from tripeaks.play.models import Game

    first = not Game.objects.filter(player_id=game.player_id).exclude(pk=game.pk).exists()
    copy = Game.objects.select_related("deal", "player").get(pk=game.pk)
    state = services.load_game_state(copy)
    while True:
        playable = state.playable()
        move: dict[str, Any] = {"action": "resign", "position": None}
        if playable:
            move = {"action": "play", "position": chooser.choice(playable)}
        elif state.stock_left:
            move = {"action": "draw", "position": None}
        step = steps.advance(copy, state, now=timezone.now(), **move)
        if step.finishes and not first:
            return move
        done = services.apply_move(game_id=game.pk, user=copy.player, seq=copy.seq, **move)
        if step.finishes:
            return move
        assert done.game is not None and done.state is not None
        copy, state = done.game, done.state


def _count(
    checkout: Path, games: int, counter: str, env: dict[str, str], server: str
) -> tuple[int, int]:
    """What a process ending and starting `games` games in `checkout` counted, on a fresh copy
    of the prepared database (`env`'s)."""
    import psycopg

    prepared = env["DATABASE_URL"].rpartition("/")[2]
    copy = f"{prepared}_{os.getpid()}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{copy}" TEMPLATE "{prepared}"')
    code = (
        "from __future__ import annotations\nimport os, sys\nfrom typing import Any\n"
        f"{inspect.getsource(end_and_start)}\n"
        "print('games %d spent %d' % end_and_start(int(sys.argv[1]), sys.argv[2]))"
    )
    python = [str(checkout / ".venv/bin/python"), "-c", code, str(games), counter]
    env = {**env, "PYTHONHASHSEED": "0", "PYTHONPATH": str(checkout)}
    env["DATABASE_URL"] = f"{server}/{copy}"
    kept = os.environ.get("END_START_CALLGRIND")  # a file to keep the count's profile in
    out = Path(f"{kept}.{checkout.name}.{games}" if kept else f"/tmp/end_start_{os.getpid()}.cg")
    counting = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
    command = [*counting, *python] if counter == "instructions" else python
    try:
        done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True)
    finally:
        if not kept:
            out.unlink(missing_ok=True)
        with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
    said = re.search(r"games (\d+) spent (\d+)", done.stdout)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    if said is None or (counter == "instructions" and collected is None):
        raise RuntimeError(f"the run said nothing countable:\n{done.stderr[-3000:]}")
    return int(said.group(2)) if collected is None else int(collected.group(1)), int(said.group(1))


def per_game(checkout: Path, games: int, counter: str, env: dict[str, str], server: str) -> float:
    """`checkout`'s count for one end and the next start."""
    base = _count(checkout, 0, counter, env, server)[0] if counter == "instructions" else 0
    full, _ = _count(checkout, games, counter, env, server)
    return (full - base) / games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.end_start", description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--against", type=Path, help="another checkout, counted on the same games")
    parser.add_argument(
        "--counter", choices=("instructions", "time", "calls", "profile"), default="instructions"
    )
    parser.add_argument(
        "--reuse", action="store_true", help="the games prepared by the last run with as many"
    )
    args = parser.parse_args(argv)
    if args.counter == "instructions" and shutil.which("valgrind") is None:
        sys.exit("bench.end_start needs valgrind (apt-get install valgrind)")
    env = bench_env()
    server, name = env["DATABASE_URL"].rsplit("/", 1)
    prepared = PREPARED.format(name, args.games)
    env["DATABASE_URL"] = f"{server}/{prepared}"
    os.environ.update(env)
    kept = Path(tempfile.gettempdir()) / f"{prepared}_{args.games}.json"
    if args.reuse and kept.exists():
        env["END_START_GAMES"] = kept.read_text()
    else:
        create_migrated_database(env["DATABASE_URL"], env)
        env["END_START_GAMES"] = _prepared(args.games, env)
        kept.write_text(env["END_START_GAMES"])
    checkouts = [ROOT] if args.against is None else [ROOT, args.against.resolve()]
    unit = {
        "instructions": "instructions",
        "time": "ns of thread CPU",
        "calls": "Python calls",
        "profile": "ns of thread CPU (profiled: END_START_PROFILE)",
    }
    counts = []
    for checkout in checkouts:
        if checkout != ROOT and migrations_digest() != _digest(checkout):
            sys.exit(f"{checkout} has other migrations: its games would differ")
        counts.append(per_game(checkout, args.games, args.counter, env, server))
        print(f"{checkout}: {counts[-1]:,.0f} {unit[args.counter]} an end and the next start")
    if len(counts) == 2:
        print(f"this checkout / that one: {counts[0] / counts[1]:.3f}")


def _prepared(games: int, env: dict[str, str]) -> str:
    """The prepared games and their last moves (JSON), made in a process of its own: its
    connections closed with it, the prepared database can be copied."""
    code = f"import json\nfrom bench.end_start import prepare\nprint(json.dumps(prepare({games})))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1]


def _digest(checkout: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", "from bench.database import migrations_digest as d; print(d())"],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


if __name__ == "__main__":
    main()
