"""`python -m tripeaks play`: play one deal in the terminal, a small honest text UI.

The layout is drawn row by row with every position numbered: `[7H]` is a free card, ` 7H ` a
face-up card still covered (open variant), ` ## ` a face-down card, and a removed card is blank.
Type a position number to play it, `d` to draw, `u` to undo, `r` to restart, `h` for a hint,
`x` to resign and `q` to quit. Works with piped input too.
"""

from __future__ import annotations

import argparse
import importlib
import secrets
import sys
import time
from collections.abc import Callable
from typing import Protocol, TextIO

from tripeaks.engine.deal import MASK64, DealError, from_seed, parse_code
from tripeaks.engine.game import (
    Draw,
    Move,
    Play,
    Resign,
    Restart,
    RuleError,
    State,
    Undo,
    apply,
    new_game,
)
from tripeaks.engine.layout import LayoutError
from tripeaks.engine.layouts import DEFAULT_LAYOUT, get_layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.scoring import score


class Say(Protocol):
    def __call__(self, text: str = "") -> None: ...


HELP = "a number plays that position, d draws, u undoes, r restarts, h hints, x resigns, q quits"
CELL = 4  # characters per card cell
STEP = 3  # characters per half-card unit of x


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= MASK64:
        raise argparse.ArgumentTypeError("a seed is a whole number from 0 to 2**64 - 1")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tripeaks play", description="Play a TriPeaks deal in the terminal."
    )
    parser.add_argument(
        "--seed", type=_seed, help="the deal's seed (default: a random one, printed at the start)"
    )
    parser.add_argument("--code", help="play this deal code instead of a seeded deal")
    parser.add_argument(
        "--layout", default=DEFAULT_LAYOUT, help=f"layout name (default: {DEFAULT_LAYOUT})"
    )
    parser.add_argument("--no-wrap", action="store_true", help="King and Ace do not connect")
    parser.add_argument(
        "--open", action="store_true", help="every layout card face up from the start"
    )
    parser.add_argument(
        "--empty-start",
        action="store_true",
        help="start with an empty waste: any free card plays first",
    )
    return parser


def _cell(state: State, p: int) -> str:
    if not state.in_layout(p):
        return " " * CELL
    if not state.is_face_up(p):
        return " ## "
    token = state.card_at(p).token
    return f"[{token}]" if state.is_free(p) else f" {token} "


def render(state: State) -> str:
    """The table as text: the layout rows (position numbers above the cards), then the waste and stock."""
    layout = state.deal.layout
    rows: dict[tuple[int, int], list[int]] = {}
    for p, slot in enumerate(layout.slots):
        rows.setdefault((slot.y, slot.z), []).append(p)
    width = max(slot.x for slot in layout.slots) * STEP + CELL
    lines: list[str] = []
    for key in sorted(rows):
        numbers = [" "] * width
        cards = [" "] * width
        for p in rows[key]:
            column = layout.slots[p].x * STEP
            label = f"{p:^{CELL}}" if state.in_layout(p) else " " * CELL
            numbers[column : column + CELL] = label
            cards[column : column + CELL] = _cell(state, p)
        if "".join(numbers).strip() or "".join(cards).strip():
            lines += ["".join(numbers).rstrip(), "".join(cards).rstrip()]
    top = state.waste_top
    lines.append("")
    lines.append(
        f"Waste: {top.token if top else '--'} ({state.waste_count} card{'' if state.waste_count == 1 else 's'})   Stock: {state.stock_left} left   "
        f"Layout: {state.cards_left} left   Moves: {state.moves}"
    )
    playable = state.playable()
    lines.append("Playable: " + (" ".join(str(p) for p in playable) if playable else "nothing"))
    return "\n".join(lines)


def _describe(state: State, move: object) -> str:
    if isinstance(move, Play):
        move = move.position
    if isinstance(move, int) and not isinstance(move, bool) and 0 <= move < state.deal.layout.size:
        return f"Hint: play position {move} ({state.card_at(move).token})."
    if isinstance(move, Draw) or move == "draw":
        return "Hint: draw from the stock."
    return f"Hint: {move}."


