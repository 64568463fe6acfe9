"""Game review: the exact solver's verdict on every position of a finished game, the move that
lost a winnable deal, a winning line from before it, par and how far a won game was over it.

Positions follow the game as it was played (docs/solver.md, "Game review"): position 0 is the
deal, position i the position after the game's i-th engine move. A play or a draw moves forward;
an undo goes back to the position before the move it takes back, a restart back to the deal, and
a resign leaves the position as it was: each of those positions gets its own verdict again (the
same as when it was first met, since a verdict belongs to a position, not to how it was reached).
So a winnable position can follow a lost one (the player took the losing move back), and
`losing_move` names the first move that turned a winnable position into a lost one, even if it
was later undone. Only a play or a draw can do that: an undo returns to a position from
which the game reached the current one, a restart to the deal, and whatever reaches a winnable
position is winnable.

How it is cheap (one game costs little more than its hardest position):

- A won game proves itself: every position from which the game went on to the win by plays and
  draws is winnable, its line the rest of the game (no search at all for a won game without undo).
- A position reached by playing the first move of a known winning line is winnable (the rest of
  the line); a position reached from a lost one by a play or a draw is lost (nothing is gained by
  moving on). Only where the played move left the known line is a position searched.
- The searches of one game share what they learn (`solver.SharedSearch`): a state proved lost
  in one search is not searched again in the next.
- Par: one fewest-draws search from the deal, or, with the deal's par known, a depth-first
  search on the stock cut to par's draws (several times cheaper). Where a won game first left
  every par line is a question with a monotone answer along the game ("can it still finish in
  par?"), asked only where the game left the known par line, by searches on that cut stock.

Every search draws on the one `budget` (a node budget: the same answers on every machine). A
position whose search ran out of it is "unknown", never a guess; par, `over_par` and `shorter_from`
are None when their searches ran out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from tripeaks.engine.deal import Deal
from tripeaks.engine.game import Draw, Move, Play, Position, new_game
from tripeaks.engine.game import apply as apply_move
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import Budget, BudgetExceeded, SharedSearch, solve_min_draws

__all__ = ["REVIEW_BUDGET_NODES", "Analysis", "Line", "Verdict", "analyse"]

Verdict = Literal["winnable", "lost", "unknown"]
Line = tuple[Play | Draw, ...]

# A node budget for one game's analysis: 1-1.9 microseconds a node on one core of the shared
# machine, so at most about 1.9 s of CPU (docs/solver.md, "Game review"). Every game of the bench
# needs under 400,000 nodes even with par searched; a hard custom deal (`waves` without wrap)
# ends with par unknown (or known, without its line) rather than in seconds of work.
REVIEW_BUDGET_NODES: Final = 1_000_000


@dataclass(frozen=True, slots=True)
class Analysis:
    """The review of one game (see the module's docstring for how undos and restarts count).

    `verdicts[i]`: position i (0: the deal, i: after engine move i). `losing_move`: the 1-based
    index of the first move that turned a winnable position into a lost one. `winning_line`: a
    winning line from the position before it (empty if none), one with the fewest draws unless
    the budget ran out first. `par`: the fewest moves (plays and
    draws) that win the deal, with `par_line` (empty when par is a known one whose line the budget
    did not reach). `over_par`: for a won game, its plays and draws (undone ones too) minus par. `shorter_from`: for a won game over par, the last position from
    which it could still have finished in par (the next move gave that up); None when it was par
    all along. `nodes`: the search nodes the analysis spent."""

    verdicts: tuple[Verdict, ...]
    losing_move: int | None
    winning_line: Line
    par: int | None
    par_line: Line
    over_par: int | None
    shorter_from: int | None
    nodes: int


@dataclass(frozen=True, slots=True)
class _Walk:
    """The game as played: `positions[i]` after move i; `played[i]` is move i when it is a play or
    a draw (None for an undo, restart or resign, and for i = 0); `used[i]`: plays and draws among
    the first i moves (undone ones too)."""

    positions: tuple[Position, ...]
    played: tuple[Play | Draw | None, ...]
    used: tuple[int, ...]
    won: bool

    def wasted(self, i: int) -> int:
        """Plays and draws spent before position i that it does not show (undone, restarted)."""
        position = self.positions[i]
        return self.used[i] - position.removed.bit_count() - position.drawn


def analyse(
    deal: Deal,
    rules: Rules,
    moves: Sequence[Move],
    *,
    budget: Budget,
    known_par: int | None = None,
) -> Analysis:
    """The review of the game `moves` (its engine moves in order) played on `deal` under `rules`.

    `known_par`: the deal's par when the solver found it before (stored with the deal): the par
    line is then a depth-first search on the stock cut to par's draws, several times cheaper
    than the fewest-draws search. A known par too low to win with is not believed (the
    fewest-draws search then runs); one whose line the budget does not reach is reported without
    a line (it is the solver's, not a guess), and a won game's `over_par` is still counted.
    Raises RuleError if a move is not legal where it was played (the log does not replay)."""
    start = budget.nodes
    walk = _walk(deal, rules, moves)
    search = SharedSearch(deal, rules)
    verdicts, lines = _verdicts(walk, search, budget)
    losing_move = next(
        (
            i
            for i in range(1, len(verdicts))
            if verdicts[i - 1] == "winnable" and verdicts[i] == "lost"
        ),
        None,
    )
    par = _par(deal, rules, search, verdicts[0], budget, known_par)
    over_par, shorter_from = _over_par(deal, walk, par, search, budget)
    winning_line: Line = ()
    if losing_move is not None:
        before = walk.positions[losing_move - 1]
        winning_line = _fewest_draws(deal, rules, before, budget) or lines[before]
    return Analysis(
        verdicts=tuple(verdicts),
        losing_move=losing_move,
        winning_line=winning_line,
        par=par.moves,
        par_line=par.line,
        over_par=over_par,
        shorter_from=shorter_from,
        nodes=budget.nodes - start,
    )


def _fewest_draws(deal: Deal, rules: Rules, position: Position, budget: Budget) -> Line | None:
    """A winning line with the fewest draws from a winnable position (the one a hint follows),
    or None if the budget runs out first (the review then shows the line its walk found)."""
    try:
        return solve_min_draws(deal, rules, position, budget=budget).line
    except BudgetExceeded:
        return None


def _walk(deal: Deal, rules: Rules, moves: Sequence[Move]) -> _Walk:
    state = new_game(deal, rules)
    positions = [state.position]
    played: list[Play | Draw | None] = [None]
    used = [0]
    for move in moves:
        state = apply_move(state, move)
        positions.append(state.position)
        forward = move if isinstance(move, Play | Draw) else None
        played.append(forward)
        used.append(used[-1] + (forward is not None))
    return _Walk(tuple(positions), tuple(played), tuple(used), state.status == "won")


def _verdicts(
    walk: _Walk, search: SharedSearch, budget: Budget
) -> tuple[list[Verdict], dict[Position, Line]]:
    """Each position's verdict, and a winning line from each winnable one."""
    positions, played = walk.positions, walk.played
    win = _proved_by_the_end(walk)
    lost: set[Position] = set()
    unknown: set[Position] = set()
    for i, position in enumerate(positions):
        if position in win or position in lost or position in unknown:
            continue
        move = played[i]
        if move is not None:
            before = positions[i - 1]
            if before in lost:
                lost.add(position)  # a play or a draw never makes a lost position winnable
                continue
            line = win.get(before)
            if line and line[0] == move:
                win[position] = line[1:]
                continue
        try:
            solution = search.solve(position, budget=budget)
        except BudgetExceeded:
            unknown.add(position)
            continue
        if solution.winnable:
            win[position] = solution.line
        else:
            lost.add(position)
    _winnable_before_winnable(walk, win)
    verdicts: list[Verdict] = [
        "winnable" if position in win else "lost" if position in lost else "unknown"
        for position in positions
    ]
    return verdicts, win


def _proved_by_the_end(walk: _Walk) -> dict[Position, Line]:
    """The positions from which a won game went on to its win: winnable, with the game's line."""
    win: dict[Position, Line] = {}
    if walk.won:
        win[walk.positions[-1]] = ()
        _winnable_before_winnable(walk, win)
    return win


def _winnable_before_winnable(walk: _Walk, win: dict[Position, Line]) -> None:
    """A position from which a play or a draw led to a winnable one is winnable (adds it)."""
    positions, played = walk.positions, walk.played
    for i in range(len(positions) - 2, -1, -1):
        move, after = played[i + 1], positions[i + 1]
        if move is not None and positions[i] not in win and after in win:
            win[positions[i]] = (move, *win[after])


@dataclass(frozen=True, slots=True)
class _Par:
    """Par (None: the deal is lost or par unknown), a par line (empty if none was found), and the
    search that found it within par's draws, if one did (`_over_par` asks it again)."""

    moves: int | None
    line: Line = ()
    within: SharedSearch | None = None


def _par(
    deal: Deal,
    rules: Rules,
    search: SharedSearch,
    deal_verdict: Verdict,
    budget: Budget,
    known_par: int | None,
) -> _Par:
    size = deal.layout.size
    if known_par is not None and known_par < size:
        known_par = None  # no par wins with fewer moves than cards: not believed
    if deal_verdict == "lost":
        return _Par(None)
    try:
        if deal_verdict == "winnable" and known_par is not None:
            within = search.within(known_par - size)
            found = within.solve(Position(0, 0, deal.waste), budget=budget)
            if found.winnable:
                return _Par(len(found.line), found.line, within)
            known_par = None  # too low to win: not believed
        if deal_verdict == "winnable":
            line = solve_min_draws(deal, rules, budget=budget).line
            return _Par(len(line), line)
    except BudgetExceeded:
        pass
    return _Par(known_par)  # the solver's par found before, without a line (or unknown)


def _over_par(
    deal: Deal, walk: _Walk, par: _Par, search: SharedSearch, budget: Budget
) -> tuple[int | None, int | None]:
    """For a won game with par known: (its plays and draws minus par, the last position from which
    it could still finish in par when it did not; None if no par line is known). Positions are
    "still in par" from the deal up to that one, and never again after (a play or draw spent and
    undone is never won back), so the walk stops at the first position that is not; it searches
    only where the game left the known par line."""
    if not walk.won or par.moves is None:
        return None, None
    over = walk.used[-1] - par.moves
    if over == 0 or not par.line:
        return over, None
    within = par.within or search.within(par.moves - deal.layout.size)
    positions, played = walk.positions, walk.played
    line = par.line
    for i in range(1, len(positions)):
        if walk.wasted(i):
            return over, i - 1
        move, position = played[i], positions[i]
        if move is not None and line and line[0] == move:
            line = line[1:]
            continue
        if position == positions[i - 1]:
            continue  # a restart at the deal: nothing changed
        try:
            solution = within.solve(position, budget=budget)
        except BudgetExceeded:
            return over, None
        if not solution.winnable:
            return over, i - 1
        line = solution.line
    return over, None  # not reached: a game over par ends beyond par's draws
