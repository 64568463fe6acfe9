"""Deals: the seeded shuffle (SplitMix64 + Fisher-Yates) and deal codes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from tripeaks.engine.cards import SORTED_DECK, Card, CardError, parse_card
from tripeaks.engine.layout import Layout
from tripeaks.engine.rules import Start

MASK64 = (1 << 64) - 1


class DealError(ValueError):
    """A deal code or seed that does not make a deal."""


def splitmix64(seed: int) -> Iterator[int]:
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def shuffled_deck(seed: int) -> tuple[Card, ...]:
    deck = list(SORTED_DECK)
    numbers = splitmix64(seed)
    for i in range(51, 0, -1):
        j = next(numbers) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one deal: `layout_cards[p]` lies at position p; `stock[0]` is drawn first."""

    layout: Layout
    layout_cards: tuple[Card, ...]
    waste: Card | None
    stock: tuple[Card, ...]

    def __post_init__(self) -> None:
        if len(self.layout_cards) != self.layout.size:
            raise DealError(
                f"layout {self.layout.name!r} takes {self.layout.size} cards, not {len(self.layout_cards)}"
            )
        cards = self.cards
        if len(cards) != 52 or len(set(cards)) != 52:
            raise DealError("a deal uses each of the 52 cards exactly once")

    @property
    def start(self) -> Start:
        return "empty" if self.waste is None else "waste"

    @property
    def cards(self) -> tuple[Card, ...]:
        waste = () if self.waste is None else (self.waste,)
        return self.layout_cards + waste + self.stock

    @property
    def code(self) -> str:
        return " ".join(card.token for card in self.cards)


T = TypeVar("T")


class PerDeal(Generic[T]):
    """What `make` works out of a deal, made once a deal and kept: by the deal's id (hashing a
    deal hashes its cards), the deal kept beside it so that a reused id is seen. The parsed deals
    are few and long-lived; past `most` of them, all are forgotten."""

    def __init__(self, make: Callable[[Deal], T], most: int = 4096) -> None:
        self._make = make
        self._most = most
        self._of: dict[int, tuple[Deal, T]] = {}

    def get(self, deal: Deal) -> T:
        found = self._of.get(id(deal))
        if found is not None and found[0] is deal:
            return found[1]
        made = self._make(deal)
        if len(self._of) >= self._most:
            self._of.clear()
        self._of[id(deal)] = (deal, made)
        return made


def deal_from_cards(cards: tuple[Card, ...], layout: Layout, start: Start = "waste") -> Deal:
    size = layout.size
    if start == "waste":
        return Deal(layout, cards[:size], cards[size], cards[size + 1 :])
    return Deal(layout, cards[:size], None, cards[size:])


def from_seed(seed: int, layout: Layout, start: Start = "waste") -> Deal:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise DealError("a seed is a whole number from 0 to 2**64 - 1")
    return deal_from_cards(shuffled_deck(seed), layout, start)


def parse_code(code: str, layout: Layout, start: Start = "waste") -> Deal:
    """Parse 52 space-separated tokens: layout positions in order, the waste card, then the stock."""
    if not isinstance(code, str):
        raise DealError("a deal code is text: 52 card tokens separated by spaces")
    tokens = code.split()
    if len(tokens) != 52:
        raise DealError(f"a deal code has 52 cards separated by spaces; this one has {len(tokens)}")
    parsed: list[Card] = []
    for number, token in enumerate(tokens, start=1):
        try:
            parsed.append(parse_card(token))
        except CardError as error:
            raise DealError(f"card {number} of the deal code: {error}") from None
    cards = tuple(parsed)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DealError(f"{card.token} appears twice in the deal code")
        seen.add(card)
    return deal_from_cards(cards, layout, start)
