"""A fresh deployment's first minute: does every random start get a deal (issue #35 item 3)?

    .venv/bin/python -m bench.first_start [--seconds 60] [--players 8] [--pace 1.0]
                                          [--within 600] [--root DIR] [--second-start]
                                          [--floor N] [--json out.json]

1. Starts `python -m tripeaks.stack.run` from `--root` (default: this checkout; give an export of
   another commit, such as `git archive main | tar -x -C /tmp/main`, to measure it with this
   checkout's .venv) on a free port in a fresh VAR_DIR (its pools' floor `--floor`,
   RANDOM_POOL_SIZE, default 5): a fresh database, exactly as `make run`
   (with `STACK_TEMPLATE` set, the tests, its static files are copied from that prepared
   VAR_DIR, bench/stack_template.py, and collectstatic finds them collected; with
   `--second-start`, its database too: a second start, for the tests' smoke run only).
2. From the moment the stack is healthy, `--players` signed-in players start random games for
   `--seconds`, each one start every `--pace` seconds, going round every pool (the 54 layouts x
   8 rule sets and starts, in a shuffled order) together: the answers are counted (201 dealt,
   503 `pool_empty`, anything else).
3. Meanwhile, and after, until `--within` seconds: the time from the start until every pool has
   held a deal (a random deal row of its layout and rules exists, claimed or not), read in the
   stack's database every half second.

Exit 1 when a start answered `pool_empty` or a pool held no deal within `--within`. Figures
from one run on the shared machine are noisy: compare runs made close together.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.idle_stack import DEFAULT_FLOOR, healthy, layout_count, stop  # noqa: E402
from bench.stack_template import copy_into, from_environment, stack_env  # noqa: E402
from tests.ports import free_port  # noqa: E402

RULE_SETS = [  # deals.POOL_RULE_SETS, as the API's rules
    {"wrap": wrap, "open": open_, "start": start}
    for start in ("waste", "empty")
    for wrap, open_ in ((True, False), (True, True), (False, False), (False, True))
]
MAKE_PLAYERS = """
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
for i in range({count}):
    user, _ = get_user_model().objects.get_or_create(username=f"first{{i}}")
    print("TOKEN", Token.objects.get_or_create(user=user)[0].key)
