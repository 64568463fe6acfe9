"""`python -m tripeaks stats --deals N [--no-wrap] [--layout NAME] [--start empty]
[--seed-base B] [--jobs J] [--json]`: the share of winnable deals (seeds B .. B+N-1) with a
Wilson 95% confidence interval."""

from __future__ import annotations

import argparse
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from tripeaks.cli import add_layout, add_start, add_wrap, layout_or_exit, rules_from
from tripeaks.engine.deal import from_seed
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules, Start
from tripeaks.engine.solver import winnable

Z95 = 1.959963984540054


def wilson(won: int, total: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a share of `won` out of `total`."""
    if total <= 0:
        return (0.0, 1.0)
    share = won / total
    denominator = 1 + z * z / total
    centre = (share + z * z / (2 * total)) / denominator
    half = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class _Chunk:
    layout: str
    wrap: bool
    start: Start
    first: int
    count: int


def _solve_chunk(chunk: _Chunk) -> list[int]:
    """The unwinnable seeds of one chunk."""
    layout = get_layout(chunk.layout)
    rules = Rules(wrap=chunk.wrap, start=chunk.start)
    seeds = range(chunk.first, chunk.first + chunk.count)
    return [seed for seed in seeds if not winnable(from_seed(seed, layout, chunk.start), rules)]


def count_unwinnable(layout: str, rules: Rules, first: int, deals: int, jobs: int = 1) -> list[int]:
    size = max(1, min(250, deals // (jobs * 8) or 1))
    chunks = [
        _Chunk(layout, rules.wrap, rules.start, start, min(size, first + deals - start))
        for start in range(first, first + deals, size)
    ]
    if jobs <= 1:
        results = [_solve_chunk(chunk) for chunk in chunks]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(_solve_chunk, chunks))
    return sorted(seed for result in results for seed in result)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tripeaks stats", description=__doc__)
    parser.add_argument("--deals", type=int, required=True, help="how many deals (seeds) to solve")
    add_wrap(parser)
    add_layout(parser)
    add_start(parser)
    parser.add_argument("--seed-base", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.seed_base < 0 or args.seed_base + args.deals - 1 >= 1 << 64:
        parser.error("seeds run from 0 to 2**64 - 1")
    layout = layout_or_exit(parser, args.layout)
    rules = rules_from(args)
    began = time.perf_counter()
    lost = count_unwinnable(layout.name, rules, args.seed_base, args.deals, args.jobs)
    seconds = time.perf_counter() - began
    won = args.deals - len(lost)
    low, high = wilson(won, args.deals)
    if args.json:
        report = {
            "layout": layout.name,
            "rules": rules.key,
            "seed_base": args.seed_base,
            "deals": args.deals,
            "winnable": won,
            "share": won / args.deals,
            "ci95": [low, high],
            "unwinnable_seeds": lost,
            "seconds": round(seconds, 3),
        }
        print(json.dumps(report))
    else:
        print(
            f"{layout.name}, {rules.key}: {won:,} of {args.deals:,} deals winnable "
            f"(seeds {args.seed_base}..{args.seed_base + args.deals - 1}): {100 * won / args.deals:.2f}% "
            f"(95% CI {100 * low:.2f}-{100 * high:.2f}%, Wilson), {seconds:.1f} s"
        )
    return 0
