"""The solver benchmark: `python -m bench.solver_bench [--deals 1000]` (or `python -m tripeaks bench`).

One process, one core. Solves the same random classic deals (seeds 0..N-1, wrap on) with the
plain baseline (bench/solver_baseline.py) and with `tripeaks.engine.solver.solve`, alternating
deal by deal so that any load on the machine falls on both alike; checks that the verdicts agree;
prints deals/s, the speed-up, median and p99 per deal, the worst deal, the peak memory of the
worst deal (measured in a fresh subprocess), and hint times from random mid-game positions.
Exit code 1 if a verdict differs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.solver_baseline import baseline_winnable
from tripeaks.engine.deal import Deal, from_seed
from tripeaks.engine.game import Draw, Play, State, apply, new_game
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import hint, solve, solve_min_draws

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True, slots=True)
class Timing:
    seconds: list[float]
    seeds: list[int]

    @property
    def total(self) -> float:
        return sum(self.seconds)

    def quantile(self, q: float) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def worst(self) -> tuple[int, float]:
        i = max(range(len(self.seconds)), key=self.seconds.__getitem__)
        return self.seeds[i], self.seconds[i]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def random_position(deal: Deal, rules: Rules, rng: random.Random) -> State:
    """A mid-game state: random legal plays and draws (plays preferred), 3 to 40 moves in."""
    state = new_game(deal, rules)
    for _ in range(rng.randint(3, 40)):
        playable = state.playable()
        if state.status != "playing":
            break
        if playable and (rng.random() < 0.7 or state.stock_left == 0):
            state = apply(state, Play(rng.choice(playable)))
        elif state.stock_left:
            state = apply(state, Draw())
    return state


def measure_memory(seed: int, layout: str, wrap: bool) -> dict[str, float]:
    """Peak memory of solving one deal, in this (fresh) process."""
    deal = from_seed(seed, get_layout(layout))
    rules = Rules(wrap=wrap)
    tracemalloc.start()
    solve(deal, rules)
    solve_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    solve_min_draws(deal, rules)
    min_draws_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {
        "solve_traced_mb": solve_peak / 2**20,
        "min_draws_traced_mb": min_draws_peak / 2**20,
        "process_max_rss_mb": _peak_rss_kb() / 1024,
    }


def _peak_rss_kb() -> int:
    """This process's peak resident memory. VmHWM starts afresh at exec; ru_maxrss does not (a
    child started by a big parent inherits the parent's mark), so it is only the fallback."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def memory_in_subprocess(seed: int, layout: str, wrap: bool) -> dict[str, float]:
    command = [
        sys.executable,
        "-m",
        "bench.solver_bench",
        "--memory-of",
        str(seed),
        "--layout",
        layout,
    ]
    if not wrap:
        command.append("--no-wrap")
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def run(
    deals: int, seed_base: int, layout: str, wrap: bool, hints: int, baseline: bool
) -> dict[str, object]:
    rules = Rules(wrap=wrap)
    the_layout = get_layout(layout)
    seeds = list(range(seed_base, seed_base + deals))
    base = Timing([], [])
    ours = Timing([], [])
    mismatches: list[int] = []
    won = 0
    wall_began = time.perf_counter()
    clock = time.process_time  # CPU time of this process: robust to a loaded machine
    for seed in seeds:
        deal = from_seed(seed, the_layout)
        began = clock()
        verdict = solve(deal, rules).winnable
        ours.seconds.append(clock() - began)
        ours.seeds.append(seed)
        won += verdict
        if baseline:
            began = clock()
            expected = baseline_winnable(deal, rules)
            base.seconds.append(clock() - began)
            base.seeds.append(seed)
            if expected != verdict:
                mismatches.append(seed)

    wall = time.perf_counter() - wall_began
    rng = random.Random(20240531)
    hint_times: list[float] = []
    for _ in range(hints):
        deal = from_seed(rng.choice(seeds), the_layout)
        state = random_position(deal, rules, rng)
        began = clock()
        hint(state)
        hint_times.append(clock() - began)
    hint_times.sort()

    worst_seed, worst_time = ours.worst()
    report: dict[str, object] = {
        "layout": layout,
        "rules": rules.key,
        "deals": deals,
        "seed_base": seed_base,
        "winnable": won,
        "solver": {
            "deals_per_s": deals / ours.total,
            "total_s": ours.total,
            "median_ms": 1000 * ours.quantile(0.5),
            "p99_ms": 1000 * ours.quantile(0.99),
            "worst_seed": worst_seed,
            "worst_ms": 1000 * worst_time,
        },
        "memory_worst_deal": memory_in_subprocess(worst_seed, layout, wrap),
        "hints": {
            "positions": hints,
            "p50_ms": 1000 * hint_times[len(hint_times) // 2] if hint_times else None,
            "p99_ms": 1000 * hint_times[min(len(hint_times) - 1, int(0.99 * len(hint_times)))]
            if hint_times
            else None,
            "max_ms": 1000 * hint_times[-1] if hint_times else None,
        },
        "mismatches": mismatches,
        "wall_s_both_solvers": wall,
        "load_average": os.getloadavg(),
    }
    if baseline:
        base_worst_seed, base_worst_time = base.worst()
        report["baseline"] = {
            "deals_per_s": deals / base.total,
            "total_s": base.total,
            "median_ms": 1000 * base.quantile(0.5),
            "p99_ms": 1000 * base.quantile(0.99),
            "worst_seed": base_worst_seed,
            "worst_ms": 1000 * base_worst_time,
        }
        report["speedup"] = base.total / ours.total
        report["median_speedup"] = statistics.median(
            b / max(o, 1e-9) for b, o in zip(base.seconds, ours.seconds, strict=True)
        )
    return report


def describe(report: dict[str, object]) -> str:
    solver = report["solver"]
    hints = report["hints"]
    memory = report["memory_worst_deal"]
    assert isinstance(solver, dict) and isinstance(hints, dict) and isinstance(memory, dict)
    lines = [
        f"{report['deals']} deals, layout {report['layout']}, {report['rules']}, seeds from {report['seed_base']}: "
        f"{report['winnable']} winnable",
    ]
    baseline = report.get("baseline")
    rows = (
        [("baseline", baseline), ("solver", solver)]
        if isinstance(baseline, dict)
        else [("solver", solver)]
    )
    for name, row in rows:
        lines.append(
            f"  {name:<8} {row['deals_per_s']:9.1f} deals/s  total {row['total_s']:8.2f} s  "
            f"median {row['median_ms']:8.2f} ms  p99 {row['p99_ms']:9.1f} ms  "
            f"worst seed {row['worst_seed']} ({row['worst_ms']:.0f} ms)"
        )
    if "speedup" in report:
        lines.append(
            f"  speed-up {report['speedup']:.1f}x on the total (median per-deal speed-up {report['median_speedup']:.1f}x)"
        )
        mismatches = report["mismatches"]
        assert isinstance(mismatches, list)
        lines.append(f"  verdicts differ on {len(mismatches)} deals {mismatches or ''}".rstrip())
    lines.append(
        f"  worst deal memory: solve {memory['solve_traced_mb']:.1f} MB traced, "
        f"fewest-draws search {memory['min_draws_traced_mb']:.1f} MB traced, "
        f"process peak RSS {memory['process_max_rss_mb']:.1f} MB"
    )
    if hints["positions"]:
        lines.append(
            f"  hint from {hints['positions']} random mid-game positions: p50 {hints['p50_ms']:.1f} ms, "
            f"p99 {hints['p99_ms']:.1f} ms, max {hints['max_ms']:.1f} ms"
        )
    load = report["load_average"]
    assert isinstance(load, tuple | list)
    lines.append(
        f"  times are CPU seconds of this process; wall clock for both solvers {report['wall_s_both_solvers']:.1f} s, "
        f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.solver_bench", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--deals", type=int, default=1000, help="random deals to solve (default 1000)"
    )
    parser.add_argument("--seed-base", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--layout", default="classic")
    parser.add_argument("--no-wrap", action="store_true")
    parser.add_argument(
        "--hints", type=int, default=300, help="random mid-game positions to hint (default 300)"
    )
    parser.add_argument("--no-baseline", action="store_true", help="time the solver only")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--save", metavar="PATH", help="also write the report as JSON to PATH")
    parser.add_argument("--memory-of", type=int, metavar="SEED", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_of is not None:
        print(json.dumps(measure_memory(args.memory_of, args.layout, not args.no_wrap)))
        return 0
    if args.deals < 1 or args.hints < 0:
        parser.error("--deals must be at least 1 and --hints at least 0")
    report = run(
        args.deals, args.seed_base, args.layout, not args.no_wrap, args.hints, not args.no_baseline
    )
    print(json.dumps(report) if args.json else describe(report))
    if args.save:
        Path(args.save).write_text(json.dumps(report, indent=2) + "\n")
    return 1 if report["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
