"""The exact solver: can a deal (or any position of a game) still be won, with every card known?

Four questions, all exact (no "draw only when nothing plays" shortcut):

- `solve(deal, rules, position)`: winnable or not, and a winning line (a depth-first search,
  fast on the easy deals that are most deals);
- `solve_min_draws(deal, rules, position)`: a winning line with the fewest draws (a search by
  levels of draws, which is also the fastest way to exhaust a hard deal);
- `par(deal, rules)`: the fewest moves that win the deal (layout size plays + the fewest draws);
- `hint(state)`: the best next move: the first move of a winning line with the fewest draws.

How it is fast (see docs/solver.md): a search state is (removed-cards bitmask, cards drawn,
waste rank), and three facts shrink it.

1. Only the *cards that fit now* matter, not the waste rank itself: the state is keyed by
   `removed | playable << size`, where `playable` is the mask of free layout cards that fit the
   waste top. A state with nothing playable can only draw, so it is never stored: the search
   draws straight on to the next stock card that lets something play.
2. Fewer draws dominate: from (removed, d, playable) a player can reach everything that
   (removed, d', playable) with d' > d reaches, by drawing d' - d more times at the first point the
   other line draws. So the memo keeps, per key, the fewest draws with which the state was found
   lost, and prunes any later visit with as many draws or more. This removes the stock index from
   the state space (the baseline keeps it, and re-searches each state once per stock index).
3. A play that nothing can follow dominates the draw: if a playable card p has no card of a
   neighbouring rank left in the layout, a line that draws here wins as well when it plays p
   first and skips p later (after p it could only have drawn). With as many draws, so it holds for
   the fewest-draws search too: neither search draws from such a state.

Free masks are updated incrementally (playing p can only free the cards p covers) and kept per
removed-set, and the cards that fit a rank are a precomputed bitmask, so a search step is a few
integer operations.

Every search takes an optional `Budget` (a node count, deterministic, and a wall-clock deadline)
and raises `BudgetExceeded` when it runs out: "unknown" is never answered as "lost" or "won".
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from tripeaks.engine.deal import Deal
from tripeaks.engine.game import Draw, Play, Position, RuleError, State
from tripeaks.engine.rules import Rules

__all__ = [
    "Budget",
    "BudgetExceeded",
    "Hint",
    "SharedSearch",
    "Solution",
    "hint",
    "line_tokens",
    "par",
    "solve",
    "solve_min_draws",
    "winnable",
]

# Internal move codes in a line: a layout position (0..size-1) plays it, _DRAW turns the stock.
_DRAW: Final = -1

# The depth-first search recurses once per play or draw: at most 51 + 52 frames deep.
if sys.getrecursionlimit() < 1_000:  # pragma: no cover - CPython's default is 1,000
    sys.setrecursionlimit(1_000)


@dataclass(frozen=True, slots=True)
class Solution:
    """`winnable`: can the position still be won? `line`: a winning line from it (empty if not)."""

    winnable: bool
    line: tuple[Play | Draw, ...] = ()

    @property
    def draws(self) -> int:
        return sum(1 for move in self.line if isinstance(move, Draw))


@dataclass(frozen=True, slots=True)
class Hint:
    """`move`: the best next move (first move of a winning line with the fewest draws), or None
    when the game cannot be won from here (or is already won). `winnable`: can it still be won?"""

    move: Play | Draw | None
    winnable: bool


class BudgetExceeded(Exception):
    """The search ran out of its budget before it knew the answer: the answer is unknown."""

    def __init__(self, budget: Budget) -> None:
        super().__init__(f"the solver's budget ran out after {budget.nodes} nodes")
        self.budget = budget


class Budget:
    """At most `max_nodes` search nodes and `seconds` of wall time (None: no limit) for a search.

    A node is a state expanded, or a removed-set offered a drawn card (about a microsecond each).
    The node limit makes a search's outcome the same on every machine (tests); the deadline guards
    wall time when the machine is busy (its clock starts with the search, and is read once per
    `CLOCK_EVERY` nodes). `nodes` counts what the searches given this budget spent, so a budget
    without limits measures a search. One budget may be shared by several searches in turn.

    `cooperative`: at every clock reading, let the process's other threads run (a search in a
    server's worker thread would otherwise hold the interpreter for 5 ms at a time, and the
    event loop and every other request wait behind it: measured, a 1 ms sleep of another thread
    took 16-31 ms at the median beside two searches, 2 ms with this)."""

    __slots__ = ("cooperative", "deadline", "max_nodes", "nodes", "seconds")

    CLOCK_EVERY: Final = 1024

    def __init__(
        self,
        max_nodes: int | None = None,
        seconds: float | None = None,
        *,
        cooperative: bool = False,
    ) -> None:
        self.max_nodes = max_nodes
        self.seconds = seconds
        self.cooperative = cooperative
        self.nodes = 0
        self.deadline: float | None = None

    @property
    def exhausted(self) -> bool:
        return (self.max_nodes is not None and self.nodes > self.max_nodes) or (
            self.deadline is not None and time.monotonic() > self.deadline
        )

    def _start(self) -> int:
        """Start the clock (once); the nodes a search may spend before it calls `_spend`."""
        if self.seconds is not None and self.deadline is None:
            self.deadline = time.monotonic() + self.seconds
        if self.exhausted:
            raise BudgetExceeded(self)
        return self._room()

    def _room(self) -> int:
        room = self.CLOCK_EVERY if self.deadline is not None or self.cooperative else 1 << 62
        if self.max_nodes is not None:
            room = min(room, self.max_nodes - self.nodes + 1)
        return max(room, 1)

    def _spend(self, nodes: int) -> int:
        """Charge `nodes`; raise BudgetExceeded when the budget is gone, else the next room."""
        self.nodes += nodes
        if self.exhausted:
            raise BudgetExceeded(self)
        if self.cooperative:
            time.sleep(0)  # releases the interpreter: a waiting thread takes it
        return self._room()


class _Tables:
    """Everything the searches need about one deal under one rule set, as ints and lists."""

    __slots__ = (
        "fitmask",
        "free0",
        "full",
        "ranks",
        "removed0",
        "size",
        "stock",
        "top0",
        "unc",
        "drawn0",
    )

    def __init__(self, deal: Deal, rules: Rules, position: Position | None) -> None:
        layout = deal.layout
        size = layout.size
        self.size = size
        self.full = (1 << size) - 1
        self.ranks = [card.rank for card in deal.layout_cards]
        self.stock = [card.rank for card in deal.stock]
        by_rank = [0] * 15
        for p, rank in enumerate(self.ranks):
            by_rank[rank] |= 1 << p
        # fitmask[t]: the layout positions whose card fits a waste top of rank t (0: empty waste).
        fitmask = [self.full] + [by_rank[t - 1] | by_rank[t + 1] for t in range(1, 14)]
        if rules.wrap:
            fitmask[1] |= by_rank[13]
            fitmask[13] |= by_rank[1]
        self.fitmask = fitmask
        cover_masks = [sum(1 << c for c in layout.covered_by[p]) for p in range(size)]
        # unc[p]: the cards p covers, each with the mask of all its coverers (free once all gone).
        self.unc = [tuple((1 << q, cover_masks[q]) for q in layout.covers[p]) for p in range(size)]

        if position is None:
            if deal.start != rules.start:
                raise RuleError(
                    f"this deal is dealt for a {deal.start} start, the rules want {rules.start}"
                )
            removed, drawn, top_card = 0, 0, deal.waste
        else:
            removed, drawn, top_card = position.removed, position.drawn, position.waste_top
            if removed < 0 or removed > self.full:
                raise RuleError(
                    f"the removed-cards mask {removed} does not fit a layout of {size} cards"
                )
            if not 0 <= drawn <= len(self.stock):
                raise RuleError(f"{drawn} cards drawn, but the stock has {len(self.stock)}")
            for p in range(size):
                if removed >> p & 1 and cover_masks[p] & ~removed:
                    raise RuleError(f"position {p} is removed while a card covering it is not")
        self.removed0 = removed
        self.drawn0 = drawn
        self.top0 = 0 if top_card is None else top_card.rank
        self.free0 = sum(
            1 << p for p in range(size) if not removed >> p & 1 and not cover_masks[p] & ~removed
        )


class _Memo:
    """What depth-first searches of one deal (same layout, stock and rules) learn and may share:
    the fewest draws with which each state key is known lost, and each removed-set's free mask.
    Both are facts about the deal, whatever position a search starts from: a state is stored as
    lost only once its whole search failed (never because of a state still on the path)."""

    __slots__ = ("free_of", "lost")

    def __init__(self) -> None:
        self.lost: dict[int, int] = {}
        self.free_of: dict[int, int] = {}


def _dfs(tab: _Tables, budget: Budget | None = None, memo: _Memo | None = None) -> list[int] | None:
    """A winning line (internal codes) by depth-first search, or None if there is none.

    `budget`: raises BudgetExceeded when it runs out (each call of the search is a node).
    `memo`: shared with earlier searches of the same deal (default: a fresh one)."""
    size = tab.size
    full = tab.full
    stock = tab.stock
    n_stock = len(stock)
    fitmask = tab.fitmask
    unc = tab.unc
    fit_of = [fitmask[rank] for rank in tab.ranks]  # the cards that fit layout card p once played
    stock_fit = [fitmask[rank] for rank in stock]  # the cards that fit stock card d once drawn
    if memo is None:
        memo = _Memo()
    lost = memo.lost  # state key -> fewest draws with which it is known lost
    lost_get = lost.get
    never = n_stock + 1  # more draws than any state has: "not known lost"
    # The free mask of each removed-set met, worked out once: a set is reached by many orders.
    free_of = memo.free_of
    free_get = free_of.get
    line: list[int] = []  # built backwards as the search returns
    if budget is None:
        budget = Budget()
    # Nodes left before the budget is asked again, out of a chunk of this many.
    room = chunk = budget._start()

    def search(removed: int, free: int, drawn: int, playable: int) -> bool:
        nonlocal room, chunk
        room -= 1
        if not room:
            spent, chunk = chunk, 0
            room = chunk = budget._spend(spent)
        dead_end = False
        c = playable
        # Plays, bottom positions first (they tend to uncover cards).
        while c:
            p = c.bit_length() - 1
            bit = 1 << p
            c ^= bit
            after = removed | bit
            if after == full:
                line.append(p)
                return True
            free2 = free_get(after)
            if free2 is None:
                free2 = free ^ bit
                for qbit, qcover in unc[p]:
                    if not qcover & ~after:
                        free2 |= qbit
                free_of[after] = free2
            fits = free2 & fit_of[p]
            if fits:
                if lost_get(after | fits << size, never) > drawn and search(
                    after, free2, drawn, fits
                ):
                    line.append(p)
                    return True
            else:
                if not fit_of[p] & ~removed:
                    dead_end = True
                # Nothing fits the new top: the only move is to draw, until something fits.
                d = drawn
                while d < n_stock:
                    fits = free2 & stock_fit[d]
                    d += 1
                    if fits:
                        if lost_get(after | fits << size, never) > d and search(
                            after, free2, d, fits
                        ):
                            line.extend([_DRAW] * (d - drawn))
                            line.append(p)
                            return True
                        break
        # The draw (again skipping straight past stock cards that let nothing play).
        d = n_stock if dead_end else drawn
        while d < n_stock:
            fits = free & stock_fit[d]
            d += 1
            if fits:
                if lost_get(removed | fits << size, never) > d and search(removed, free, d, fits):
                    line.extend([_DRAW] * (d - drawn))
                    return True
                break
        # Stored without comparing: the caller searched this state because it was not known lost
        # with `drawn` draws or fewer, and the search below it only met it with more draws.
        lost[removed | playable << size] = drawn
        return False

    if tab.removed0 == full:
        return []
    playable0 = tab.free0 & fitmask[tab.top0]
    if lost_get(tab.removed0 | playable0 << size, never) <= tab.drawn0:
        return None  # an earlier search sharing the memo proved it lost
    try:
        found = search(tab.removed0, tab.free0, tab.drawn0, playable0)
    finally:
        budget.nodes += chunk - room
    if found:
        line.reverse()
        return line
    return None


def _bfs(tab: _Tables, budget: Budget | None = None) -> list[int] | None:
    """A winning line with the fewest draws (internal codes), or None if there is none.

    Level by level of draws: all states reachable with k draws before any with k + 1. A state
    found at an earlier level dominates the same key at a later one, so each key is expanded once.
    `budget`: raises BudgetExceeded when it runs out (a node: a state expanded, or a removed-set
    offered a drawn card; the offers of a level are charged before they are made).
    """

    size = tab.size
    full = tab.full
    ranks = tab.ranks
    stock = tab.stock
    n_stock = len(stock)
    fitmask = tab.fitmask
    unc = tab.unc
    removed0, free0, top0 = tab.removed0, tab.free0, tab.top0
    if removed0 == full:
        return []

    # How each stored state (key: removed | playable << size) was first reached: the key of the
    # state it was played from (the card played is the difference of the removed-sets), ~removed
    # (a negative number) when reached by drawing onto `removed`, or its own key for the start.
    came: dict[int, int] = {}
    came_get = came.get
    # Every removed-set seen so far, its free mask, and the state and level where it first appeared.
    free_of: dict[int, int] = {removed0: free0}
    free_get = free_of.get
    first: dict[int, tuple[int, int]] = {removed0: (-1, 0)}
    order = [removed0]
    order_free = [free0]  # zeroed for a set whose draws are dominated: it is offered nothing
    slot = {removed0: 0}  # where each set is in `order`
    # offered[t]: the sets order[:offered[t]] have already been offered a draw of rank t.
    offered = [0] * 14
    level = 0
    seed_level: dict[int, int] = {}
    stack: list[tuple[int, int, int]] = []  # (removed, free, playable)

    fits0 = free0 & fitmask[top0]
    if fits0:
        key0 = removed0 | fits0 << size
        came[key0] = key0
        stack.append((removed0, free0, fits0))

    def path_to(key: int) -> list[int]:
        moves: list[int] = []
        while True:
            parent = came[key]
            if parent == key:
                break
            if parent >= 0:
                moves.append(((key ^ parent) & full).bit_length() - 1)
                key = parent
                continue
            # Reached by drawing onto a removed-set: draws back to where that set first appeared.
            removed = ~parent
            via, at_level = first[removed]
            moves.extend([_DRAW] * (seed_level[key] - at_level))
            if via == -1:
                break
            moves.append(((removed ^ via) & full).bit_length() - 1)
            key = via
        moves.reverse()
        return moves

    if budget is None:
        budget = Budget()
    room = chunk = budget._start()
    try:
        drawn = tab.drawn0
        while True:
            while stack:
                room -= 1
                if not room:
                    spent, chunk = chunk, 0
                    room = chunk = budget._spend(spent)
                removed, free, c = stack.pop()
                key = removed | c << size
                while c:
                    bit = c & -c
                    c ^= bit
                    after = removed | bit
                    if after == full:
                        return [*path_to(key), bit.bit_length() - 1]
                    p = bit.bit_length() - 1
                    free2 = free_get(after)
                    if free2 is None:
                        free2 = free ^ bit
                        for qbit, qcover in unc[p]:
                            if not qcover & ~after:
                                free2 |= qbit
                        free_of[after] = free2
                        first[after] = (key, level)
                        slot[after] = len(order)
                        order.append(after)
                        order_free.append(free2)
                    fit_p = fitmask[ranks[p]]
                    fits = free2 & fit_p
                    if fits:
                        key2 = after | fits << size
                        if came_get(key2) is None:
                            came[key2] = key
                            stack.append((after, free2, fits))
                    elif not fit_p & ~removed:
                        # Nothing left can follow p: drawing after p, as early, dominates
                        # drawing here (docs/solver.md), with as many draws.
                        order_free[slot[removed]] = 0
            if drawn == n_stock:
                return None
            rank = stock[drawn]
            drawn += 1
            level += 1
            fit_rank = fitmask[rank]
            end = len(order)
            begin = offered[rank]
            spent, room, chunk = chunk - room + end - begin, 0, 0
            room = chunk = budget._spend(spent)
            for removed, free in zip(order[begin:end], order_free[begin:end], strict=True):
                fits = free & fit_rank
                if fits:
                    key = removed | fits << size
                    if came_get(key) is None:
                        came[key] = ~removed
                        seed_level[key] = level
                        stack.append((removed, free, fits))
            offered[rank] = end

    finally:
        budget.nodes += chunk - room


def _moves(codes: Iterable[int]) -> tuple[Play | Draw, ...]:
    return tuple(Draw() if code == _DRAW else Play(code) for code in codes)


def solve(
    deal: Deal, rules: Rules, position: Position | None = None, *, budget: Budget | None = None
) -> Solution:
    """Can the deal be won from `position` (default: the deal's start)? With a winning line.
    Raises BudgetExceeded when `budget` runs out first."""
    codes = _dfs(_Tables(deal, rules, position), budget=budget)
    return Solution(False) if codes is None else Solution(True, _moves(codes))


def winnable(
    deal: Deal, rules: Rules, position: Position | None = None, *, budget: Budget | None = None
) -> bool:
    return _dfs(_Tables(deal, rules, position), budget=budget) is not None


class SharedSearch:
    """Depth-first searches of one deal from many of its positions (a game's, in turn), sharing
    what each learns: a state proved lost stays lost for the next search, so the positions of
    one game cost little more than the hardest of them. Answers are those of `solve`.

    `max_draws`: only lines that end with at most this many cards drawn in all count as wins
    (the stock cut to its first `max_draws` cards): "can it still be won within par?"."""

    __slots__ = ("_deal", "_max_draws", "_memo", "_rules")

    def __init__(self, deal: Deal, rules: Rules, *, max_draws: int | None = None) -> None:
        self._deal = deal
        self._rules = rules
        self._max_draws = max_draws
        self._memo = _Memo()

    def solve(self, position: Position, *, budget: Budget | None = None) -> Solution:
        """As `solve(deal, rules, position)`; raises BudgetExceeded when `budget` runs out."""
        tab = _Tables(self._deal, self._rules, position)
        if self._max_draws is not None:
            if position.drawn > self._max_draws:
                return Solution(False)
            tab.stock = tab.stock[: self._max_draws]
        codes = _dfs(tab, budget=budget, memo=self._memo)
        return Solution(False) if codes is None else Solution(True, _moves(codes))

    def within(self, max_draws: int) -> SharedSearch:
        """A search of the same deal that counts only wins with at most `max_draws` cards drawn,
        starting from what this one learned (a state lost with more of the stock is lost with
        less; not the other way, so what it learns stays its own)."""
        if self._max_draws is not None and max_draws > self._max_draws:
            raise ValueError("a search within a draw limit cannot widen it")
        search = SharedSearch(self._deal, self._rules, max_draws=max_draws)
        search._memo.lost = dict(self._memo.lost)
        search._memo.free_of = self._memo.free_of  # free masks do not depend on the stock
        return search


def solve_min_draws(
    deal: Deal, rules: Rules, position: Position | None = None, *, budget: Budget | None = None
) -> Solution:
    """Like `solve`, but the line uses the fewest draws of any winning line (so the fewest moves)."""
    codes = _bfs(_Tables(deal, rules, position), budget)
    return Solution(False) if codes is None else Solution(True, _moves(codes))


def par(deal: Deal, rules: Rules, *, budget: Budget | None = None) -> int | None:
    """The fewest moves that win the deal: every layout card plus the fewest draws; None if lost."""
    codes = _bfs(_Tables(deal, rules, None), budget)
    return None if codes is None else len(codes)


def hint(state: State, *, budget: Budget | None = None) -> Hint:
    """The best next move from the game's current position, or None if it cannot be won.
    Raises BudgetExceeded when `budget` runs out first: then nobody knows."""
    status = state.status
    if status == "won":
        return Hint(None, True)
    if status == "lost":
        return Hint(None, False)
    codes = _bfs(_Tables(state.deal, state.rules, state.position), budget)
    if not codes:
        return Hint(None, codes is not None)
    return Hint(Draw() if codes[0] == _DRAW else Play(codes[0]), True)


def line_tokens(line: Sequence[Play | Draw]) -> list[int | str]:
    """A line as JSON-friendly tokens: an int plays that position, "draw" turns the stock."""
    return [move.position if isinstance(move, Play) else "draw" for move in line]
