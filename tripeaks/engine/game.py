"""The immutable game state and `apply(state, move)`, the only way a game changes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from tripeaks.engine.cards import Card
from tripeaks.engine.deal import Deal, PerDeal
from tripeaks.engine.layout import Layout
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

ACTIONS: tuple[str, ...] = ("play", "draw", "undo", "restart", "resign")
_SIMPLE_MOVES: dict[str, Move] = {
    "draw": Draw(),
    "undo": Undo(),
    "restart": Restart(),
    "resign": Resign(),
}
MAX_POSITIONS = 51


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
    # `status`, worked out once: a move's step, its row and its view each ask for it, and with
    # the stock drawn out each answer looks for a playable card again.
    _status: Status | None = field(default=None, init=False, repr=False, compare=False)

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

    @property
    def waste_count(self) -> int:
        """Cards on the waste pile: the starting card (if any), every draw and every play."""
        start = 0 if self.deal.waste is None else 1
        return start + self.position.drawn + self.position.removed.bit_count()

    @property
    def can_undo(self) -> bool:
        return bool(self.history) and not self.over

    @property
    def fitting_ranks(self) -> tuple[int, ...]:
        """The ranks (1-13) that may go onto the waste now: every rank on an empty waste."""
        top = self.position.waste_top
        return _fitting_ranks(self.rules, None if top is None else top.rank)

    def in_layout(self, position: int) -> bool:
        return 0 <= position < self.deal.layout.size and not self.position.removed >> position & 1

    def is_free(self, position: int) -> bool:
        return self.in_layout(position) and self.deal.layout.free(position, self.position.removed)

    def is_face_up(self, position: int) -> bool:
        return self.in_layout(position) and (self.rules.open or self.is_free(position))

    def card_at(self, position: int) -> Card:
        """The card dealt to `position`, face up or not: for the engine, never for a player's view."""
        return self.deal.layout_cards[position]

    def fits(self, position: int) -> bool:
        top = self.position.waste_top
        return self.rules.fits(
            self.deal.layout_cards[position].rank, None if top is None else top.rank
        )

    def playable(self) -> tuple[int, ...]:
        """Free layout positions whose card fits the waste, in position order. Only the positions
        still in the layout whose card fits (a few) are looked at, by their bits: every move's
        view asks, and a look at each of the layout's positions was most of the view's time."""
        removed, covers = self.position.removed, self.deal.layout.cover_masks
        candidates = _fitting_positions(self.deal, self.fitting_ranks) & ~removed
        found = []
        while candidates:
            lowest = candidates & -candidates
            p = lowest.bit_length() - 1
            if removed & covers[p] == covers[p]:
                found.append(p)
            candidates ^= lowest
        return tuple(found)

    def legal_moves(self) -> tuple[Move, ...]:
        """Every move `apply` accepts now: the playable positions, then draw, undo, restart, resign."""
        if self.over:
            return ()
        moves: list[Move] = [Play(p) for p in self.playable()]
        if self.stock_left:
            moves.append(Draw())
        if self.history:
            moves.append(Undo())
        moves += [Restart(), Resign()]
        return tuple(moves)

    @property
    def status(self) -> Status:
        found = self._status
        if found is None:
            found = self._work_out_status()
            object.__setattr__(self, "_status", found)
        return found

    def _work_out_status(self) -> Status:
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


def _positions_by_rank(deal: Deal) -> tuple[int, ...]:
    """The bitmask of `deal`'s layout positions of each rank (1-13; 0 unused)."""
    by_rank = [0] * 14
    for p, card in enumerate(deal.layout_cards):
        by_rank[card.rank] |= 1 << p
    return tuple(by_rank)


_rank_positions = PerDeal(_positions_by_rank)


def _fitting_positions(deal: Deal, ranks: tuple[int, ...]) -> int:
    """The bitmask of `deal`'s layout positions whose card has one of `ranks`."""
    masks = _rank_positions.get(deal)
    fitting = 0
    for rank in ranks:
        fitting |= masks[rank]
    return fitting


@cache
def _fitting_ranks(rules: Rules, target: int | None) -> tuple[int, ...]:
    return tuple(rank for rank in range(1, 14) if rules.fits(rank, target))


def new_game(deal: Deal, rules: Rules) -> State:
    """The game at the deal: nothing played, nothing drawn, `moves` and `seq` at 0."""
    if deal.start != rules.start:
        raise RuleError(
            f"this deal is dealt for a {deal.start} start, the rules want {rules.start}"
        )
    return State(deal, rules, Position(0, 0, deal.waste))


