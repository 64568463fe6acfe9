"""Digests that say when two deals are the same cards, or the same game, however they are written.

A custom deal may not copy a deal that still ranks (docs/fair-play.md, "No practice on a ranked
deal"); these digests are what is compared, by an indexed lookup:

- ``bands``: the 52 cards in the order the deal uses (layout positions, waste, stock), whatever
  token spelling the code used, cut into 13 bands of 4 positions, a digest each (with the band
  scheme and its band's number). A deal copies another when they share `MATCHING_BANDS` (2) bands:
  8 cards in 8 places, never by chance (one chance in about 10^13 for two given deals), always when
  one copies the other with up to 11 positions changed (five swaps: a changed position touches one
  band, so 2 of 13 stay intact), or unchanged on another layout, start or rule set. One shared band
  alone (4 cards) happens by chance among many deals, so it never refuses on its own.
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

BANDS = 13
BAND_SIZE = 52 // BANDS
MATCHING_BANDS = 2
# Names the band scheme in each digest, so that bands cut another way never compare equal.
SCHEME = f"{BANDS}x{BAND_SIZE}"


@dataclass(frozen=True, slots=True)
class DealDigests:
    bands: list[str]
    game: str


def digests(deal: EngineDeal) -> DealDigests:
    tokens = [card.token for card in deal.cards]
    bands = [
        f"{SCHEME}/{band}:{_sha256(' '.join(tokens[band * BAND_SIZE : (band + 1) * BAND_SIZE]))[:12]}"
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


def copies(bands: list[str], game: str, other_bands: list[str], other_game: str) -> bool:
    """Is one deal (its band and game digests) a copy of the other? (See the module's text.)"""
    return game == other_game or len(set(bands) & set(other_bands)) >= MATCHING_BANDS
