"""Engine states to and from the JSON kept in the game row (server-side only)."""

from __future__ import annotations

from typing import TypedDict

from tripeaks.engine.cards import Card, parse_card
from tripeaks.engine.deal import Deal
from tripeaks.engine.game import Position, State
from tripeaks.engine.rules import Rules

# A position as stored: [removed, drawn, the waste's top card's token or None].
PositionJSON = list[int | str | None]


class StoredState(TypedDict):
    position: PositionJSON
    history: list[PositionJSON]
    moves: int
    seq: int
    resigned: bool


def _card(token: str | None) -> Card | None:
    return None if token is None else parse_card(token)


def _position_json(position: Position) -> PositionJSON:
    top = position.waste_top
    return [position.removed, position.drawn, None if top is None else top.token]


def _position(data: PositionJSON) -> Position:
    removed, drawn, top = data
    if not isinstance(removed, int) or not isinstance(drawn, int) or isinstance(top, int):
        raise ValueError(f"not a stored position: {data!r}")
    return Position(removed, drawn, _card(top))


def dump_state(state: State) -> StoredState:
    return _dump(state, [_position_json(p) for p in state.history])


def _dump(state: State, history: list[PositionJSON]) -> StoredState:
    return {
        "position": _position_json(state.position),
        "history": history,
        "moves": state.moves,
        "seq": state.seq,
        "resigned": state.resigned,
    }


def dump_next_state(before: StoredState, state: State) -> StoredState:
    """`dump_state(state)` for the state one action after the state `before` was dumped from.

    An action adds the position it left to the history (play, draw), takes the last one back
    (undo), clears it (restart) or leaves it alone, so the history is the one before give or
    take its end: re-encoding all of it, up to a hundred positions, on every move is not needed."""
    old, count = before["history"], len(state.history)
    if count == len(old) + 1:
        return _dump(state, [*old, before["position"]])
    if count <= len(old):
        return _dump(state, old[:count])
    return dump_state(state)


def load_state(data: StoredState, deal: Deal, rules: Rules) -> State:
    return State(
        deal=deal,
        rules=rules,
        position=_position(data["position"]),
        history=tuple(_position(p) for p in data["history"]),
        moves=data["moves"],
        seq=data["seq"],
        resigned=data["resigned"],
    )
