"""The immutable game state and `apply(state, move)`, the only way a game changes."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from tripeaks.engine.cards import Card
from tripeaks.engine.deal import Deal
from tripeaks.engine.rules import Rules

Status = Literal["playing", "stuck", "won", "lost"]


class RuleError(ValueError):
    """A move the rules do not allow; the message is meant for the player."""


@dataclass(frozen=True, slots=True)
class Play:
    position: int


@dataclass(frozen=True, slots=True)
class Draw:
    pass


@dataclass(frozen=True, slots=True)
class Undo:
    pass


@dataclass(frozen=True, slots=True)
class Restart:
    pass


@dataclass(frozen=True, slots=True)
class Resign:
    pass


Move = Play | Draw | Undo | Restart | Resign


@dataclass(frozen=True, slots=True)
class Position:
    """Where the cards are: `removed` is a bitmask of cleared layout positions, `drawn` how many
    stock cards have been turned, `waste_top` the card to play on (None only on an empty start)."""

    removed: int
    drawn: int
    waste_top: Card | None


@dataclass(frozen=True, slots=True)
class State:
    """A game: the deal, its rules, the current position and every earlier one (for undo).

    `moves` counts plays, draws and undos; `seq` counts every applied action."""

    deal: Deal
    rules: Rules
    position: Position
    history: tuple[Position, ...] = ()
    moves: int = 0
    seq: int = 0
    resigned: bool = False

    @property
    def removed(self) -> int:
        return self.position.removed

    @property
    def drawn(self) -> int:
        return self.position.drawn

    @property
    def waste_top(self) -> Card | None:
        return self.position.waste_top

    @property
    def stock_left(self) -> int:
        return len(self.deal.stock) - self.position.drawn

    @property
    def cards_left(self) -> int:
        return self.deal.layout.size - self.position.removed.bit_count()

    def in_layout(self, position: int) -> bool:
        return 0 <= position < self.deal.layout.size and not self.position.removed >> position & 1

    def is_free(self, position: int) -> bool:
        return self.in_layout(position) and self.deal.layout.free(position, self.position.removed)

    def is_face_up(self, position: int) -> bool:
        return self.in_layout(position) and (self.rules.open or self.is_free(position))

    def fits(self, position: int) -> bool:
        top = self.position.waste_top
        return self.rules.fits(self.deal.layout_cards[position].rank, None if top is None else top.rank)

    def playable(self) -> tuple[int, ...]:
        """Free layout positions whose card fits the waste, in position order."""
        return tuple(p for p in range(self.deal.layout.size) if self.is_free(p) and self.fits(p))

    @property
    def status(self) -> Status:
        if self.position.removed.bit_count() == self.deal.layout.size:
            return "won"
        if self.resigned:
            return "lost"
        if self.stock_left == 0 and not self.playable():
            return "stuck"
        return "playing"

    @property
    def over(self) -> bool:
        return self.status in ("won", "lost")


def new_game(deal: Deal, rules: Rules) -> State:
    if deal.start != rules.start:
        raise RuleError(f"this deal is dealt for a {deal.start} start, the rules want {rules.start}")
    return State(deal, rules, Position(0, 0, deal.waste))


def apply(state: State, move: Move) -> State:
    """The state after `move`, or RuleError if the rules do not allow it."""
    status = state.status
    if status in ("won", "lost"):
        raise RuleError(f"the game is over ({status})")
    seq = state.seq + 1
    position = state.position
    match move:
        case Play(p):
            _check_play(state, p)
            card = state.deal.layout_cards[p]
            after = Position(position.removed | 1 << p, position.drawn, card)
            return replace(state, position=after, history=(*state.history, position), moves=state.moves + 1, seq=seq)
        case Draw():
            if state.stock_left == 0:
                raise RuleError("the stock is empty")
            after = Position(position.removed, position.drawn + 1, state.deal.stock[position.drawn])
            return replace(state, position=after, history=(*state.history, position), moves=state.moves + 1, seq=seq)
        case Undo():
            if not state.history:
                raise RuleError("there is nothing to undo")
            return replace(state, position=state.history[-1], history=state.history[:-1], moves=state.moves + 1, seq=seq)
        case Restart():
            return replace(state, position=Position(0, 0, state.deal.waste), history=(), seq=seq)
        case Resign():
            return replace(state, resigned=True, seq=seq)
    raise RuleError(f"unknown move {move!r}")


def _check_play(state: State, p: int) -> None:
    if not 0 <= p < state.deal.layout.size:
        raise RuleError(f"there is no position {p} in this layout")
    if not state.in_layout(p):
        raise RuleError(f"position {p} has already been played")
    if not state.is_free(p):
        what = "is face down" if not state.is_face_up(p) else "is still covered"
        raise RuleError(f"the card at position {p} {what}")
    if not state.fits(p):
        card = state.deal.layout_cards[p]
        top = state.position.waste_top
        raise RuleError(f"{card.token} does not fit on {top.token if top else 'the waste'}: it must be one rank above or below")


def replay(deal: Deal, rules: Rules, moves: list[Move]) -> State:
    state = new_game(deal, rules)
    for move in moves:
        state = apply(state, move)
    return state