"""


def first_start_env(var: Path, floor: int) -> dict[str, str]:
    return stack_env(
        var,
        RANDOM_POOL_SIZE=str(floor),
        THROTTLE_GAME_STARTS="100000/min",
        THROTTLE_GAME_STARTS_ADDRESS="100000/min",
    )


def pools_dealt(var: Path) -> int:
    """How many pools have held a deal: a random deal of their layout and rules exists."""
    try:
        with psycopg.connect(host=str(var / "postgres"), user="postgres", dbname="tripeaks") as db:
            row = db.execute(
                "SELECT count(*) FROM (SELECT DISTINCT rules_key, layout FROM play_deal"
                " WHERE source = 'random') AS pools"
            ).fetchone()
    except psycopg.Error:
        return 0
    return int(row[0]) if row else 0


def make_players(root: Path, var: Path, env: dict[str, str], count: int) -> list[str]:
    from tripeaks.stack.run import EmbeddedRedis

    socket = EmbeddedRedis(var / "redis").socket
    here = env | {
        "DATABASE_URL": f"postgres://postgres@{quote(str(var / 'postgres'), safe='')}/tripeaks",
        "REDIS_URL": f"unix://{socket}",
    }
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", MAKE_PLAYERS.format(count=count)],
        cwd=root,
        env=here,
        check=True,
        capture_output=True,
        text=True,
    )
    # Only the tokens: the process's log lines go to the same output.
    return [line.split()[1] for line in out.stdout.splitlines() if line.startswith("TOKEN ")]


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.answers: dict[str, int] = {}

    def add(self, what: str) -> None:
        with self.lock:
            self.answers[what] = self.answers.get(what, 0) + 1


def start_one(port: int, token: str, layout: str, rules: dict[str, Any]) -> str:
    body = json.dumps({"mode": "random", "layout": layout, "rules": rules}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/games",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return str(answer.status)
    except urllib.error.HTTPError as error:
        code = json.loads(error.read() or b"{}").get("code", "")
        return f"{error.code} {code}".strip()
    except OSError as error:
        return type(error).__name__


def player(port: int, token: str, pools: Any, until: float, pace: float, tally: Tally) -> None:
    while (began := time.monotonic()) < until:
        layout, rules = next(pools)
        tally.add(start_one(port, token, layout, rules))
        time.sleep(max(0.0, pace - (time.monotonic() - began)))


def first_minute(port: int, tokens: list[str], seconds: float, pace: float) -> dict[str, int]:
    from tripeaks.engine.layouts import LAYOUTS

    every = [(layout, rules) for layout in LAYOUTS for rules in RULE_SETS]
    random.Random(35).shuffle(every)
    pools = itertools.cycle(every)
    lock = threading.Lock()

    def next_pool() -> Any:
        while True:
            with lock:
                pool = next(pools)
            yield pool

    tally = Tally()
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=player, args=(port, token, next_pool(), until, pace, tally))
        for token in tokens
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally.answers


def run(args: argparse.Namespace, scratch: Path) -> dict[str, Any]:
    var, log, port = scratch / "var", scratch / "run.log", free_port()
    if (template := from_environment()) is not None:
        # Its static files only: the database's first start (initdb, migrate, the shipped
        # deals) is what this bench watches; unless `--second-start` (a smoke run) asks for all.
        copy_into(var, template, database=args.second_start)
    env = first_start_env(var, args.floor)
    pools = layout_count("*") * len(RULE_SETS)
    began = time.monotonic()
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "tripeaks.stack.run", "--port", str(port)],
            cwd=args.root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    seen: dict[str, float] = {}

    def watch() -> None:
        while time.monotonic() - began < args.within and process.poll() is None:
            if "all" not in seen and pools_dealt(var) >= pools:
                seen["all"] = time.monotonic() - began
                return
            time.sleep(0.5)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        while not healthy(port):
            if process.poll() is not None or time.monotonic() - began > 240:
                raise SystemExit(f"no healthy stack; its log:\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
        seen["healthy"] = time.monotonic() - began
        tokens = make_players(args.root, var, env, args.players)
        answers = first_minute(port, tokens, args.seconds, args.pace)
        watcher.join()
        dealt = pools_dealt(var)
    finally:
        stop(process)
        watcher.join()
    loaded = [line for line in log.read_text().splitlines() if line.startswith("shipped deals:")]
    return {
        "root": str(args.root),
        "load_step": loaded[0] if loaded else None,
        "healthy_s": round(seen["healthy"], 1),
        "every_pool_dealt_s": round(seen["all"], 1) if "all" in seen else None,
        "pools_dealt_at_end": dealt,
        "pools": pools,
        "starts": answers,
        "pool_empty": answers.get("503 pool_empty", 0),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=60, help="the scripted starts (s)")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a player's starts")
    parser.add_argument("--within", type=float, default=600, help="give up on full cover (s)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to run")
    parser.add_argument(
        "--floor", type=int, default=DEFAULT_FLOOR, help="RANDOM_POOL_SIZE: the deals a pool keeps"
    )
    parser.add_argument(
        "--second-start",
        action="store_true",
        help="with STACK_TEMPLATE: its database too, a second start (a smoke run: the figures"
        " are then no first start's; the fresh start's own test is tests/foundation/"
        "test_make_run.py)",
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.second_start and from_environment() is None:
        parser.error("--second-start starts on the prepared VAR_DIR STACK_TEMPLATE names")
    with tempfile.TemporaryDirectory(prefix="first-start-") as scratch:
        result = run(args, Path(scratch))
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if result["pool_empty"] == 0 and result["every_pool_dealt_s"] is not None else 1


if __name__ == "__main__":
    sys.exit(main())
