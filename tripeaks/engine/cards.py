"""Cards, their tokens ("7H", "TS") and the sorted deck."""

from __future__ import annotations

from dataclasses import dataclass

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    1: "ace",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
}


class CardError(ValueError):
    """A card token that does not name a card."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card. `rank` runs 1 (ace) to 13 (king); `suit` is one of "CDHS"."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        rank_ok = (
            isinstance(self.rank, int) and not isinstance(self.rank, bool) and 1 <= self.rank <= 13
        )
        if (
            not rank_ok
            or not isinstance(self.suit, str)
            or len(self.suit) != 1
            or self.suit not in SUITS
        ):
            raise CardError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")

    @property
    def token(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    @property
    def index(self) -> int:
        """Position in the sorted deck AC AD AH AS 2C ... KS (0-51)."""
        return (self.rank - 1) * 4 + SUITS.index(self.suit)

    @property
    def name(self) -> str:
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.token


def parse_card(token: str) -> Card:
    """Parse a token such as "7H", "ts" or "AC" (ASCII only; surrounding spaces are ignored)."""
    if not isinstance(token, str):
        raise CardError(f"{token!r} is not a card: a card is a text token like 7H or TS")
    text = token.strip()
    if not text.isascii():
        raise CardError(
            f"{token!r} is not a card: use a rank from {RANKS} and a suit from {SUITS}, like 7H or TS"
        )
    text = text.upper()
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise CardError(
            f"{token!r} is not a card: use a rank from {RANKS} and a suit from {SUITS}, like 7H or TS"
        )
    return Card(RANKS.index(text[0]) + 1, text[1])


SORTED_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in SUITS)


def card_from_index(index: int) -> Card:
    return SORTED_DECK[index]
