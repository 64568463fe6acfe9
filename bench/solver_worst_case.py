"""The solver's worst case on every layout x rule set x start, on random and adversarial deals.

    .venv/bin/python -m bench.solver_worst_case [--random 10] [--climb 10] [--cap 2000000]
        [--jobs 2] [--layouts a,b] [--json PATH] [--markdown]
    .venv/bin/python -m bench.solver_worst_case --tiny      # CI: two layouts, a few deals, seconds

For each of the 54 layouts, wrap on and off, and the waste and the empty start it measures the two
searches a request may run (tripeaks.engine.solver), each without the request's budget but capped
at `--cap` nodes (a search that hits the cap is reported as "capped": its true cost is higher):

- **verdict**: `solve` (depth-first), what the on-the-spot random deal runs;
- **best line**: `par` / `hint` at the start (the fewest-draws search by levels).

Random deals: seeds 0..N-1 (`from_seed`). Adversarial deals: what an attacker with custom deal
codes would find: a hill climb that starts from the random deal with the most nodes and swaps two
cards of its code at a time (layout, waste or stock), keeping a swap when the nodes of the
costlier search grow (`--climb` swaps tried per combination; it stops at the cap). Times are CPU seconds of the
process (`time.process_time`, the machine is shared); peak memory is tracemalloc's peak while the
worst deal of each kind is searched again (tracemalloc only for that run: it slows Python down).
Peaks open (face up) and closed give the solver identical input (it sees every card anyway), so
each open rule set is the closed one's measurement: 216 combinations stand for 432.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tripeaks.engine.deal import Deal, deal_from_cards, from_seed
from tripeaks.engine.layouts import LAYOUTS, get_layout
from tripeaks.engine.rules import Rules, Start
from tripeaks.engine.solver import Budget, BudgetExceeded, par, solve


@dataclass
class Search:
    seconds: float
    nodes: int
    capped: bool


@dataclass
class Combo:
    layout: str
    wrap: bool
    start: str
    random_verdict: list[Search]
    random_best: list[Search]
    adversarial_verdict: Search
    adversarial_best: Search
    adversarial_code: str
    climb_steps: int
    peak_mb_random: float
    peak_mb_adversarial: float


def measure(deal: Deal, rules: Rules, cap: int, which: str) -> Search:
    budget = Budget(max_nodes=cap)
    began = time.process_time()
    try:
        if which == "verdict":
            solve(deal, rules, budget=budget)
        else:
            par(deal, rules, budget=budget)
        capped = False
    except BudgetExceeded:
        capped = True
    return Search(time.process_time() - began, budget.nodes, capped)


def both(deal: Deal, rules: Rules, cap: int) -> tuple[Search, Search]:
    return measure(deal, rules, cap, "verdict"), measure(deal, rules, cap, "best")


def peak_mb(deal: Deal, rules: Rules, cap: int) -> float:
    tracemalloc.start()
    try:
        both(deal, rules, cap)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def climb(deal: Deal, rules: Rules, cap: int, steps: int, rng: random.Random) -> tuple[Deal, int]:
    """Hill climb over deal codes, maximising the nodes of the costlier search; (worst deal,
    swaps kept)."""
    best = deal
    score = max(s.nodes for s in both(deal, rules, cap))
    kept = 0
    for _ in range(steps):
        if score > cap:
            break  # at the cap: nothing measurable is worse
        cards = list(best.cards)
        i, j = rng.sample(range(len(cards)), 2)
        cards[i], cards[j] = cards[j], cards[i]
        candidate = deal_from_cards(tuple(cards), best.layout, best.start)
        total = max(s.nodes for s in both(candidate, rules, cap))
        if total > score:
            best, score, kept = candidate, total, kept + 1
    return best, kept


def run_combo(args: tuple[str, bool, str, int, int, int]) -> Combo:
    layout_name, wrap, start, n_random, n_climb, cap = args
    layout = get_layout(layout_name)
    rules = Rules(wrap=wrap, start=start)  # type: ignore[arg-type]
    start_: Start = rules.start
    verdicts: list[Search] = []
    bests: list[Search] = []
    worst_seed, worst_nodes = 0, -1
    for seed in range(n_random):
        deal = from_seed(seed, layout, start_)
        verdict, best = both(deal, rules, cap)
        verdicts.append(verdict)
        bests.append(best)
        if max(verdict.nodes, best.nodes) > worst_nodes:
            worst_seed, worst_nodes = seed, max(verdict.nodes, best.nodes)
    worst_random = from_seed(worst_seed, layout, start_)
    rng = random.Random(f"{layout_name}-{wrap}-{start}")
    adversarial, kept = climb(worst_random, rules, cap, n_climb, rng)
    adv_verdict, adv_best = both(adversarial, rules, cap)
    return Combo(
        layout=layout_name,
        wrap=wrap,
        start=start,
        random_verdict=verdicts,
        random_best=bests,
        adversarial_verdict=adv_verdict,
        adversarial_best=adv_best,
        adversarial_code=adversarial.code,
        climb_steps=kept,
        peak_mb_random=peak_mb(worst_random, rules, cap),
        peak_mb_adversarial=peak_mb(adversarial, rules, cap),
    )


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(search_list: list[Search], q: float) -> float:
    return quantile([s.seconds for s in search_list], q) * 1000


def fmt(ms_value: float, capped: bool = False) -> str:
    text = f"{ms_value:,.0f}" if ms_value >= 10 else f"{ms_value:.1f}"
    return f"≥{text}" if capped else text


def rows(combos: list[Combo]) -> list[dict[str, Any]]:
    out = []
    for c in combos:
        searches = c.random_verdict + c.random_best
        out.append(
            {
                "layout": c.layout,
                "rules": f"{'wrap' if c.wrap else 'nowrap'}-{{closed,open}}",
                "start": c.start,
                "random_p50_ms": ms(searches, 0.5),
                "random_p99_ms": ms(searches, 0.99),
                "random_max_ms": ms(searches, 1.0),
                "random_capped": sum(s.capped for s in searches),
                "random_searches": len(searches),
                "adversarial_ms": max(c.adversarial_verdict.seconds, c.adversarial_best.seconds)
                * 1000,
                "adversarial_capped": c.adversarial_verdict.capped or c.adversarial_best.capped,
                "adversarial_nodes": max(c.adversarial_verdict.nodes, c.adversarial_best.nodes),
                "peak_mb": max(c.peak_mb_random, c.peak_mb_adversarial),
            }
        )
    return out


def markdown(table: list[dict[str, Any]]) -> str:
    lines = [
        "| layout | rules | start | random p50 ms | p99 ms | max ms | capped | "
        "adversarial max ms | peak MB |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in table:
        lines.append(
            f"| `{r['layout']}` | {r['rules'].split('-')[0]} | {r['start']} | "
            f"{fmt(r['random_p50_ms'])} | {fmt(r['random_p99_ms'])} | "
            f"{fmt(r['random_max_ms'], r['random_capped'] > 0)} | "
            f"{r['random_capped']}/{r['random_searches']} | "
            f"{fmt(r['adversarial_ms'], r['adversarial_capped'])} | {r['peak_mb']:.1f} |"
        )
    return "\n".join(lines)


def summary(table: list[dict[str, Any]], combos: list[Combo], seconds: float) -> dict[str, Any]:
    searches = [s for c in combos for s in c.random_verdict + c.random_best]
    verdicts = [s for c in combos for s in c.random_verdict]
    bests = [s for c in combos for s in c.random_best]
    worst = max(table, key=lambda r: r["adversarial_nodes"])
    return {
        "combinations": len(combos),
        "random_searches": len(searches),
        "random_p50_ms": ms(searches, 0.5),
        "random_p99_ms": ms(searches, 0.99),
        "random_max_ms": ms(searches, 1.0),
        "random_verdict_p99_ms": ms(verdicts, 0.99),
        "random_best_p99_ms": ms(bests, 0.99),
        "random_capped": sum(s.capped for s in searches),
        "over_200ms": sum(s.seconds > 0.2 for s in searches),
        "adversarial_capped": sum(r["adversarial_capped"] for r in table),
        "adversarial_max_ms": max(r["adversarial_ms"] for r in table),
        "worst_adversarial": f"{worst['layout']} {worst['rules']} {worst['start']}",
        "peak_mb": max(r["peak_mb"] for r in table),
        "wall_seconds": seconds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--random", type=int, default=10, help="random deals per combination")
    parser.add_argument("--climb", type=int, default=12, help="hill-climb swaps per combination")
    parser.add_argument("--cap", type=int, default=1_000_000, help="nodes per search, at most")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--layouts", default="", help="comma-separated (default: all 54)")
    parser.add_argument("--tiny", action="store_true", help="CI: 2 layouts, 2 deals, 2 swaps")
    parser.add_argument("--json", default="", help="write every measurement here")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--progress", default="", help="append each combination here (JSON lines)")
    parser.add_argument("--from-progress", default="", help="only print the table of this file")
    args = parser.parse_args(argv)
    if args.tiny:
        args.random, args.climb, args.cap, args.jobs = 2, 2, 50_000, 1
        args.layouts = args.layouts or "classic,pyramid"
    layouts = args.layouts.split(",") if args.layouts else list(LAYOUTS)
    work = [
        (layout, wrap, start, args.random, args.climb, args.cap)
        for layout in layouts
        for wrap in (True, False)
        for start in ("waste", "empty")
    ]
    began = time.monotonic()
    if args.from_progress:
        return report(
            args,
            [load(line) for line in Path(args.from_progress).read_text().split("\n") if line],
            began,
        )
    combos: list[Combo] = []
    progress = Path(args.progress) if args.progress else None

    def done(combo: Combo) -> None:
        combos.append(combo)
        print(f"{len(combos)}/{len(work)} {combo.layout}", file=sys.stderr, flush=True)
        if progress is not None:
            with progress.open("a") as lines:
                lines.write(json.dumps(asdict(combo)) + "\n")

    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for future in as_completed([pool.submit(run_combo, item) for item in work]):
                done(future.result())
    else:
        for item in work:
            done(run_combo(item))
    order = {(layout, wrap, start): i for i, (layout, wrap, start, *_) in enumerate(work)}
    combos.sort(key=lambda c: order[(c.layout, c.wrap, c.start)])
    return report(args, combos, began)


def load(line: str) -> Combo:
    raw = json.loads(line)
    for key in ("random_verdict", "random_best"):
        raw[key] = [Search(**s) for s in raw[key]]
    for key in ("adversarial_verdict", "adversarial_best"):
        raw[key] = Search(**raw[key])
    return Combo(**raw)


def report(args: argparse.Namespace, combos: list[Combo], began: float) -> int:
    position = {name: i for i, name in enumerate(LAYOUTS)}
    combos = sorted(combos, key=lambda c: (position[c.layout], not c.wrap, c.start != "waste"))
    table = rows(combos)
    figures = summary(table, combos, time.monotonic() - began)
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "args": vars(args),
                    "summary": figures,
                    "table": table,
                    "combos": [asdict(c) for c in combos],
                },
                indent=1,
            )
        )
    if args.markdown:
        print(markdown(table))
    print(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
