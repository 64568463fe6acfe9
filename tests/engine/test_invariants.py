"""Random legal play (plays, draws, undos, restarts, a resign now and then) never breaks an invariant.

A small model is kept alongside the engine: the waste pile as a list of cards and the stack of
earlier states, so the engine is checked against something it does not compute itself."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks.engine.cards import Card
from tripeaks.engine.deal import from_seed
from tripeaks.engine.game import Draw, Move, Play, Resign, Restart, State, Undo, apply, new_game
from tripeaks.engine.layout import CLASSIC, Layout
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules, Start

STARTS: tuple[Start, ...] = ("waste", "empty")
ALL_RULES = [
    Rules(wrap=w, open=o, start=s) for w in (True, False) for o in (False, True) for s in STARTS
]
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
LAYOUT_LIST = sorted(LAYOUTS.values(), key=lambda layout: layout.name)


def layout_cards_left(state: State) -> list[Card]:
    return [state.card_at(p) for p in range(state.deal.layout.size) if state.in_layout(p)]


def check_invariants(state: State, waste_pile: list[Card]) -> None:
    layout: Layout = state.deal.layout
    removed = state.position.removed
    # 52 cards accounted for, and each exactly once
    stock_left = list(state.deal.stock[state.drawn :])
    assert state.stock_left == len(stock_left)
    assert state.waste_count == len(waste_pile)
    assert state.cards_left + state.waste_count + state.stock_left == 52
    everything = layout_cards_left(state) + waste_pile + stock_left
    assert len(set(everything)) == 52
    assert state.waste_top == (waste_pile[-1] if waste_pile else None)
    # free and face up
    for p in range(layout.size):
        gone = bool(removed >> p & 1)
        covered = any(not removed >> c & 1 for c in layout.covered_by[p])
        assert state.in_layout(p) == (not gone)
        assert state.is_free(p) == (not gone and not covered)
        if state.rules.open:
            assert state.is_face_up(p) == (not gone)
        else:
            assert state.is_face_up(p) == (
                not gone and not covered
            )  # face down exactly when covered
    # playable cards are the free ones that fit
    top = state.waste_top
    expected = tuple(
        p
        for p in range(layout.size)
        if state.is_free(p)
        and state.rules.fits(state.card_at(p).rank, None if top is None else top.rank)
    )
    assert state.playable() == expected
    # status
    if state.cards_left == 0:
        assert state.status == "won"
    elif state.resigned:
        assert state.status == "lost"
    elif state.stock_left == 0 and not expected:
        assert state.status == "stuck"
    else:
        assert state.status == "playing"
    assert len(state.history) <= state.moves


@st.composite
def games(draw: st.DrawFn) -> tuple[Layout, int, Rules]:
    layout = draw(st.sampled_from([CLASSIC, *LAYOUT_LIST]))
    return layout, draw(SEEDS), draw(st.sampled_from(ALL_RULES))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(game=games(), data=st.data())
def test_random_legal_play_keeps_every_invariant(
    game: tuple[Layout, int, Rules], data: st.DataObject
) -> None:
    layout, seed, rules = game
    deal = from_seed(seed, layout, rules.start)
    state = new_game(deal, rules)
    pile: list[Card] = [] if deal.waste is None else [deal.waste]
    earlier: list[tuple[State, list[Card]]] = []
    check_invariants(state, pile)
    steps = data.draw(st.integers(min_value=1, max_value=120), label="steps")
    for _ in range(steps):
        if state.over:
            break
        choices: list[Move] = list(state.legal_moves())
        weights = [6 if isinstance(m, Play) else 3 if isinstance(m, Draw) else 1 for m in choices]
        # favour plays and draws; restart and resign stay rare
        pool = [
            m
            for m, w in zip(choices, weights, strict=True)
            for _ in range(w)
            if not isinstance(m, Resign)
        ]
        move = data.draw(st.sampled_from(pool)) if data.draw(st.integers(0, 60)) else Resign()
        after = apply(state, move)
        assert after.seq == state.seq + 1
        counts = isinstance(move, Play | Draw | Undo)
        assert after.moves == state.moves + (1 if counts else 0)
        match move:
            case Play(p):
                earlier.append((state, list(pile)))
                pile.append(state.card_at(p))
            case Draw():
                earlier.append((state, list(pile)))
                pile.append(state.deal.stock[state.drawn])
            case Undo():
                previous, pile = earlier.pop()
                assert (
                    after.position == previous.position
                )  # undo returns exactly the previous position
                assert after.history == previous.history
            case Restart():
                earlier.clear()
                pile = [] if deal.waste is None else [deal.waste]
                assert after.position == new_game(deal, rules).position
                assert after.history == ()
            case Resign():
                assert after.status == "lost"
        assert len(after.history) == len(earlier)
        state = after
        check_invariants(state, pile)
