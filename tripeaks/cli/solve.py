"""`python -m tripeaks solve [--no-wrap] [--layout NAME] [--start empty] [--fewest-draws]`.

Reads deal codes from stdin, one per line, and prints one JSON object per input line:
{"winnable": true, "line": [18, "draw", 19, ...]} (an int plays that layout position, "draw"
turns the stock; "line" is empty when the deal cannot be won), or {"error": "..."} for a line
that is not a deal code; the run goes on. Exit code 0, or 1 if any line was bad.
"""

from __future__ import annotations

import argparse
import json
import sys

from tripeaks.cli import add_layout, add_start, add_wrap, layout_or_exit, rules_from
from tripeaks.engine.deal import DealError, parse_code
from tripeaks.engine.solver import line_tokens, solve, solve_min_draws


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tripeaks solve",
        description="Solve deal codes read from stdin, one JSON object per line.",
    )
    add_wrap(parser)
    add_layout(parser)
    add_start(parser)
    parser.add_argument(
        "--fewest-draws",
        action="store_true",
        help="give a winning line with the fewest draws (slower)",
    )
    args = parser.parse_args(argv)
    layout = layout_or_exit(parser, args.layout)
    rules = rules_from(args)
    search = solve_min_draws if args.fewest_draws else solve
    bad = 0
    for raw in sys.stdin:
        text = raw.strip()
        try:
            if not text:
                raise DealError("an empty line is not a deal code")
            deal = parse_code(text, layout, rules.start)
        except DealError as error:
            bad += 1
            print(json.dumps({"error": str(error)}), flush=True)
            continue
        solution = search(deal, rules)
        print(
            json.dumps({"winnable": solution.winnable, "line": line_tokens(solution.line)}),
            flush=True,
        )
    return 1 if bad else 0
