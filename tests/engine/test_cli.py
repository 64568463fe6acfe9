"""`python -m tripeaks deal|solve|stats|bench|play`, run as a user would, in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tripeaks.engine.deal import from_seed, parse_code
from tripeaks.engine.game import Draw, Play, apply, new_game
from tripeaks.engine.layout import CLASSIC
from tripeaks.engine.rules import Rules

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tripeaks", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_deal_prints_the_code_of_the_seeded_deal() -> None:
    done = run("deal", "--seed", "42")
    assert done.returncode == 0, done.stderr
    code = done.stdout.strip()
    assert len(code.split()) == 52
    assert code == from_seed(42, CLASSIC).code
    assert parse_code(code, CLASSIC) == from_seed(42, CLASSIC)


def test_deal_with_an_empty_start_and_bad_options() -> None:
    done = run("deal", "--seed", "42", "--start", "empty")
    assert done.returncode == 0
    assert done.stdout.strip() == from_seed(42, CLASSIC, "empty").code
    assert run("deal").returncode == 2  # --seed is required
    assert run("deal", "--seed", "-1").returncode == 2
    assert run("deal", "--seed", "x").returncode == 2
    unknown = run("deal", "--seed", "1", "--layout", "no-such-layout")
    assert unknown.returncode == 2
    assert "no-such-layout" in unknown.stderr


def test_solve_prints_one_json_line_per_input_line_and_goes_on_after_bad_lines() -> None:
    won = from_seed(1, CLASSIC).code
    lost = from_seed(70, CLASSIC).code  # unwinnable (checked against the baseline in test_solver)
    duplicate = " ".join([won.split()[0]] * 52)
    stdin = "\n".join([won, "AC 2C", lost, "", duplicate, won.lower()]) + "\n"
    done = run("solve", stdin=stdin)
    assert done.returncode == 1  # some lines were bad
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 6
    assert out[0]["winnable"] is True
    assert "52 cards" in out[1]["error"]
    assert out[2] == {"winnable": False, "line": []}
    assert "error" in out[3]
    assert "twice" in out[4]["error"]
    assert out[5] == out[0]
    state = new_game(from_seed(1, CLASSIC), Rules())
    for token in out[0]["line"]:
        state = apply(state, Draw() if token == "draw" else Play(token))
    assert state.status == "won"


def test_solve_without_wrap_and_with_the_fewest_draws() -> None:
    code = from_seed(5, CLASSIC).code
    plain = run("solve", "--no-wrap", stdin=code + "\n")
    fewest = run("solve", "--no-wrap", "--fewest-draws", stdin=code + "\n")
    assert plain.returncode == fewest.returncode == 0
    a, b = json.loads(plain.stdout), json.loads(fewest.stdout)
    assert a["winnable"] == b["winnable"]
    rules = Rules(wrap=False)
    for result in (a, b):
        state = new_game(from_seed(5, CLASSIC), rules)
        for token in result["line"]:
            state = apply(state, Draw() if token == "draw" else Play(token))
        assert (state.status == "won") == result["winnable"]
    assert b["line"].count("draw") <= a["line"].count("draw")


def test_stats_reports_the_share_with_a_wilson_interval() -> None:
    done = run("stats", "--deals", "80", "--seed-base", "40", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["deals"] == 80
    assert report["unwinnable_seeds"] == [70, 76, 112]  # the unwinnable seeds in 40..119
    assert report["winnable"] == 77
    low, high = report["ci95"]
    assert low < 77 / 80 < high <= 1
    assert abs(low - 0.89545) < 1e-4  # Wilson 95% for 77/80: 0.89545-0.98717
    assert abs(high - 0.98717) < 1e-4
    human = run("stats", "--deals", "30", "--jobs", "2")
    assert human.returncode == 0
    assert "30 of 30 deals winnable" in human.stdout
    assert "95% CI" in human.stdout
    assert run("stats", "--deals", "0").returncode == 2


def test_unknown_commands_and_help() -> None:
    assert run().returncode == 2
    assert run("frobnicate").returncode == 2
    top = run("--help")
    assert top.returncode == 0
    assert "solve" in top.stdout and "stats" in top.stdout
    assert run("solve", "--help").returncode == 0


def test_play_is_dispatched_to_the_terminal_ui() -> None:
    done = run("play", "--help")
    if (ROOT / "tripeaks" / "cli" / "play.py").is_file():
        assert done.returncode == 0
    else:
        assert done.returncode == 2
        assert "not available" in done.stderr
