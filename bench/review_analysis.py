"""Game review's analysis bench: `python -m bench.review_analysis [--games 200]`.

One process, one core. Plays `--games` games on proven deals (seeds from `--first-seed` on
whose deal the solver proves winnable, as the pools do) with a simple bot that mixes good moves
(the next move of a winning line) and poor ones (a random play or draw, now and then an undo),
its skill drawn per game, so that some games are won and most are lost. Then analyses each game
with `tripeaks.engine.review.analyse` under the review's node budget, twice, one after the other:
with the deal's par known (as the service has it for a pooled, daily or numbered deal) and
without (a par searched). Prints p50, p99 and the worst CPU time of each, the share of lost games
for which the review names a losing move, and, on the first `--baseline` games, the naive review
(every position solved from scratch, par and the winning line by the fewest-draws search) in
the same run, as a ratio of CPU time. Exits 1 if a verdict differs from the naive one. Times are
CPU seconds of the process (`time.process_time`): the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tripeaks.engine.deal import Deal, from_seed
from tripeaks.engine.game import Draw, Move, Play, State, Undo, apply, new_game
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.review import REVIEW_BUDGET_NODES, Analysis, analyse
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import Budget, par, solve, solve_min_draws, winnable


@dataclass(frozen=True, slots=True)
class Game:
    seed: int
    deal: Deal
    moves: list[Move]
    won: bool
    par: int


@dataclass(frozen=True, slots=True)
class Timed:
    seconds: float
    analysis: Analysis


def proven_deals(layout: str, rules: Rules, first_seed: int, count: int) -> list[tuple[int, Deal]]:
    """The first `count` deals from `first_seed` on that the solver proves winnable."""
    deals: list[tuple[int, Deal]] = []
    seed = first_seed
    while len(deals) < count:
        deal = from_seed(seed, get_layout(layout), rules.start)
        if solve(deal, rules).winnable:
            deals.append((seed, deal))
        seed += 1
    return deals


def poor_move(state: State, rng: random.Random) -> Move:
    """A random play (or a draw), now and then an undo."""
    if state.history and rng.random() < 0.04:
        return Undo()
    playable = state.playable()
    if playable and (rng.random() < 0.6 or not state.stock_left):
        return Play(rng.choice(playable))
    return Draw()


def play_game(seed: int, deal: Deal, rules: Rules, rng: random.Random) -> Game:
    """The bot: each move is the next of a winning line with the game's skill, else a poor one."""
    skill = rng.uniform(0.25, 0.9)
    state = new_game(deal, rules)
    moves: list[Move] = []
    plan: list[Play | Draw] = []
    hopeless = False  # the position is lost: no plan until an undo
    while state.status == "playing" and len(moves) < 200:
        move: Move
        if rng.random() < skill and not hopeless:
            if not plan:
                plan = list(solve(deal, rules, state.position).line)
                hopeless = not plan
            move = plan.pop(0) if plan else poor_move(state, rng)
        else:
            move = poor_move(state, rng)
            plan = []
        if isinstance(move, Undo):
            hopeless = False
        state = apply(state, move)
        moves.append(move)
    return Game(seed, deal, moves, state.status == "won", par(deal, rules) or 0)


def timed_analysis(game: Game, rules: Rules, budget_nodes: int, *, known: bool) -> Timed:
    began = time.process_time()
    analysis = analyse(
        game.deal,
        rules,
        game.moves,
        budget=Budget(max_nodes=budget_nodes),
        known_par=game.par if known else None,
    )
    return Timed(time.process_time() - began, analysis)


def naive_review(game: Game, rules: Rules) -> tuple[float, list[str]]:
    """The review without reuse: each position solved from scratch, par, the fewest-draws line
    from the position before the losing move."""
    began = time.process_time()
    state = new_game(game.deal, rules)
    verdicts = ["winnable" if winnable(game.deal, rules, state.position) else "lost"]
    positions = [state.position]
    for move in game.moves:
        state = apply(state, move)
        positions.append(state.position)
        verdicts.append("winnable" if winnable(game.deal, rules, state.position) else "lost")
    par(game.deal, rules)
    turns = [i for i in range(1, len(verdicts)) if verdicts[i - 1 : i + 1] == ["winnable", "lost"]]
    if turns:
        solve_min_draws(game.deal, rules, positions[turns[0] - 1])
    return time.process_time() - began, verdicts


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(name: str, games: list[Game], runs: list[Timed]) -> dict[str, object]:
    seconds = [run.seconds for run in runs]
    worst = max(range(len(runs)), key=seconds.__getitem__)
    nodes = [run.analysis.nodes for run in runs]
    lost = [run for game, run in zip(games, runs, strict=True) if not game.won]
    named = sum(1 for run in lost if run.analysis.losing_move is not None)
    return {
        "name": name,
        "p50_ms": statistics.median(seconds) * 1000,
        "p99_ms": quantile(seconds, 0.99) * 1000,
        "worst_ms": seconds[worst] * 1000,
        "worst_seed": games[worst].seed,
        "worst_moves": len(games[worst].moves),
        "nodes_p50": statistics.median(nodes),
        "nodes_max": max(nodes),
        "unknown_positions": sum(run.analysis.verdicts.count("unknown") for run in runs),
        "par_unknown": sum(1 for run in runs if run.analysis.par is None),
        "lost_games": len(lost),
        "lost_named": named,
    }


