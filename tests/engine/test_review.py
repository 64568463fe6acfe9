"""Game review: the solver's verdict on every position of a game, the losing move, par."""

from __future__ import annotations

import random

import pytest

from tripeaks.engine.deal import Deal, from_seed
from tripeaks.engine.game import Draw, Move, Play, State, apply, new_game
from tripeaks.engine.layout import CLASSIC
from tripeaks.engine.review import analyse
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import Budget, winnable


def random_game(deal: Deal, rules: Rules, rng: random.Random, play_share: float) -> list[Move]:
    """A game to its end: a random playable card with `play_share`, else a draw."""
    state: State = new_game(deal, rules)
    moves: list[Move] = []
    while state.status == "playing":
        playable = state.playable()
        move: Move
        if playable and (rng.random() < play_share or not state.stock_left):
            move = Play(rng.choice(playable))
        else:
            move = Draw()
        state = apply(state, move)
        moves.append(move)
    return moves


@pytest.mark.parametrize("seed", [0, 3, 70])
def test_each_verdict_is_the_solvers_on_that_position(seed: int) -> None:
    rules = Rules()
    deal = from_seed(seed, CLASSIC)
    moves = random_game(deal, rules, random.Random(seed), 0.8)
    analysis = analyse(deal, rules, moves, budget=Budget())
    state = new_game(deal, rules)
    expected = ["winnable" if winnable(deal, rules, state.position) else "lost"]
    for move in moves:
        state = apply(state, move)
        expected.append("winnable" if winnable(deal, rules, state.position) else "lost")
    assert list(analysis.verdicts) == expected