def apply(state: State, move: Move) -> State:
    """The state after `move`, or RuleError if the rules do not allow it.

    Play, Draw and Undo count as moves. Restart goes back to the deal and clears the undo history;
    it is not a move itself, and the move count keeps counting (it is not reset). Resign ends the
    game as lost. Every applied action, whatever it is, increments `seq` by one. Nothing applies
    once the game is won or lost."""
    status = state.status
    if status in ("won", "lost"):
        raise RuleError(f"the game is over ({status})")
    seq = state.seq + 1
    position = state.position
    # Built field by field, not by `dataclasses.replace` (which checks and copies by name): every
    # socket move comes here.
    deal, rules, history, moves = state.deal, state.rules, state.history, state.moves
    match move:
        case Play(p):
            _check_play(state, p)
            after = Position(position.removed | 1 << p, position.drawn, deal.layout_cards[p])
            return State(deal, rules, after, (*history, position), moves + 1, seq)
        case Draw():
            if state.stock_left == 0:
                raise RuleError("the stock is empty")
            after = Position(position.removed, position.drawn + 1, deal.stock[position.drawn])
            return State(deal, rules, after, (*history, position), moves + 1, seq)
        case Undo():
            if not history:
                raise RuleError("there is nothing to undo")
            return State(deal, rules, history[-1], history[:-1], moves + 1, seq)
        case Restart():
            return State(deal, rules, Position(0, 0, deal.waste), (), moves, seq)
        case Resign():
            return State(deal, rules, position, history, moves, seq, resigned=True)
    raise RuleError(f"unknown move {move!r}")


def _check_play(state: State, p: int) -> None:
    if isinstance(p, bool) or not isinstance(p, int):
        raise RuleError(f"a position is a whole number, not {p!r}")
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
        raise RuleError(
            f"{card.token} does not fit on {top.token if top else 'the waste'}: it must be one rank above or below"
        )


def replay(deal: Deal, rules: Rules, moves: Iterable[Move]) -> State:
    """The game after applying `moves` in order to a new game; RuleError at the first illegal one."""
    state = new_game(deal, rules)
    for move in moves:
        state = apply(state, move)
    return state


def parse_move(data: object, *, layout: Layout | None = None) -> Move:
    """Turn a client's move into a Move, strictly, or raise RuleError with a readable message.

    Accepted: {"action": "play", "position": 12}, {"action": "draw"} (likewise "undo", "restart",
    "resign"), or the bare strings "draw", "undo", "restart", "resign". Action names are lower
    case. A position is an int (a bool is not) from 0 to the layout size - 1 (51 cards at most
    when no layout is given). Other keys, such as the client's "seq", are ignored here; a
    position on any action other than play is refused. Whether the move is legal in the current
    state is for `apply` to say."""
    if isinstance(data, str):
        if data in _SIMPLE_MOVES:
            return _SIMPLE_MOVES[data]
        if data == "play":
            raise RuleError(
                'a play needs a position: send {"action": "play", "position": <number>}'
            )
        raise RuleError(f"unknown action {data[:40]!r}: use one of {', '.join(ACTIONS)}")
    if not isinstance(data, dict) and not isinstance(data, Mapping):  # (a dict: no ABC check)
        raise RuleError(
            'a move is an object such as {"action": "play", "position": 12} or {"action": "draw"}'
        )
    if "action" not in data:
        raise RuleError(f'a move needs an "action": one of {", ".join(ACTIONS)}')
    action = data["action"]
    if not isinstance(action, str) or action not in ACTIONS:
        shown = action[:40] if isinstance(action, str) else action
        raise RuleError(f"unknown action {shown!r}: use one of {', '.join(ACTIONS)}")
    if action != "play":
        if "position" in data:
            raise RuleError(f"{action} takes no position")
        return _SIMPLE_MOVES[action]
    if "position" not in data:
        raise RuleError('a play needs a "position"')
    position = data["position"]
    if isinstance(position, bool) or not isinstance(position, int):
        raise RuleError(f"a position is a whole number, not {type(position).__name__}")
    size = MAX_POSITIONS if layout is None else layout.size
    if not 0 <= position < size:
        raise RuleError(
            f"there is no position {position} in this layout: positions run from 0 to {size - 1}"
        )
    return Play(position)


def move_to_dict(move: Move) -> dict[str, str | int]:
    """The JSON form of a move, the one `parse_move` reads back: {"action": "play", "position": 12}."""
    match move:
        case Play(p):
            return {"action": "play", "position": p}
        case Draw():
            return {"action": "draw"}
        case Undo():
            return {"action": "undo"}
        case Restart():
            return {"action": "restart"}
        case Resign():
            return {"action": "resign"}
    raise RuleError(f"unknown move {move!r}")
