"""The terminal UI, driven by scripted input (in process, and once through a real pipe)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from tripeaks.cli.play import main, render
from tripeaks.engine.deal import from_seed
from tripeaks.engine.game import Draw, Play, new_game
from tripeaks.engine.layout import CLASSIC
from tripeaks.engine.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
PLAY_ORDER = [*range(18, 28), *range(9, 18), *range(3, 9), *range(3)]


def chain_code() -> str:
    """A classic deal won by playing the rows bottom up, left to right: the ranks climb 2, 3, ...,
    K, A, 2, ... from an ace on the waste (so it needs the wrap)."""
    used: dict[int, int] = {1: 1}  # the waste ace of clubs
    layout = [""] * 28
    rank = 1
    for p in PLAY_ORDER:
        rank = rank % 13 + 1
        suit = "CDHS"[used.get(rank, 0)]
        used[rank] = used.get(rank, 0) + 1
        layout[p] = "A23456789TJQK"[rank - 1] + suit
    every = [r + s for r in "A23456789TJQK" for s in "CDHS"]
    rest = [t for t in every if t not in layout and t != "AC"]
    return " ".join([*layout, "AC", *rest])


def run(argv: list[str], script: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(script), stdout=out)
    return code, out.getvalue()


def test_render_numbers_positions_and_hides_face_down_cards() -> None:
    deal = from_seed(0, CLASSIC)
    text = render(new_game(deal, Rules()))
    assert text.count("##") == 18
    for p in range(18, 28):
        assert f"[{deal.layout_cards[p].token}]" in text
    for p in range(18):
        assert deal.layout_cards[p].token not in text
    assert "Stock: 23 left" in text and f"Waste: {deal.waste}" in text
    assert not any(card.token in text for card in deal.stock)


def test_open_rendering_shows_covered_cards_without_brackets() -> None:
    deal = from_seed(0, CLASSIC)
    text = render(new_game(deal, Rules(open=True)))
    assert "##" not in text
    assert f" {deal.layout_cards[0].token} " in text


def test_scripted_win() -> None:
    script = "\n".join(str(p) for p in PLAY_ORDER) + "\n"
    code, output = run(["--code", chain_code()], script)
    assert code == 0
    assert "You won in 28 moves" in output
    assert "Layout: 0 left" in output


def test_without_wrap_the_king_to_ace_step_is_refused() -> None:
    script = "\n".join(str(p) for p in PLAY_ORDER[:13]) + "\nq\n"
    code, output = run(["--code", chain_code(), "--no-wrap"], script)
    assert code == 0
    assert "Not allowed: AD does not fit on KC" in output
    assert "Bye." in output


def test_commands_draw_undo_restart_and_errors() -> None:
    code, output = run(["--seed", "0"], "d\nu\nu\nr\nzz\n5\n99\nq\n")
    assert code == 0
    assert "rules wrap-closed, seed 0" in output
    assert "Moves: 1" in output and "Moves: 2" in output
    assert "Not allowed: there is nothing to undo" in output
    assert "Not allowed: 'zz' is not a command" in output
    assert "Not allowed: the card at position 5 is face down" in output
    assert "Not allowed: there is no position 99 in this layout" in output


def test_stuck_is_announced_and_resign_ends_the_game() -> None:
    # Seed 10: after drawing the whole stock nothing fits.
    code, output = run(["--seed", "10"], "d\n" * 23 + "x\n")
    assert code == 0
    assert output.count("Stuck: the stock is empty") == 1
    assert "Stock: 0 left" in output
    assert "You resigned: the game is lost." in output


def test_hint_without_the_solver_says_so_or_gives_a_hint() -> None:
    code, output = run(["--seed", "0"], "h\nq\n")
    assert code == 0
    assert "Hints need the solver" in output or "Hint:" in output


def test_end_of_input_quits_cleanly() -> None:
    code, output = run(["--seed", "1", "--open", "--empty-start"], "")
    assert code == 0 and output.rstrip().endswith("Bye.")
    assert "rules wrap-open-empty" in output and "Waste: --" in output


def test_bad_arguments() -> None:
    assert run(["--layout", "no-such-layout"], "")[0] == 2
    assert run(["--code", "AC KD"], "")[0] == 2
    assert main(["--seed", "-1"], stdin=io.StringIO(""), stdout=io.StringIO()) == 2


def test_piped_through_a_real_process() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore"}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from tripeaks.cli.play import main; sys.exit(main(sys.argv[1:]))",
            "--seed",
            "12345",
        ],
        input="d\nq\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "seed 12345" in result.stdout and "Moves: 1" in result.stdout and "Bye." in result.stdout


def test_hint_uses_the_solver_when_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("tripeaks.engine.solver")
    answers: list[object] = [Play(22), Draw(), "draw", None]
    fake.hint = lambda state: answers.pop(0)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tripeaks.engine.solver", fake)
    code, output = run(["--seed", "0"], "h\nh\nh\nh\nq\n")
    assert code == 0
    assert "Hint: play position 22 (JH)." in output
    assert output.count("Hint: draw from the stock.") == 2
    assert "Hint: no win from here." in output
