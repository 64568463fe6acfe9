"""The player's view never carries a face-down card or an undrawn stock card."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks.engine.deal import from_seed
from tripeaks.engine.game import Draw, Play, Resign, State, apply, new_game
from tripeaks.engine.layout import CLASSIC, Layout
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules, Start
from tripeaks.engine.view import layout_view, player_view

STARTS: tuple[Start, ...] = ("waste", "empty")
ALL_RULES = [
    Rules(wrap=w, open=o, start=s) for w in (True, False) for o in (False, True) for s in STARTS
]
KEYS = {
    "status",
    "seq",
    "moves",
    "rules",
    "layout",
    "paused",
    "waste",
    "waste_count",
    "stock_left",
    "cards_left",
    "positions",
    "playable",
    "can_undo",
}


def hidden_tokens(state: State) -> set[str]:
    face_down = {
        state.card_at(p).token
        for p in range(state.deal.layout.size)
        if state.in_layout(p) and not state.is_face_up(p)
    }
    undrawn = {card.token for card in state.deal.stock[state.drawn :]}
    return face_down | undrawn


def shown_tokens(payload: str) -> set[str]:
    every = {f"{r}{s}" for r in "A23456789TJQK" for s in "CDHS"}
    return {token for token in every if f'"{token}"' in payload}


def assert_view_is_honest(state: State) -> None:
    view = player_view(state)
    payload = json.dumps(view)
    shown = shown_tokens(payload)
    assert not shown & hidden_tokens(state)
    visible = {state.card_at(p).token for p in range(state.deal.layout.size) if state.is_face_up(p)}
    if state.waste_top is not None:
        visible.add(state.waste_top.token)
    assert shown == visible
    if state.rules.open:
        assert {
            state.card_at(p).token for p in range(state.deal.layout.size) if state.in_layout(p)
        } <= shown
    paused = json.dumps(player_view(state, paused=True))
    assert shown_tokens(paused) == set()


def test_view_of_a_new_classic_game() -> None:
    deal = from_seed(0, CLASSIC)
    state = new_game(deal, Rules())
    view = player_view(state)
    assert set(view) == KEYS
    assert view["status"] == "playing" and view["seq"] == 0 and view["moves"] == 0
    assert (
        view["rules"] == "wrap-closed" and view["layout"] == "classic" and view["paused"] is False
    )
    assert deal.waste is not None and view["waste"] == deal.waste.token
    assert (view["waste_count"], view["stock_left"], view["cards_left"]) == (1, 23, 28)
    assert view["can_undo"] is False
    assert view["playable"] == list(state.playable())
    positions = view["positions"]
    assert [entry["position"] for entry in positions] == list(range(28))
    for p, entry in enumerate(positions):
        assert set(entry) == {"position", "card", "face_up", "free", "removed"}
        if p < 18:
            assert entry == {
                "position": p,
                "card": None,
                "face_up": False,
                "free": False,
                "removed": False,
            }
        else:
            assert entry == {
                "position": p,
                "card": deal.layout_cards[p].token,
                "face_up": True,
                "free": True,
                "removed": False,
            }
    json.dumps(view)  # JSON-ready


def test_removed_positions_stay_listed_without_a_card() -> None:
    state = new_game(from_seed(0, CLASSIC), Rules())
    p = state.playable()[0]
    state = apply(state, Play(p))
    entry = player_view(state)["positions"][p]
    assert entry == {"position": p, "card": None, "face_up": False, "free": False, "removed": True}
    assert player_view(state)["can_undo"] is True


def test_open_variant_shows_the_layout_but_never_the_stock() -> None:
    deal = from_seed(11, CLASSIC)
    state = new_game(deal, Rules(open=True))
    view = player_view(state)
    assert [entry["card"] for entry in view["positions"]] == [
        card.token for card in deal.layout_cards
    ]
    payload = json.dumps(view)
    assert not any(f'"{card.token}"' in payload for card in deal.stock)
    state = apply(state, Draw())
    assert f'"{deal.stock[0].token}"' in json.dumps(player_view(state))
    assert not any(f'"{card.token}"' in json.dumps(player_view(state)) for card in deal.stock[1:])


def test_paused_view_hides_the_cards_and_the_waste_but_keeps_the_counts() -> None:
    state = new_game(from_seed(0, CLASSIC, start="waste"), Rules(open=True))
    view = player_view(state, paused=True)
    assert view["paused"] is True and view["waste"] is None and view["playable"] == []
    assert all(entry["card"] is None for entry in view["positions"])
    assert (view["waste_count"], view["stock_left"], view["cards_left"]) == (1, 23, 28)


def test_view_of_an_empty_start_and_of_a_lost_game() -> None:
    state = new_game(from_seed(0, CLASSIC, start="empty"), Rules(start="empty"))
    view = player_view(state)
    assert view["waste"] is None and view["waste_count"] == 0 and view["stock_left"] == 24
    assert view["rules"] == "wrap-closed-empty"
    lost = player_view(apply(state, Resign()))
    assert lost["status"] == "lost" and lost["can_undo"] is False


def test_layout_view_is_the_public_shape() -> None:
    view = layout_view(CLASSIC)
    assert view["name"] == "classic" and view["size"] == 28
    assert view["slots"][0]["covered_by"] == [3, 4]
    assert view["slots"][27]["covered_by"] == []
    json.dumps(view)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    layout=st.sampled_from(sorted(LAYOUTS.values(), key=lambda layout: layout.name)),
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    rules=st.sampled_from(ALL_RULES),
    data=st.data(),
)
def test_no_view_ever_shows_a_face_down_or_undrawn_card(
    layout: Layout, seed: int, rules: Rules, data: st.DataObject
) -> None:
    state = new_game(from_seed(seed, layout, rules.start), rules)
    assert_view_is_honest(state)
    for _ in range(data.draw(st.integers(min_value=1, max_value=80), label="steps")):
        moves = [m for m in state.legal_moves() if not isinstance(m, Resign)]
        if not moves:
            break
        state = apply(state, data.draw(st.sampled_from(moves)))
        assert_view_is_honest(state)
