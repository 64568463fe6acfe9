"""Digests that say when two deals are the same cards, or the same game, however they are written.

A custom deal may not copy a deal that still ranks (docs/fair-play.md, "No practice on a ranked
deal"); these digests are what is compared, by an indexed lookup:

- ``bands``: the 52 cards in the order the deal uses (layout positions, waste, stock), whatever
  token spelling the code used, cut into four bands of 13 positions, a digest each (with its band's
  number). Two deals that share a band share 13 cards in 13 places: never by chance (one chance
  in about 10^21 a band), always when one copies the other with a few cards moved (a swap touches
  at most two bands), or unchanged on another layout, start or rule set.
- ``game``: the game itself, whatever layout puts the cards where: for each layout card, the cards
  that lie on it (directly or through others: it is free once they are all gone), then the cards
  off the layout in the order they come (waste, then stock; the start rule only says whether the
  first is turned). Mirroring a layout, swapping identical peaks or using another layout with the
  same covering relation gives the same game, and the same digest.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

from tripeaks.engine.deal import Deal as EngineDeal
from tripeaks.engine.layout import Layout

BANDS = 4
BAND_SIZE = 52 // BANDS


@dataclass(frozen=True, slots=True)
class DealDigests:
    bands: list[str]
    game: str


def digests(deal: EngineDeal) -> DealDigests:
    tokens = [card.token for card in deal.cards]
    bands = [
        f"{band}:{_sha256(' '.join(tokens[band * BAND_SIZE : (band + 1) * BAND_SIZE]))[:16]}"
        for band in range(BANDS)
    ]
    size = deal.layout.size
    lying_on = _lying_on(deal.layout)
    layout_cards = sorted(
        tokens[position] + "<" + ",".join(sorted(tokens[above] for above in lying_on[position]))
        for position in range(size)
    )
    game = ";".join(layout_cards) + "|" + " ".join(tokens[size:])
    return DealDigests(bands=bands, game=_sha256(game))


@lru_cache(maxsize=128)
def _lying_on(layout: Layout) -> tuple[frozenset[int], ...]:
    """Every position above each position: the ones that cover it and, in turn, theirs."""
    above: list[frozenset[int]] = []
    closure: dict[int, frozenset[int]] = {}

    def of(position: int) -> frozenset[int]:
        if position not in closure:
            direct = layout.covered_by[position]
            closure[position] = frozenset(direct).union(*(of(upper) for upper in direct))
        return closure[position]

    for position in range(layout.size):
        above.append(of(position))
    return tuple(above)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
