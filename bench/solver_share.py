"""Fair shares of the solver (issue #35), on loopback against a live server: do people's
occasional hints still get answered while a swarm of guests behind one address, or a script with
several accounts on several addresses, asks for hints as fast as it is answered?

    .venv/bin/python -m bench.solver_share [--victims 3] [--swarm 30] [--accounts 6] [--seconds 20]

One server (the production profile, `NUM_PROXIES=1`, so that each simulated player's
`X-Forwarded-For` is its address), the players' rates as in production (`THROTTLE_SOLVER`,
`THROTTLE_SOLVER_ADDRESS` and the slots as configured). Three phases of `--seconds` each:

1. **quiet**: the victims alone, each from its own address, asking for a hint on an easy deal
   about once a minute (a person asks now and then);
2. **swarm**: the same, while `--swarm` players share one address and ask for hints on the
   hardest deal we know (`waves` no-wrap seed 5: each hint runs its whole budget) as fast as they
   are answered;
3. **accounts**: the same, while `--accounts` players, each from an address of its own, do so.

It prints each phase's status counts and latencies, the victims' share of 503s (the issue's
measure: at most 1 %) and their answers' details. Exit 1 when a victim's hint is answered anything but 200 or 503.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.database import create_migrated_database
from bench.hint_attack import Tally, call, solver_bench_env
from bench.play_load import start_servers, stop_servers

BENCH_DB = "tripeaks_bench_share"
VICTIM_GAP_S = 60.0


def setup(victims: int, attackers: int) -> dict[str, Any]:
    """(In this process, on the bench database.) Tokens and the two deals' codes."""
    import django

    django.setup()
    from django.core.cache import cache

    from bench.play_load import make_players
    from tripeaks.engine.deal import from_seed
    from tripeaks.engine.layouts import get_layout

    cache.clear()
    return {
        "victims": [token for _, token in make_players(victims, "victim")],
        "attackers": [token for _, token in make_players(attackers, "attacker")],
        "hard": from_seed(5, get_layout("waves")).code,
        "easy": from_seed(41, get_layout("classic")).code,
    }


class Player:
    def __init__(self, port: int, token: str, address: str) -> None:
        self.port, self.token, self.address = port, token, address

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        return call(self.port, self.token, method, path, body, address=self.address)

    def game(self, code: str, layout: str, wrap: bool) -> dict[str, Any]:
        body = {"mode": "custom", "deal": code, "layout": layout, "rules": {"wrap": wrap}}
        status, game = self.call("POST", "/api/games", body)
        assert status == 201, (status, game)
        return dict(game)

    def hints(
        self, game: dict[str, Any], until: float, tally: Tally, gap: float, why: Counter[str]
    ) -> None:
        """A hint, then another after about `gap` seconds (people are not in step: each waits
        from half to one and a half times it, and the first at a random point of it; 0: as soon
        as answered), until `until`."""
        seq, path = game["seq"], f"/api/games/{game['id']}/moves"
        if gap:
            time.sleep(min(random.uniform(0, gap), max(0.0, until - time.monotonic())))
        while time.monotonic() < until:
            began = time.monotonic()
            status, answer = self.call("POST", path, {"seq": seq, "action": "hint"})
            tally.add(time.monotonic() - began, status)
            if status == 503:
                why[str(answer.get("detail") if isinstance(answer, dict) else answer)] += 1
            if status == 200:
                seq = answer["seq"]
            elif status == 409 and answer and "game" in answer:
                seq = answer["game"]["seq"]
            if gap:
                wait = random.uniform(gap / 2, gap * 1.5) - (time.monotonic() - began)
                time.sleep(max(0.0, min(wait, until - time.monotonic())))
            elif status == 429:
                time.sleep(0.05)  # over its rate: a script would not spin on a refusal


def phase(port: int, people: dict[str, Any], seconds: float, attackers: list[Player]) -> Any:
    victims = [Player(port, t, f"198.51.100.{i + 1}") for i, t in enumerate(people["victims"])]
    victim_games = [v.game(people["easy"], "classic", True) for v in victims]
    attack_games = [a.game(people["hard"], "waves", False) for a in attackers]
    mine, theirs = Tally(), Tally()
    why_mine: Counter[str] = Counter()
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=v.hints, args=(g, until, mine, VICTIM_GAP_S, why_mine))
        for v, g in zip(victims, victim_games, strict=True)
    ] + [
        threading.Thread(target=a.hints, args=(g, until, theirs, 0.0, Counter()))
        for a, g in zip(attackers, attack_games, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    summary = mine.summary()
    refused = summary["statuses"].get(503, 0)
    out = {
        "victims' hints": summary,
        "victims' 503 share": round(refused / max(1, len(mine.latencies)), 4),
        "victims' 503s, why": dict(why_mine),
    }
    if attackers:
        out["attackers' hints"] = theirs.summary()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--victims", type=int, default=3)
    parser.add_argument("--swarm", type=int, default=30)
    parser.add_argument("--accounts", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--port", type=int, default=8795)
    args = parser.parse_args(argv)
    env = solver_bench_env(BENCH_DB, "BENCH_SHARE_REDIS_URL", "redis://127.0.0.1:6379/4")
    env["NUM_PROXIES"] = "1"
    os.environ.update(env)
    create_migrated_database(env["DATABASE_URL"], env)
    people = setup(args.victims, args.swarm + args.accounts)
    servers = start_servers(1, args.port, env)
    try:
        tokens = people["attackers"]
        swarm = [Player(args.port, t, "203.0.113.5") for t in tokens[: args.swarm]]
        accounts = [
            Player(args.port, t, f"192.0.2.{i + 1}") for i, t in enumerate(tokens[args.swarm :])
        ]
        report = {
            "settings": {
                k: env.get(k, "default")
                for k in (
                    "THROTTLE_SOLVER",
                    "THROTTLE_SOLVER_ADDRESS",
                    "SOLVER_MAX_CONCURRENT",
                    "SOLVER_BUDGET_MS",
                )
            },
            "quiet": phase(args.port, people, args.seconds, []),
            "swarm": phase(args.port, people, args.seconds, swarm),
            "accounts": phase(args.port, people, args.seconds, accounts),
        }
    finally:
        stop_servers(servers)
    print(json.dumps(report, indent=1))
    statuses = [report[p]["victims' hints"]["statuses"] for p in ("quiet", "swarm", "accounts")]
    return 0 if all(set(s) <= {200, 503} for s in statuses) else 1


if __name__ == "__main__":
    sys.exit(main())
