"""`python -m tripeaks bench [--deals N] ...`: the solver benchmark, bench/solver_bench.py."""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    root = Path(__file__).resolve().parent.parent.parent
    if not (root / "bench" / "solver_bench.py").is_file():
        print(
            "tripeaks: the benchmark lives in bench/ of the source tree; run it from a checkout",
            file=sys.stderr,
        )
        return 2
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from bench.solver_bench import main as bench_main

    return bench_main(argv)
