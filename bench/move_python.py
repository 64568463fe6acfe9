"""A socket move's own Python on the event loop, counted in instructions (issue #37 item 4).

    .venv/bin/python -m bench.move_python [--rounds 40] [--against /path/to/another/checkout]

What a plain socket move runs on the loop besides the server, the channel layer and the write:
the rules (`steps.advance`), the stored game's copy (`Step.applied_to`), the view
(`game_payload`) and its JSON, over a won line of a classic deal (50 moves), in memory (no
database, no server). Counted by Valgrind's callgrind, which counts instructions, not seconds:
the same code gives the same count whatever else the machine does, so two commits compare in one
run where `bench.play_load`'s CPU a move moves by 10% from run to run. Each count is the run of
`--rounds` rounds less the run of none (Python's start and the imports), divided by the moves.
`--against` counts another checkout's code (its own `.venv`) in the same run, and prints the
ratio. Needs `valgrind` (Debian's package); `--counter time` times the rounds instead, with no
valgrind (a quick look, as noisy as the machine).
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

ROOT = Path(__file__).resolve().parent.parent
SEED = 7


def play_rounds(rounds: int) -> tuple[int, int]:
    """(In the counted process.) `rounds` times over the line: the moves of one round, and the
    nanoseconds the rounds took."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import datetime
    import time
    import uuid

    import django

    django.setup()
    import orjson
    from django.utils import timezone

    from accounts.models import User
    from tripeaks.engine import game as engine
    from tripeaks.engine.deal import from_seed
    from tripeaks.engine.layouts import get_layout
    from tripeaks.engine.rules import Rules
    from tripeaks.engine.solver import solve
    from tripeaks.play import services, steps
    from tripeaks.play.models import Deal, Game
    from tripeaks.play.payloads import game_payload
    from tripeaks.play.state_codec import dump_state

    rules, seed = Rules(), SEED
    while not (solution := solve(deal := from_seed(seed, get_layout("classic")), rules)).winnable:
        seed += 1
    line = [
        {"action": "play", "position": m.position}
        if isinstance(m, engine.Play)
        else {"action": "draw"}
        for m in solution.line[:-1]  # (the last one ends the game: not a plain move)
    ]
    row = Deal(id=1, source="custom", layout="classic", rules_key=rules.key, code=deal.code)
    now = timezone.now()
    game = Game(
        id=uuid.UUID(int=1),
        player=User(id=1, username="bench"),
        deal=row,
        state=dump_state(engine.new_game(deal, rules)),
        cards_left=deal.layout.size,
        running_since=now,
        created_at=now,
    )
    state = services.load_game_state(game)
    began = time.perf_counter_ns()
    for _ in range(rounds):
        played, at = game, state
        for i, move in enumerate(line):
            moment = now + datetime.timedelta(milliseconds=500 * (i + 1))
            step = steps.advance(
                played, at, action=move["action"], position=move.get("position"), now=moment
            )
            played, at = step.applied_to(played), step.state
            orjson.dumps({"type": "view", "game": game_payload(played, at, moment)}).decode()
    return len(line), time.perf_counter_ns() - began


def _count(checkout: Path, rounds: int, counter: str) -> tuple[int, int]:
    """What a process playing `rounds` rounds in `checkout` counted (its instructions, or with
    `counter` "time" the nanoseconds of its rounds alone), and its moves a round."""
    code = (
        # This module's `play_rounds`, on the checkout's code (`-c` imports from its folder).
        f"import os, sys\nSEED = {SEED}\n{inspect.getsource(play_rounds)}\n"
        "print('moves %d ns %d' % play_rounds(int(sys.argv[1])))"
    )
    python = [str(checkout / ".venv/bin/python"), "-c", code, str(rounds)]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(checkout)}
    with tempfile.TemporaryDirectory() as folder:
        counting = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out"]
        command = python if counter == "time" else [*counting, *python]
        done = subprocess.run(
            command, cwd=checkout, env=env, capture_output=True, text=True, check=True
        )
    said = re.search(r"moves (\d+) ns (\d+)", done.stdout)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    if said is None or (counter != "time" and collected is None):
        raise RuntimeError(f"the run said nothing countable:\n{done.stderr[-2000:]}")
    counted = int(said.group(2)) if collected is None else int(collected.group(1))
    return counted, int(said.group(1))


def per_move(checkout: Path, rounds: int, counter: str = "instructions") -> float:
    """`checkout`'s code a move: `rounds` rounds (less none, for the process's instructions),
    over the moves."""
    base = 0 if counter == "time" else _count(checkout, 0, counter)[0]
    full, moves = _count(checkout, rounds, counter)
    return (full - base) / (rounds * moves)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.move_python", description=__doc__)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--against", type=Path, help="another checkout, counted in the same run")
    parser.add_argument(
        "--counter",
        choices=("instructions", "time"),
        default="instructions",
        help="callgrind's instructions (default), or nanoseconds with no valgrind (a quick look)",
    )
    args = parser.parse_args(argv)
    if args.counter == "instructions" and shutil.which("valgrind") is None:
        sys.exit("bench.move_python needs valgrind (apt-get install valgrind)")
    unit = "instructions" if args.counter == "instructions" else "ns"
    what = "(advance, the stored copy, the view, JSON)"
    here = per_move(ROOT, args.rounds, args.counter)
    print(f"this checkout: {here:,.0f} {unit} a move {what}")
    if args.against is not None:
        there = per_move(args.against.resolve(), args.rounds, args.counter)
        print(f"{args.against}: {there:,.0f} {unit} a move")
        print(f"this checkout / that one: {here / there:.3f}")


if __name__ == "__main__":
    main()
