"""The game row's state JSON: the short cut taken on every move encodes what the full dump does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks.engine.deal import from_seed
from tripeaks.engine.game import apply, new_game
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.play.state_codec import dump_next_state, dump_state, load_state


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    layout=st.sampled_from(sorted(LAYOUTS)),
    wrap=st.booleans(),
    picks=st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=120),
)
def test_each_actions_dump_is_the_full_dump(
    seed: int, layout: str, wrap: bool, picks: list[int]
) -> None:
    rules = Rules(wrap=wrap)
    deal = from_seed(seed, LAYOUTS[layout])
    state = new_game(deal, rules)
    dumped = dump_state(state)
    for pick in picks:
        moves = state.legal_moves()
        if not moves:
            break
        state = apply(state, moves[pick % len(moves)])  # plays, draws, undos, restarts, resigns
        dumped = dump_next_state(dumped, state)
        assert dumped == dump_state(state)
        assert load_state(dumped, deal, rules) == state