def _hint(state: State) -> str:
    # Imported when a hint is asked for: the game plays without the solver (and the tests give it
    # a stand-in through sys.modules).
    try:
        solver = importlib.import_module("tripeaks.engine.solver")
    except ImportError:
        return "Hints need the solver, which is not installed here."
    hint: Callable[[State], object] | None = getattr(solver, "hint", None)
    if hint is None:
        return "Hints need the solver, which is not installed here."
    try:
        result = hint(state)
    except TypeError as error:  # a solver whose hint() wants something else than a State
        return f"The solver's hint could not be asked: {error}"
    result = getattr(result, "move", result)
    if result is None:
        return "Hint: no win from here. Undo or restart."
    return _describe(state, result)


def _command(text: str) -> Move | str:
    """A Move, or one of "quit", "hint", "help", or "" for an empty line; raises RuleError otherwise."""
    word = text.strip().lower()
    simple: dict[str, Move | str] = {
        "d": Draw(),
        "draw": Draw(),
        "u": Undo(),
        "undo": Undo(),
        "r": Restart(),
        "restart": Restart(),
        "x": Resign(),
        "resign": Resign(),
        "h": "hint",
        "hint": "hint",
        "q": "quit",
        "quit": "quit",
        "?": "help",
        "help": "help",
        "": "",
    }
    if word in simple:
        return simple[word]
    if word.isdigit() and word.isascii():
        return Play(int(word))
    raise RuleError(f"{text.strip()!r} is not a command: {HELP}")


def _start(args: argparse.Namespace) -> tuple[State, str]:
    """The game the arguments ask for, and the line that introduces it."""
    rules = Rules(
        wrap=not args.no_wrap, open=args.open, start="empty" if args.empty_start else "waste"
    )
    layout = get_layout(args.layout)
    if args.code is not None:
        deal = parse_code(args.code, layout, rules.start)
        origin = "your deal code"
    else:
        seed = secrets.randbits(64) if args.seed is None else args.seed
        deal = from_seed(seed, layout, rules.start)
        origin = f"seed {seed}"
    return new_game(deal, rules), f"TriPeaks, layout {layout.name!r}, rules {rules.key}, {origin}."


def _show(state: State, say: Say) -> None:
    say()
    say(render(state))
    if state.status == "stuck":
        say(
            "Stuck: the stock is empty and no free card fits. You may undo (u), restart (r), resign (x) or quit (q)."
        )


def _step(state: State, line: str, say: Say) -> tuple[State, bool, bool]:
    """One typed line: the state after it, whether to show the table again, whether to stop."""
    try:
        command = _command(line)
        if command == "quit":
            say("Bye.")
            return state, False, True
        if command in ("help", "hint"):
            say(f"Commands: {HELP}." if command == "help" else _hint(state))
            return state, False, False
        if command == "":
            return state, True, False
        assert not isinstance(command, str)
        return apply(state, command), True, False
    except RuleError as error:
        say(f"Not allowed: {error}")
        return state, False, False


def _play(state: State, source: TextIO, out: TextIO, say: Say) -> int:
    started = time.monotonic()
    shown = True
    while True:
        if shown:
            _show(state, say)
        out.write("> ")
        out.flush()
        line = source.readline()
        if not line:
            say()
            say("Bye.")
            return 0
        state, shown, stop = _step(state, line, say)
        if stop:
            return 0
        if state.status == "won":
            say()
            say(render(state))
            elapsed = time.monotonic() - started
            say(f"You won in {state.moves} moves, {elapsed:.0f} s, score {score(state, elapsed)}.")
            return 0
        if state.status == "lost":
            say("You resigned: the game is lost.")
            return 0


def main(
    argv: list[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    source = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    try:
        args = _parser().parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2
    try:
        state, introduction = _start(args)
    except (LayoutError, DealError) as error:
        say(f"error: {error}")
        return 2
    say(introduction)
    say(f"Commands: {HELP}.")
    return _play(state, source, out, say)
