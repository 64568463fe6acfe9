from __future__ import annotations

import math

import pytest

from tripeaks.engine.cards import SORTED_DECK, parse_card
from tripeaks.engine.deal import Deal, from_seed
from tripeaks.engine.game import Draw, Play, Resign, Restart, State, Undo, apply, new_game
from tripeaks.engine.layout import CLASSIC, Layout, Slot
from tripeaks.engine.rules import Rules
from tripeaks.engine.scoring import Score, longest_streak, score, score_breakdown

TINY = Layout("tiny", "Tiny", (Slot(1, 0, 0), Slot(0, 1, 1), Slot(2, 1, 1)))


def tiny_win_deal() -> Deal:
    layout = tuple(parse_card(t) for t in ("2C", "4C", "3C"))
    waste = parse_card("5D")
    stock = tuple(card for card in SORTED_DECK if card not in layout and card != waste)
    return Deal(TINY, layout, waste, stock)


def won_state() -> State:
    state = new_game(tiny_win_deal(), Rules())
    for move in (Draw(), Undo(), Play(1), Play(2), Play(0)):
        state = apply(state, move)
    assert state.status == "won"
    return state


def test_ten_points_a_card_while_playing_and_nothing_for_draws() -> None:
    state = new_game(from_seed(0, CLASSIC), Rules())
    assert score(state, 0) == 0
    state = apply(state, Draw())
    assert score(state, 10) == 0
    p = state.playable()[0] if state.playable() else None
    if p is None:
        state = apply(state, Undo())
        p = state.playable()[0]
    state = apply(state, Play(p))
    assert score(state, 10_000) == 10  # time only matters for the win bonus
    assert score_breakdown(state, 3) == Score(cards=10, stock=0, win_bonus=0)


def test_undo_and_restart_take_the_points_back() -> None:
    state = new_game(tiny_win_deal(), Rules())
    state = apply(state, Play(1))
    assert score(state, 1) == 10
    assert score(apply(state, Undo()), 1) == 0
    state = apply(state, Play(2))
    assert score(state, 1) == 20
    assert score(apply(state, Restart()), 1) == 0


def test_win_adds_stock_cards_and_the_win_bonus() -> None:
    state = won_state()
    assert state.moves == 5 and state.stock_left == 48
    # 3 cards, 48 stock cards, bonus 500 - 2*5 - 30/2 = 475
    assert score_breakdown(state, 30) == Score(cards=30, stock=480, win_bonus=475)
    assert score(state, 30) == 985
    assert score(state, 31) == 984  # 474.5 rounds down
    assert score(state, 0) == 30 + 480 + 490


def test_win_bonus_is_never_below_zero() -> None:
    state = won_state()
    assert score_breakdown(state, 10_000).win_bonus == 0
    assert score(state, 10_000) == 510


def test_a_lost_game_keeps_its_card_points_only() -> None:
    state = apply(apply(new_game(tiny_win_deal(), Rules()), Play(1)), Resign())
    assert score_breakdown(state, 5) == Score(cards=10, stock=0, win_bonus=0)


@pytest.mark.parametrize("elapsed", [-1.0, math.nan, math.inf])
def test_bad_elapsed_time_is_refused(elapsed: float) -> None:
    with pytest.raises(ValueError, match="elapsed"):
        score(new_game(from_seed(0, CLASSIC), Rules()), elapsed)


def test_longest_streak_counts_plays_between_draws_along_the_current_line() -> None:
    assert longest_streak(new_game(tiny_win_deal(), Rules())) == 0
    assert longest_streak(won_state()) == 3
    state = new_game(tiny_win_deal(), Rules())
    state = apply(apply(state, Play(1)), Draw())
    assert longest_streak(state) == 1
    state = apply(state, Undo())
    state = apply(state, Play(2))
    assert longest_streak(state) == 2
