"""The command line: `python -m tripeaks COMMAND ...`.

Commands (each a module with `main(argv) -> int`, imported only when used):

    deal   print the deal code of a seed
    solve  read deal codes from stdin, print one JSON verdict and winning line per line
    stats  the share of winnable deals over many seeds, with a 95% confidence interval
    bench  the solver benchmark against the plain baseline (bench/solver_bench.py)
    play   play a deal in the terminal

Exit codes: 0 done, 1 the command ran but something in its input was bad, 2 a usage error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable

from tripeaks.engine.layout import Layout, LayoutError
from tripeaks.engine.layouts import DEFAULT_LAYOUT, get_layout
from tripeaks.engine.rules import Rules

COMMANDS: dict[str, str] = {
    "deal": "print the deal code of a seed",
    "solve": "solve deal codes read from stdin, one JSON line each",
    "stats": "share of winnable deals, with a 95% confidence interval",
    "bench": "benchmark the solver against the plain baseline",
    "play": "play a deal in the terminal",
}

USAGE = (
    "usage: python -m tripeaks {"
    + ",".join(COMMANDS)
    + "} [options]  (COMMAND --help for its options)"
)


# Options shared by the commands.


def add_layout(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--layout", default=DEFAULT_LAYOUT, help=f"layout name (default {DEFAULT_LAYOUT})"
    )


def add_start(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--start",
        choices=("waste", "empty"),
        default="waste",
        help="waste: one card starts the waste (default); empty: the waste starts empty",
    )


def add_wrap(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-wrap", action="store_true", help="King and Ace do not connect")


def layout_or_exit(parser: argparse.ArgumentParser, name: str) -> Layout:
    try:
        return get_layout(name)
    except LayoutError as error:
        parser.error(str(error))


def rules_from(args: argparse.Namespace) -> Rules:
    return Rules(wrap=not getattr(args, "no_wrap", False), start=args.start)


def _help() -> str:
    lines = [USAGE, "", "commands:"]
    lines += [f"  {name:<6} {text}" for name, text in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(_help(), file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command not in COMMANDS:
        print(f"tripeaks: unknown command {command!r}\n{_help()}", file=sys.stderr)
        return 2
    try:
        module = importlib.import_module(f"tripeaks.cli.{command}")
    except ModuleNotFoundError as error:
        if error.name != f"tripeaks.cli.{command}":
            raise
        print(f"tripeaks: the {command!r} command is not available yet", file=sys.stderr)
        return 2
    entry: Callable[[list[str]], int] = module.main
    return entry(rest)
