"""Measure each layout's solvability: the share of winnable deals over seeds 0..N-1, wrap on.

    python bench/layout_solvability.py                    # every layout, 1,000 deals, 2 processes
    python bench/layout_solvability.py --deals 100 --layouts classic wall
    python bench/layout_solvability.py --markdown         # the table for docs/layouts.md

It uses the exact solver `tripeaks.engine.solver.solve` when that module is importable and
otherwise its own exact baseline: a memoized DFS over (removed mask, stock index, waste rank)
that tries every free fitting card, then the draw. It never uses the "draw only when nothing
plays" shortcut, which is not exact.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tripeaks.engine.deal import Deal, from_seed
from tripeaks.engine.layout import Layout
from tripeaks.engine.layouts import LAYOUTS, get_layout
from tripeaks.engine.rules import Rules

Solver = Callable[[Deal, Rules], bool]


def baseline_winnable(deal: Deal, rules: Rules) -> bool:
    """Exact: can this deal be won? Memoized DFS on (removed mask, stock index, waste rank)."""
    layout = deal.layout
    size = layout.size
    ranks = [card.rank for card in deal.layout_cards]
    stock = [card.rank for card in deal.stock]
    stock_size = len(stock)
    blockers = [sum(1 << j for j in above) for above in layout.covered_by]
    full = (1 << size) - 1
    # fits[waste][rank]; waste 0 is the empty waste, which takes anything.
    fits = [[rules.fits(rank, waste or None) for rank in range(14)] for waste in range(14)]
    positions = range(size)
    failed: set[int] = set()
    sys.setrecursionlimit(max(1000, 4 * (size + stock_size) + 100))

    def search(removed: int, drawn: int, waste: int) -> bool:
        if removed == full:
            return True
        key = (removed << 6 | drawn) << 4 | waste
        if key in failed:
            return False
        fitting = fits[waste]
        for p in positions:
            if (
                not removed >> p & 1
                and not blockers[p] & ~removed
                and fitting[ranks[p]]
                and search(removed | 1 << p, drawn, ranks[p])
            ):
                return True
        if drawn < stock_size and search(removed, drawn + 1, stock[drawn]):
            return True
        failed.add(key)
        return False

    waste = 0 if deal.waste is None else deal.waste.rank
    return search(0, 0, waste)


def pick_solver(choice: str = "auto") -> tuple[str, Solver]:
    if choice == "baseline":
        return "bench baseline DFS", baseline_winnable
    try:
        engine_solver = importlib.import_module("tripeaks.engine.solver")
    except ImportError:
        return "bench baseline DFS", baseline_winnable
    solve = engine_solver.solve

    def winnable(deal: Deal, rules: Rules) -> bool:
        return bool(solve(deal, rules).winnable)

    return "tripeaks.engine.solver.solve", winnable


def solver_digest() -> str | None:
    """The SHA-256 of tripeaks/engine/solver.py, to tie a measurement to one solver version."""
    path = Path(__file__).resolve().parent.parent / "tripeaks" / "engine" / "solver.py"
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def count_wins(job: tuple[str, int, int, str]) -> tuple[str, list[int], float]:
    """Solve seeds first..last-1 of one layout; give back the seeds that cannot be won."""
    name, first, last, choice = job
    layout = get_layout(name)
    _, winnable = pick_solver(choice)
    rules = Rules()
    started = time.perf_counter()
    lost = [seed for seed in range(first, last) if not winnable(from_seed(seed, layout), rules)]
    return name, lost, time.perf_counter() - started


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval for a binomial share."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def face_down(layout: Layout) -> int:
    return sum(1 for above in layout.covered_by if above)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=1000, help="seeds 0..N-1 (default 1000)")
    parser.add_argument("--layouts", nargs="*", help="layout names (default: all)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--chunk", type=int, default=100, help="deals per task (default 100)")
    parser.add_argument("--markdown", action="store_true", help="print the docs table")
    parser.add_argument(
        "--solver",
        choices=("auto", "baseline"),
        default="auto",
        help="auto: the engine's solver when importable (default); baseline: this script's DFS",
    )
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    args = parser.parse_args(argv)

    names = args.layouts or list(LAYOUTS)
    for name in names:
        get_layout(name)
    solver_name, _ = pick_solver(args.solver)  # imported once here; the worker processes inherit it
    digest = solver_digest() if solver_name != "bench baseline DFS" else None
    print(
        f"solver: {solver_name}; {len(names)} layouts x {args.deals} deals, wrap on, {args.jobs} process(es)",
        file=sys.stderr,
    )
    jobs = [
        (name, first, min(first + args.chunk, args.deals), args.solver)
        for name in names
        for first in range(0, args.deals, args.chunk)
    ]
    lost: dict[str, list[int]] = {name: [] for name in names}
    seconds = dict.fromkeys(names, 0.0)
    started = time.perf_counter()
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = list(pool.imap_unordered(count_wins, jobs))
    else:
        results = [count_wins(job) for job in jobs]
    for name, unwinnable, spent in results:
        lost[name] += unwinnable
        seconds[name] += spent
    wins = {name: args.deals - len(lost[name]) for name in names}
    elapsed = time.perf_counter() - started

    rows = []
    for number, name in enumerate(names, 1):
        layout = get_layout(name)
        share = wins[name] / args.deals
        low, high = wilson(wins[name], args.deals)
        rows.append(
            {
                "number": number,
                "name": name,
                "title": layout.title,
                "cards": layout.size,
                "face_down": face_down(layout),
                "wins": wins[name],
                "deals": args.deals,
                "solvability": round(share, 3),
                "low": round(low, 3),
                "high": round(high, 3),
                "seconds": round(seconds[name], 2),
                "lost": sorted(lost[name]),
            }
        )
    if args.markdown:
        print("| # | Name | Title | Cards | Face down | Solvability | 95% CI |")
        print("|---:|---|---|---:|---:|---:|---|")
        for row in rows:
            print(
                f"| {row['number']} | `{row['name']}` | {row['title']} | {row['cards']} | {row['face_down']} "
                f"| {100 * row['solvability']:.1f}% | {100 * row['low']:.1f}-{100 * row['high']:.1f}% |"
            )
    else:
        for row in rows:
            print(
                f"{row['name']:<22} {row['cards']:>3} cards {row['face_down']:>3} down  "
                f"{row['wins']:>5}/{row['deals']}  {100 * row['solvability']:5.1f}%  "
                f"[{100 * row['low']:.1f}, {100 * row['high']:.1f}]  {row['seconds']:.1f}s"
            )
    shares = sorted(row["solvability"] for row in rows)
    print(
        f"min {shares[0]:.3f} median {shares[len(shares) // 2]:.3f} max {shares[-1]:.3f}; "
        f"{elapsed:.0f}s wall with {solver_name}",
        file=sys.stderr,
    )
    if args.json:
        summary = {
            "solver": solver_name,
            "solver_sha256": digest,
            "deals": args.deals,
            "seconds": round(elapsed, 1),
        }
        args.json.write_text(json.dumps({**summary, "rows": rows}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
