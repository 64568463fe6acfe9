"""How often the timing check is wrong: false positives on simulated honest runs, catches of cheats.

    .venv/bin/python bench/fairplay_bench.py [--honest 100000] [--cheats 1000] [--seed 15]
                                             [--contest 5000] [--sensitivity 10000]

Honest runs are drawn from the model of human think time in leaderboard/fairplay_model.py (its
reasoning: docs/fair-play.md); cheats from the corpus of the attacks in issue 15. Pure Python, no
database: the finishing path calls the same `verdict` on the think times it reads from the move log.
Also prints the honest model's quantiles that the thresholds are set against, and the fastest
honest players' false-positive rate on their own (the group most at risk).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from leaderboard import fairplay_model as model


def _quantiles(values: list[float], qs: tuple[float, ...]) -> str:
    ordered = sorted(values)
    return "  ".join(
        f"q{q * 100:g}={ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.0f}" for q in qs
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--honest", type=int, default=100_000)
    parser.add_argument("--cheats", type=int, default=1_000, help="runs per cheat")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument(
        "--contest", type=int, default=5_000, help="honest players per contest kind"
    )
    parser.add_argument(
        "--sensitivity", type=int, default=10_000, help="honest runs per population differing"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)

    print(
        f"thresholds: median < {model.MEDIAN_FLOOR_MS:.0f} ms | ln-IQR spread < "
        f"{model.SPREAD_FLOOR} | p90 < {model.P90_FLOOR_MS:.0f} ms (>= {model.P90_MIN_MOVES} "
        f"moves) | runs under {model.MIN_MOVES} moves unchecked"
    )
    flagged: Counter[str] = Counter()
    fast_runs = fast_flagged = 0
    medians, spreads, p90s = [], [], []
    for _ in range(args.honest):
        times = model.honest_run(rng)
        summary = model.summarize(times)
        medians.append(summary.median_ms)
        spreads.append(summary.spread)
        p90s.append(summary.p90_ms)
        reason = model.verdict(times)
        fast = summary.median_ms < 500
        fast_runs += fast
        if reason:
            flagged[reason.split(" ")[0]] += 1
            fast_flagged += fast
    total = sum(flagged.values())
    qs = (0.0001, 0.001, 0.01, 0.5)
    print(f"\nhonest model ({args.honest:,} runs, {model.MOVES[0]}-{model.MOVES[1]} moves each)")
    print(f"  run median ms  {_quantiles(medians, qs)}")
    print(f"  run p90 ms     {_quantiles(p90s, qs)}")
    print(
        "  run ln-IQR     "
        + "  ".join(f"q{q * 100:g}={sorted(spreads)[int(q * len(spreads))]:.2f}" for q in qs)
    )
    rate = total / args.honest
    print(
        f"  false positives: {total:,} of {args.honest:,} = {rate:.3%}"
        f" (goal < 0.5%) -> {'met' if rate < 0.005 else 'NOT met'}"
    )
    for rule, count in sorted(flagged.items()):
        print(f"    by rule '{rule}': {count:,}")
    if fast_runs:
        print(
            f"  fastest players (run median < 500 ms): {fast_flagged:,} of {fast_runs:,}"
            f" = {fast_flagged / fast_runs:.3%} flagged"
        )

    print(f"\ncheat corpus ({args.cheats:,} runs each)")
    all_caught = True
    for name, cheat in model.CHEATS.items():
        caught = sum(bool(model.verdict(cheat(rng))) for _ in range(args.cheats))
        all_caught &= caught == args.cheats
        print(f"  {name:<42} caught {caught:,} of {args.cheats:,} = {caught / args.cheats:.1%}")
    print(f"  catch rate goal 100% -> {'met' if all_caught else 'NOT met'}")

    # What if real players are faster or steadier than the model?
    print(
        "\nsensitivity: false positives if the honest population differs from the model"
        f" ({args.sensitivity:,} runs each)"
    )
    for label, pace, sigma in (
        ("as modelled", model.PACE_MEDIAN_MS, 1.0),
        ("all players 25% faster", model.PACE_MEDIAN_MS * 0.75, 1.0),
        ("all players 40% faster", model.PACE_MEDIAN_MS * 0.6, 1.0),
        ("move times 25% steadier", model.PACE_MEDIAN_MS, 0.75),
        ("25% faster and 25% steadier", model.PACE_MEDIAN_MS * 0.75, 0.75),
    ):
        runs = args.sensitivity
        wrong = sum(
            bool(model.verdict(model.honest_run(rng, pace_median_ms=pace, sigma_scale=sigma)))
            for _ in range(runs)
        )
        print(f"  {label:<30} {wrong / runs:.2%}")
    contests(rng, args.contest)
    # The fastest plausible human, for the record: 1 in 1,000 players' median pace.
    print(
        f"\n(1 in 1,000 players' median pace: {model.PACE_MEDIAN_MS * math.exp(-3.09 * model.PACE_SIGMA):.0f} ms)"
    )


def contests(rng: random.Random, players: int) -> None:
    """False positives in contests (docs/fair-play.md, "Contests"): a race run is a full game
    for its winner and cut short for the others (8-60 timed moves, shorter runs are unchecked);
    an arena is one player's games back to back (20-60 moves each, 3 s between games) until its
    end. What matters to a player is whether any of their runs in the contest is held."""
    print(f"\ncontests ({players:,} honest players each)")
    races = 20
    wrong_runs = wrong_players = 0
    for _ in range(players):
        player = model.honest_player(rng)
        flags = sum(
            bool(model.verdict(player.run(rng, rng.randint(model.MIN_MOVES, model.MOVES[1]))))
            for _ in range(races)
        )
        wrong_runs += flags
        wrong_players += flags > 0
    print(
        f"  race runs (8-60 moves)          {wrong_runs:,} of {players * races:,} runs ="
        f" {wrong_runs / (players * races):.3%}; players with any of {races} races held:"
        f" {wrong_players / players:.3%}"
    )
    for minutes in (10, 60):
        games = wrong_games = wrong_players = 0
        for _ in range(players):
            player = model.honest_player(rng)
            left_ms, held = minutes * 60_000.0, False
            while left_ms > 0:
                times = player.run(rng, rng.randint(*model.MOVES))
                left_ms -= sum(times) + 3_000
                if left_ms < 0:
                    break  # ended after the arena: counts nothing
                games += 1
                flagged = bool(model.verdict(times))
                wrong_games += flagged
                held |= flagged
            wrong_players += held
        print(
            f"  {minutes}-minute arena games         {wrong_games:,} of {games:,} games ="
            f" {wrong_games / max(1, games):.3%}; players with a game held:"
            f" {wrong_players / players:.3%} ({games / players:.1f} games each)"
        )


if __name__ == "__main__":
    main()