def print_summary(row: dict[str, object]) -> None:
    print(
        f"{row['name']:<22} CPU p50 {row['p50_ms']:.1f} ms, p99 {row['p99_ms']:.1f} ms, "
        f"worst {row['worst_ms']:.1f} ms (seed {row['worst_seed']}, {row['worst_moves']} moves); "
        f"nodes p50 {row['nodes_p50']:,.0f}, max {row['nodes_max']:,}; "
        f"unknown positions {row['unknown_positions']}, par unknown {row['par_unknown']}"
    )


def baseline(
    games: list[Game], rules: Rules, known: list[Timed], searched: list[Timed], count: int
) -> dict[str, float | int]:
    """The naive review of the first `count` games beside the review's own times on them."""
    naive_seconds = 0.0
    differ = 0
    for game, run in zip(games[:count], searched[:count], strict=True):
        seconds, verdicts = naive_review(game, rules)
        naive_seconds += seconds
        differ += any(
            mine not in ("unknown", truth)
            for mine, truth in zip(run.analysis.verdicts, verdicts, strict=True)
        )
    known_seconds = sum(run.seconds for run in known[:count])
    searched_seconds = sum(run.seconds for run in searched[:count])
    return {
        "games": min(count, len(games)),
        "naive_s": naive_seconds,
        "known_s": known_seconds,
        "searched_s": searched_seconds,
        "ratio_known": naive_seconds / known_seconds if known_seconds else 0.0,
        "ratio_searched": naive_seconds / searched_seconds if searched_seconds else 0.0,
        "differ": differ,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--layout", default="classic")
    parser.add_argument("--rules", default="wrap-closed", help="a rule-set key")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--baseline", type=int, default=20, help="games reviewed naively too")
    parser.add_argument("--budget", type=int, default=REVIEW_BUDGET_NODES, help="nodes per game")
    parser.add_argument("--json", default="", help="write the figures here")
    args = parser.parse_args(argv)
    rules = Rules.from_key(args.rules)
    rng = random.Random(args.first_seed)
    games = [
        play_game(seed, deal, rules, rng)
        for seed, deal in proven_deals(args.layout, rules, args.first_seed, args.games)
    ]
    known_runs: list[Timed] = []
    searched_runs: list[Timed] = []
    for game in games:  # both ways game by game: any load falls on both alike
        known_runs.append(timed_analysis(game, rules, args.budget, known=True))
        searched_runs.append(timed_analysis(game, rules, args.budget, known=False))
    moves = [len(game.moves) for game in games]
    won = sum(game.won for game in games)
    print(
        f"review analysis: {len(games)} games on {args.layout} {rules.key} (proven deals from seed "
        f"{args.first_seed}), budget {args.budget:,} nodes; moves per game p50 "
        f"{statistics.median(moves):.0f}, max {max(moves)}; {won} won, {len(games) - won} lost"
    )
    rows = [summary("par known (service)", games, known_runs)]
    rows.append(summary("par searched", games, searched_runs))
    for row in rows:
        print_summary(row)
    lost, named = rows[0]["lost_games"], rows[0]["lost_named"]
    share = 100 * int(str(named)) / max(1, int(str(lost)))
    print(f"lost games with a named losing move: {named} of {lost} ({share:.1f}%)")
    base = baseline(games, rules, known_runs, searched_runs, args.baseline)
    print(
        f"baseline, the first {base['games']} games: naive review (each position solved from "
        f"scratch, par searched) {base['naive_s']:.2f} s CPU; analyse with par known "
        f"{base['known_s']:.2f} s ({base['ratio_known']:.1f}x less), with par searched "
        f"{base['searched_s']:.2f} s ({base['ratio_searched']:.1f}x less); verdicts differing: "
        f"{base['differ']}"
    )
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": rows, "baseline": base}, indent=2))
    return 1 if base["differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
