"""Engine test helpers: hand-made deals on the classic layout and a tiny three-card layout.

No Django here: the engine tests run with plain `python -m pytest tests/engine`."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tripeaks.engine.cards import SORTED_DECK, parse_card
from tripeaks.engine.deal import Deal
from tripeaks.engine.layout import CLASSIC, Layout, Slot

# Position 0 lies on top of nothing and is covered by positions 1 and 2, the two free cards.
TINY = Layout("tiny", "Tiny", (Slot(1, 0, 0), Slot(0, 1, 1), Slot(2, 1, 1)))

MakeDeal = Callable[..., Deal]


def build_deal(
    layout_tokens: str, waste: str | None, stock_tokens: str = "", layout: Layout = CLASSIC
) -> Deal:
    """A deal with the given layout cards, waste card and first stock cards; every other card goes
    to the end of the stock in sorted order. Layout tokens may be fewer than the layout size: the
    rest of the layout is filled from the unused cards in sorted order."""
    named_layout = [parse_card(t) for t in layout_tokens.split()]
    named_waste = None if waste is None else parse_card(waste)
    named_stock = [parse_card(t) for t in stock_tokens.split()]
    used = set(named_layout) | set(named_stock) | ({named_waste} if named_waste else set())
    spare = [card for card in SORTED_DECK if card not in used]
    fill = layout.size - len(named_layout)
    cards = tuple(named_layout + spare[:fill])
    return Deal(layout, cards, named_waste, tuple(named_stock + spare[fill:]))


@pytest.fixture
def make_deal() -> MakeDeal:
    return build_deal


@pytest.fixture
def tiny() -> Layout:
    return TINY
