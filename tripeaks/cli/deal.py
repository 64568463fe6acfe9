"""`python -m tripeaks deal --seed S [--layout NAME] [--start empty]`: print the deal code."""

from __future__ import annotations

import argparse

from tripeaks.cli import add_layout, add_start, layout_or_exit
from tripeaks.engine.deal import DealError, from_seed


def _seed(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tripeaks deal", description=__doc__)
    parser.add_argument("--seed", type=_seed, required=True, help="0 to 2**64 - 1 (0x... accepted)")
    add_layout(parser)
    add_start(parser)
    args = parser.parse_args(argv)
    layout = layout_or_exit(parser, args.layout)
    try:
        deal = from_seed(args.seed, layout, args.start)
    except DealError as error:
        parser.error(str(error))
    print(deal.code)
    return 0
