"""The exact solver against the plain baseline: its verdicts. Its lines, par and hints:
test_solver_lines.py (one file took 35 s on one worker of a loaded run)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.solver_baseline import baseline_winnable
from tests.engine.solver_cases import (
    QUICK_LAYOUTS,
    RULE_SETS,
    SMALL_LAYOUTS,
    UNWINNABLE_CLASSIC_SEEDS,
    replay,
)
from tripeaks.engine.cards import parse_card
from tripeaks.engine.deal import Deal, from_seed
from tripeaks.engine.game import new_game
from tripeaks.engine.layout import CLASSIC, Layout, Slot
from tripeaks.engine.rules import Rules, Start
from tripeaks.engine.solver import Hint, Solution, hint, par, solve, solve_min_draws, winnable

# --------------------------------------------------------------------------- verdicts


def test_verdicts_on_classic_seeds_match_the_recorded_baseline() -> None:
    lost = tuple(seed for seed in range(200) if not winnable(from_seed(seed, CLASSIC), Rules()))
    assert lost == UNWINNABLE_CLASSIC_SEEDS


@pytest.mark.parametrize("seed", range(12))
def test_verdicts_match_the_baseline_live_on_classic_deals(seed: int) -> None:
    for rules in (Rules(), Rules(start="empty")):
        deal = from_seed(seed, CLASSIC, rules.start)
        assert solve(deal, rules).winnable == baseline_winnable(deal, rules)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    layout=st.sampled_from(SMALL_LAYOUTS),
    rules=st.sampled_from(RULE_SETS),
)
def test_verdicts_match_the_baseline_on_small_layouts(
    seed: int, layout: Layout, rules: Rules
) -> None:
    deal = from_seed(seed, layout, rules.start)
    expected = baseline_winnable(deal, rules)
    assert solve(deal, rules).winnable == expected
    assert solve_min_draws(deal, rules).winnable == expected


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    layout=st.sampled_from(QUICK_LAYOUTS),
    wrap=st.booleans(),
    face_up=st.booleans(),
    start=st.sampled_from(["waste", "empty"]),
)
def test_verdicts_match_the_baseline_and_lines_win_on_registered_layouts(
    seed: int, layout: Layout, wrap: bool, face_up: bool, start: Start
) -> None:
    rules = Rules(wrap=wrap, open=face_up, start=start)
    deal = from_seed(seed, layout, start)
    solution = solve(deal, rules)
    assert solution.winnable == baseline_winnable(deal, rules)
    if solution.winnable:
        assert replay(deal, rules, solution.line).status == "won"
    else:
        assert solution.line == ()


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("layout", SMALL_LAYOUTS[:2])
def test_lost_and_won_verdicts_match_the_baseline_over_300_small_deals(
    layout: Layout, rules: Rules
) -> None:
    lost_by_baseline = [
        s for s in range(300) if not baseline_winnable(from_seed(s, layout, rules.start), rules)
    ]
    lost_by_solver = [
        s for s in range(300) if not winnable(from_seed(s, layout, rules.start), rules)
    ]
    assert lost_by_solver == lost_by_baseline
    assert lost_by_solver  # seed 134 is lost under every rule set on these layouts


def _deal_of(layout: Layout, layout_tokens: str, waste: str, stock_tokens: str) -> Deal:
    return Deal(
        layout,
        tuple(parse_card(t) for t in layout_tokens.split()),
        parse_card(waste),
        tuple(parse_card(t) for t in stock_tokens.split()),
    )


def test_a_deal_whose_sevens_can_never_play_is_lost() -> None:
    # Four sevens lie on top of every six and eight; nothing else can ever put a 6 or 8 on the waste.
    layout = Layout(
        "stack",
        "Stack",
        tuple(Slot(x, 0, 0) for x in (0, 2, 6, 8, 12, 14, 18, 20))
        + tuple(Slot(1 + 6 * i, 1, 1) for i in range(4)),
    )
    # Positions 8..11 (the sevens) each cover two of positions 0..7 (the sixes and eights).
    deal_cards = "6C 8C 6D 8D 6H 8H 6S 8S 7C 7D 7H 7S"
    rest = [c for r in "A2345TJQK9" for c in (r + "C", r + "D", r + "H", r + "S")]
    deal = _deal_of(layout, deal_cards, rest[0], " ".join(rest[1:]))
    assert not baseline_winnable(deal, Rules())
    assert solve(deal, Rules()) == Solution(False, ())
    assert par(deal, Rules()) is None
    assert hint(new_game(deal, Rules())) == Hint(None, False)


@pytest.mark.parametrize("seed", UNWINNABLE_CLASSIC_SEEDS[:3])
def test_unwinnable_classic_deals_give_no_line_par_or_hint(seed: int) -> None:
    deal = from_seed(seed, CLASSIC)
    assert solve(deal, Rules()) == Solution(False, ())
    assert solve_min_draws(deal, Rules()) == Solution(False, ())
    assert par(deal, Rules()) is None
    assert hint(new_game(deal, Rules())) == Hint(None, False)
