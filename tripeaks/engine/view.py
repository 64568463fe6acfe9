"""What one player may see of a game: the single way a state leaves the server.

`player_view` returns a JSON-ready dict (the play app adds its own fields to it). It shows face-up layout cards, the waste top and counts;
it never shows a face-down card or any stock card not yet drawn (in the open variant every layout
card is face up and shown; the stock stays hidden always). Every layout position is listed, in
position order, so `positions[p]` is position p; a removed position has `removed: true` and no card.
"""

from __future__ import annotations

from typing import TypedDict

from tripeaks.engine.deal import Deal, PerDeal
from tripeaks.engine.game import MAX_POSITIONS, State
from tripeaks.engine.layout import Layout


class PositionView(TypedDict):
    position: int
    card: str | None
    face_up: bool
    free: bool
    removed: bool


class SlotView(TypedDict):
    position: int
    x: int
    y: int
    z: int
    covered_by: list[int]


class LayoutView(TypedDict):
    name: str
    title: str
    size: int
    slots: list[SlotView]


class LayoutOutline(TypedDict):
    name: str
    title: str
    size: int
    slots: list[list[int]]


# Each deal's position views, made once (`PerDeal`): a view lists every position, nearly always one
# of these four, and every socket move builds a view.
_REMOVED, _FACE_DOWN, _COVERED, _FREE = range(4)
# Each position's bit in a `removed` mask, by the layout's size.
_BITS = tuple(tuple(1 << p for p in range(size)) for size in range(MAX_POSITIONS + 2))


def _position_views(deal: Deal) -> tuple[tuple[PositionView, ...], ...]:
    """For each position of `deal`, its view removed, face down, face up but covered, and free."""
    return tuple(
        (
            _position(p, None, face_up=False, free=False, removed=True),
            _position(p, None, face_up=False, free=False, removed=False),
            _position(p, card.token, face_up=True, free=False, removed=False),
            _position(p, card.token, face_up=True, free=True, removed=False),
        )
        for p, card in enumerate(deal.layout_cards)
    )


_position_table = PerDeal(_position_views).get


def _position(
    p: int, card: str | None, *, face_up: bool, free: bool, removed: bool
) -> PositionView:
    return {"position": p, "card": card, "face_up": face_up, "free": free, "removed": removed}


def player_view(state: State, *, paused: bool = False) -> dict[str, object]:
    """The player's view of `state`. `paused` hides the layout cards, the waste and the playable
    positions (the shape of the table and the counts stay); stopping the clock is the server's job.
    The position views may be shared between views: nothing may change one."""
    gone, face_down = state.position.removed, _COVERED if state.rules.open else _FACE_DOWN
    table, layout = _position_table(state.deal), state.deal.layout
    positions = [
        views[_REMOVED] if gone & bit else views[_FREE] if gone & mask == mask else views[face_down]
        for views, bit, mask in zip(table, _BITS[len(table)], layout.cover_masks, strict=True)
    ]
    if paused:
        positions = [{**view, "card": None} for view in positions]
    top = state.waste_top
    return {
        "status": state.status,
        "seq": state.seq,
        "moves": state.moves,
        "rules": state.rules.key,
        "layout": state.deal.layout.name,
        "paused": paused,
        "waste": None if top is None or paused else top.token,
        "waste_count": state.waste_count,
        "stock_left": state.stock_left,
        "cards_left": state.cards_left,
        "positions": positions,
        "playable": [] if paused else list(state.playable()),
        "can_undo": state.can_undo,
    }


def layout_view(layout: Layout) -> LayoutView:
    """The public shape of a layout (no cards): where each position lies and what covers it, for
    drawing the table. Coordinates are in half-card units; a higher z lies on top."""
    return {
        "name": layout.name,
        "title": layout.title,
        "size": layout.size,
        "slots": [
            {
                "position": p,
                "x": slot.x,
                "y": slot.y,
                "z": slot.z,
                "covered_by": list(layout.covered_by[p]),
            }
            for p, slot in enumerate(layout.slots)
        ],
    }


def layout_outline(layout: Layout) -> LayoutOutline:
    """A layout's outline for its thumbnail: each slot as [x, y, z] in position order."""
    return {
        "name": layout.name,
        "title": layout.title,
        "size": layout.size,
        "slots": [[slot.x, slot.y, slot.z] for slot in layout.slots],
    }
