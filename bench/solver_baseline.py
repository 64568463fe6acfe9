"""The plain baseline solver, the yardstick for `tripeaks.engine.solver`.

A recursive depth-first search that memoizes (removed-cards mask, stock index, waste rank),
tries the free fitting cards in position order and then the draw. Correct and simple on
purpose: it uses the engine's own `Layout.free` and `Rules.fits`, and nothing clever.
"""

from __future__ import annotations

import sys

from tripeaks.engine.deal import Deal
from tripeaks.engine.game import Position
from tripeaks.engine.rules import Rules

# The search goes at most one level deeper per play or draw: layout size + stock size <= 52.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))


def baseline_winnable(deal: Deal, rules: Rules, position: Position | None = None) -> bool:
    """Can the deal be won (from `position`, or from the start)?"""
    layout = deal.layout
    size = layout.size
    full = (1 << size) - 1
    ranks = [card.rank for card in deal.layout_cards]
    stock = [card.rank for card in deal.stock]
    seen: set[tuple[int, int, int | None]] = set()

    def search(removed: int, drawn: int, top: int | None) -> bool:
        if removed == full:
            return True
        key = (removed, drawn, top)
        if key in seen:
            return False
        seen.add(key)
        for p in range(size):
            if (
                not removed >> p & 1
                and layout.free(p, removed)
                and rules.fits(ranks[p], top)
                and search(removed | 1 << p, drawn, ranks[p])
            ):
                return True
        if drawn < len(stock):
            return search(removed, drawn + 1, stock[drawn])
        return False

    if position is None:
        return search(0, 0, None if deal.waste is None else deal.waste.rank)
    top = position.waste_top
    return search(position.removed, position.drawn, None if top is None else top.rank)
