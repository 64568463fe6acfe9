"""Game review (tripeaks/engine/review.py): the solver's verdict on every position of a game, the
move that lost it, a winning line from before that move, par and a won game's over-par."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.conftest import build_deal
from tripeaks.engine.deal import Deal, from_seed
from tripeaks.engine.game import (
    Draw,
    Move,
    Play,
    Position,
    Resign,
    Restart,
    RuleError,
    State,
    Undo,
    apply,
    new_game,
)
from tripeaks.engine.layout import CLASSIC, Layout, Slot
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.review import Analysis, analyse
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import Budget, par, solve, solve_min_draws, winnable

NOWRAP = Rules(wrap=False)
# Two free cards side by side, nothing covered: the game is the order they go and the stock.
PAIR = Layout("pair", "Pair", (Slot(0, 0, 0), Slot(2, 0, 0)))
ONE = Layout("one", "One", (Slot(0, 0, 0),))
SMALL = ("pyramid", "cascade", "twin-peaks")
RULE_SETS = (Rules(), NOWRAP, Rules(start="empty"))


def random_game(
    deal: Deal,
    rules: Rules,
    rng: random.Random,
    *,
    play_share: float = 0.8,
    undo_share: float = 0.0,
    restart_share: float = 0.0,
) -> list[Move]:
    """A game to its end: an undo or a restart now and then, else a random playable card with
    `play_share`, else a draw."""
    state: State = new_game(deal, rules)
    moves: list[Move] = []
    while state.status == "playing":
        playable = state.playable()
        roll = rng.random()
        move: Move
        if state.history and roll < undo_share:
            move = Undo()
        elif roll < undo_share + restart_share and len(moves) < 200:
            move = Restart()
        elif playable and (rng.random() < play_share or not state.stock_left):
            move = Play(rng.choice(playable))
        else:
            move = Draw()
        state = apply(state, move)
        moves.append(move)
    return moves


def won_game(deal: Deal, rules: Rules, rng: random.Random, *, play_share: float) -> list[Move]:
    """A random game that never loses: a random move while it keeps the game winnable, else the
    first move of a winning line. The deal must be winnable."""
    state = new_game(deal, rules)
    moves: list[Move] = []
    while state.status != "won":
        playable = state.playable()
        if playable and (rng.random() < play_share or not state.stock_left):
            move: Play | Draw = Play(rng.choice(playable))
        else:
            move = Draw()
        if not winnable(deal, rules, apply(state, move).position):
            move = solve(deal, rules, state.position).line[0]
        state = apply(state, move)
        moves.append(move)
    return moves


def positions_of(deal: Deal, rules: Rules, moves: list[Move]) -> list[Position]:
    state = new_game(deal, rules)
    positions = [state.position]
    for move in moves:
        state = apply(state, move)
        positions.append(state.position)
    return positions


def replay_from(
    deal: Deal, rules: Rules, position: Position, line: tuple[Play | Draw, ...]
) -> State:
    state = State(deal, rules, position)
    for move in line:
        state = apply(state, move)
    return state


def exact_verdicts(deal: Deal, rules: Rules, moves: list[Move]) -> list[str]:
    """The naive review: the solver from scratch on every position."""
    return [
        "winnable" if winnable(deal, rules, position) else "lost"
        for position in positions_of(deal, rules, moves)
    ]


def check_lines(deal: Deal, rules: Rules, moves: list[Move], analysis: Analysis) -> None:
    """What every analysis must keep: its lines win, its losing move is the first turn from
    winnable to lost, par is the solver's."""
    positions = positions_of(deal, rules, moves)
    verdicts = analysis.verdicts
    turns = [i for i in range(1, len(verdicts)) if verdicts[i - 1 : i + 1] == ("winnable", "lost")]
    assert analysis.losing_move == (turns[0] if turns else None)
    if analysis.losing_move is not None:
        before = positions[analysis.losing_move - 1]
        assert replay_from(deal, rules, before, analysis.winning_line).status == "won"
    else:
        assert analysis.winning_line == ()
    if analysis.par is not None:
        assert analysis.par == par(deal, rules)
        assert len(analysis.par_line) == analysis.par
        assert replay_from(deal, rules, positions[0], analysis.par_line).status == "won"


# --------------------------------------------------------------------------- hand-built deals


def test_drawing_past_the_last_queen_loses_a_lone_king() -> None:
    # Without wrap the king fits only a queen; the four queens are drawn 1st, 3rd, 5th and 7th.
    deal = build_deal("KC", "2C", "QC 3C QD 4C QH 5C QS", layout=ONE)
    moves: list[Move] = [Draw()] * 9
    analysis = analyse(deal, NOWRAP, moves, budget=Budget())
    assert analysis.verdicts == ("winnable",) * 8 + ("lost",) * 2
    assert analysis.losing_move == 8  # the draw that covered the queen of spades
    assert analysis.winning_line == (Play(0),)
    assert (analysis.par, analysis.par_line) == (2, (Draw(), Play(0)))
    assert analysis.over_par is None and analysis.shorter_from is None  # not won


def test_the_jack_played_on_the_last_queen_loses_and_the_king_would_have_won() -> None:
    # Both fit the last queen; after the jack the king waits for a queen that never comes, after
    # the king the jack still has the tens of the stock.
    deal = build_deal("KC JC", "2C", "QC QD QH QS", layout=PAIR)
    moves: list[Move] = [Draw(), Draw(), Draw(), Draw(), Play(1)]
    analysis = analyse(deal, NOWRAP, moves, budget=Budget())
    assert analysis.verdicts == ("winnable",) * 5 + ("lost",)
    assert analysis.losing_move == 5
    assert analysis.winning_line[0] == Play(0)
    check_lines(deal, NOWRAP, moves, analysis)
    assert analysis.par == 4  # a queen, one card, another queen, the other card


def test_a_losing_draw_taken_back_is_still_named_and_the_game_then_won_is_over_par() -> None:
    deal = build_deal("KC", "2C", "QC 3C QD 4C QH 5C QS", layout=ONE)
    moves: list[Move] = [Draw()] * 8 + [Undo(), Play(0)]
    analysis = analyse(deal, NOWRAP, moves, budget=Budget())
    assert analysis.verdicts == ("winnable",) * 8 + ("lost", "winnable", "winnable")
    assert analysis.losing_move == 8
    assert analysis.over_par == 9 - 2  # eight draws (one undone) and a play, par 2
    assert analysis.shorter_from == 1  # on the first queen the king would have made par


def test_a_restart_goes_back_to_the_deals_verdict() -> None:
    deal = build_deal("KC", "2C", "QC 3C QD 4C QH 5C QS", layout=ONE)
    moves: list[Move] = [Draw()] * 8 + [Restart(), Draw(), Play(0)]
    analysis = analyse(deal, NOWRAP, moves, budget=Budget())
    assert analysis.verdicts == ("winnable",) * 8 + ("lost",) + ("winnable",) * 3
    assert analysis.losing_move == 8
    assert (analysis.over_par, analysis.shorter_from) == (10 - 2, 1)


def test_a_resign_keeps_the_position_and_its_verdict() -> None:
    deal = build_deal("KC", "2C", "QC 3C QD 4C QH 5C QS", layout=ONE)
    analysis = analyse(deal, NOWRAP, [Draw(), Resign()], budget=Budget())
    assert analysis.verdicts == ("winnable",) * 3
    assert analysis.losing_move is None and analysis.over_par is None


def test_a_game_won_in_par_has_no_shorter_line() -> None:
    deal = build_deal("KC", "2C", "QC 3C QD 4C QH 5C QS", layout=ONE)
    analysis = analyse(deal, NOWRAP, [Draw(), Play(0)], budget=Budget())
    assert analysis.verdicts == ("winnable",) * 3
    assert (analysis.par, analysis.over_par, analysis.shorter_from) == (2, 0, None)
    assert analysis.losing_move is None and analysis.winning_line == ()


@pytest.mark.parametrize("seed", [70, 76])
def test_an_unwinnable_deal_is_lost_from_the_start_with_no_losing_move_and_no_par(
    seed: int,
) -> None:
    deal = from_seed(seed, CLASSIC)
    moves = random_game(deal, Rules(), random.Random(seed))
    analysis = analyse(deal, Rules(), moves, budget=Budget())
    assert set(analysis.verdicts) == {"lost"}
    assert analysis.losing_move is None and analysis.winning_line == ()
    assert analysis.par is None and analysis.par_line == ()


def test_a_move_the_rules_refuse_is_refused() -> None:
    deal = build_deal("KC", "2C", "QC", layout=ONE)
    with pytest.raises(RuleError):
        analyse(deal, NOWRAP, [Play(0)], budget=Budget())  # a king does not fit a two
    with pytest.raises(RuleError):
        analyse(deal, NOWRAP, [Draw(), Play(0), Draw()], budget=Budget())  # after the win
    for hostile in (Play(1), Play(-1), Play(True), Play("0")):  # type: ignore[arg-type]
        with pytest.raises(RuleError):
            analyse(deal, NOWRAP, [Draw(), hostile], budget=Budget())


def test_a_long_log_of_undos_and_restarts_searches_each_position_once() -> None:
    deal = from_seed(3, CLASSIC)
    short: list[Move] = [Draw(), Undo(), Draw()]
    long: list[Move] = [Draw(), Undo()] * 2_000 + [Draw()] + [Restart(), Draw()] * 500
    once = analyse(deal, Rules(), short, budget=Budget())
    again = analyse(deal, Rules(), long, budget=Budget())
    assert set(again.verdicts) == {"winnable"} and again.nodes == once.nodes


def test_an_empty_game_is_the_deals_verdict() -> None:
    deal = from_seed(1, CLASSIC)
    analysis = analyse(deal, Rules(), [], budget=Budget())
    assert analysis.verdicts == ("winnable",)
    assert analysis.losing_move is None


# --------------------------------------------------------------------------- against the solver


@pytest.mark.parametrize("seed", [0, 3, 8])
def test_each_verdict_on_classic_games_is_the_solvers_on_that_position(seed: int) -> None:
    deal = from_seed(seed, CLASSIC)
    moves = random_game(deal, Rules(), random.Random(seed))
    analysis = analyse(deal, Rules(), moves, budget=Budget())
    assert list(analysis.verdicts) == exact_verdicts(deal, Rules(), moves)
    assert analysis.losing_move is not None  # a random game on a winnable deal loses it
    check_lines(deal, Rules(), moves, analysis)


@pytest.mark.parametrize("seed", [1, 4])
def test_the_winning_line_before_the_losing_move_has_the_fewest_draws(seed: int) -> None:
    deal = from_seed(seed, CLASSIC)
    moves = random_game(deal, Rules(), random.Random(seed), play_share=0.6)
    analysis = analyse(deal, Rules(), moves, budget=Budget())
    assert analysis.losing_move is not None
    before = positions_of(deal, Rules(), moves)[analysis.losing_move - 1]
    fewest = solve_min_draws(deal, Rules(), before)
    drawn = sum(isinstance(move, Draw) for move in analysis.winning_line)
    assert drawn == fewest.draws
    check_lines(deal, Rules(), moves, analysis)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    layout=st.sampled_from(SMALL),
    rules=st.sampled_from(RULE_SETS),
    play_share=st.floats(0.3, 1.0),
    undo_share=st.sampled_from([0.0, 0.05, 0.2]),
    restart_share=st.sampled_from([0.0, 0.02]),
)
def test_verdicts_agree_with_the_solver_and_the_lines_win_on_random_games(
    seed: int,
    layout: str,
    rules: Rules,
    play_share: float,
    undo_share: float,
    restart_share: float,
) -> None:
    deal = from_seed(seed, get_layout(layout), rules.start)
    moves = random_game(
        deal,
        rules,
        random.Random(seed),
        play_share=play_share,
        undo_share=undo_share,
        restart_share=restart_share,
    )
    analysis = analyse(deal, rules, moves, budget=Budget())
    assert list(analysis.verdicts) == exact_verdicts(deal, rules, moves)
    check_lines(deal, rules, moves, analysis)


def expected_shorter_from(
    deal: Deal, rules: Rules, moves: list[Move], par_moves: int
) -> int | None:
    """The last position from which the game could still end in par, by the fewest-draws search
    from every position: its plays and draws so far, all still on the table, plus the fewest
    moves from there, make par."""
    positions = positions_of(deal, rules, moves)
    used = 0
    last = None
    for i, position in enumerate(positions):
        if i and isinstance(moves[i - 1], Play | Draw):
            used += 1
        fewest = solve_min_draws(deal, rules, position)
        cards_left = deal.layout.size - position.removed.bit_count()
        if fewest.winnable and used + cards_left + fewest.draws == par_moves:
            last = i
    return None if last == len(positions) - 1 else last


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    layout=st.sampled_from(SMALL),
    rules=st.sampled_from(RULE_SETS),
    play_share=st.floats(0.2, 1.0),
)
def test_a_won_games_positions_are_all_winnable_and_its_over_par_is_exact(
    seed: int, layout: str, rules: Rules, play_share: float
) -> None:
    deal = from_seed(seed, get_layout(layout), rules.start)
    if not winnable(deal, rules):
        return
    moves = won_game(deal, rules, random.Random(seed), play_share=play_share)
    analysis = analyse(deal, rules, moves, budget=Budget())
    assert set(analysis.verdicts) == {"winnable"}
    assert analysis.losing_move is None and analysis.winning_line == ()
    check_lines(deal, rules, moves, analysis)
    assert analysis.par is not None
    assert analysis.over_par == len(moves) - analysis.par
    assert analysis.shorter_from == expected_shorter_from(deal, rules, moves, analysis.par)
    if analysis.over_par:
        assert analysis.shorter_from is not None


# --------------------------------------------------------------------------- the search it costs


def test_a_game_won_in_par_proves_its_own_positions_only_par_is_searched() -> None:
    deal = from_seed(5, CLASSIC)
    par_search = Budget()
    moves: list[Move] = list(solve_min_draws(deal, Rules(), budget=par_search).line)
    analysis = analyse(deal, Rules(), moves, budget=Budget())
    assert set(analysis.verdicts) == {"winnable"} and analysis.over_par == 0
    assert analysis.nodes == par_search.nodes


@pytest.mark.parametrize("seed", [0, 5, 11])
def test_a_known_par_gives_the_same_review_for_fewer_nodes(seed: int) -> None:
    deal = from_seed(seed, CLASSIC)
    for moves in (
        random_game(deal, Rules(), random.Random(seed)),
        won_game(deal, Rules(), random.Random(seed), play_share=0.6),
    ):
        searched = analyse(deal, Rules(), moves, budget=Budget())
        known = analyse(deal, Rules(), moves, budget=Budget(), known_par=searched.par)
        assert known.par == searched.par and known.nodes < searched.nodes
        assert (known.verdicts, known.losing_move, known.winning_line) == (
            searched.verdicts,
            searched.losing_move,
            searched.winning_line,
        )
        assert (known.over_par, known.shorter_from) == (searched.over_par, searched.shorter_from)
        check_lines(deal, Rules(), moves, known)


@pytest.mark.parametrize("wrong", [0, 35])
def test_a_known_par_too_low_to_win_is_not_believed(wrong: int) -> None:
    deal = from_seed(0, CLASSIC)  # par 42
    moves = random_game(deal, Rules(), random.Random(0))
    analysis = analyse(deal, Rules(), moves, budget=Budget(), known_par=wrong)
    assert analysis.par == par(deal, Rules()) == 42


def test_a_lost_games_verdicts_cost_less_than_a_search_of_every_position() -> None:
    rules = Rules()
    naive = reviewed = 0
    for seed in (0, 1, 3, 8):
        deal = from_seed(seed, CLASSIC)
        moves = random_game(deal, rules, random.Random(seed))
        each = Budget()
        for position in positions_of(deal, rules, moves):
            winnable(deal, rules, position, budget=each)
        analysis = analyse(deal, rules, moves, budget=Budget())
        assert analysis.losing_move is not None
        # The same searches in both: par, and the fewest-draws line before the losing move.
        same = Budget()
        par(deal, rules, budget=same)
        before = positions_of(deal, rules, moves)[analysis.losing_move - 1]
        solve_min_draws(deal, rules, before, budget=same)
        naive += each.nodes
        reviewed += analysis.nodes - same.nodes
    assert reviewed < naive / 2


def test_a_known_par_whose_line_is_out_of_budget_is_still_reported_without_a_line() -> None:
    deal = build_deal("KC", "2C", "QC 3C QD 4C QH 5C QS", layout=ONE)
    moves: list[Move] = [Draw()] * 3 + [Play(0)]
    # Every position proved by the game itself: the verdicts cost no node, the line would.
    analysis = analyse(deal, NOWRAP, moves, budget=Budget(max_nodes=0), known_par=2)
    assert analysis.verdicts == ("winnable",) * 5
    assert (analysis.par, analysis.par_line) == (2, ())
    assert (analysis.over_par, analysis.shorter_from) == (4 - 2, None)
    unknown = analyse(deal, NOWRAP, moves, budget=Budget(max_nodes=0))
    assert (unknown.par, unknown.over_par) == (None, None)


# --------------------------------------------------------------------------- budgets


@pytest.mark.parametrize("max_nodes", [0, 200, 2_000])
def test_a_position_out_of_budget_is_unknown_never_a_guess(max_nodes: int) -> None:
    deal = from_seed(3, CLASSIC)
    moves = random_game(deal, Rules(), random.Random(3))
    analysis = analyse(deal, Rules(), moves, budget=Budget(max_nodes=max_nodes))
    exact = exact_verdicts(deal, Rules(), moves)
    assert "unknown" in analysis.verdicts
    for verdict, truth in zip(analysis.verdicts, exact, strict=True):
        assert verdict in ("unknown", truth)
    assert analysis.par is None  # the par search comes last, when the budget is gone
    again = analyse(deal, Rules(), moves, budget=Budget(max_nodes=max_nodes))
    assert again == analysis  # a node budget gives the same answer every time
    check_lines(deal, Rules(), moves, analysis)


def test_a_won_game_needs_no_budget_for_its_verdicts() -> None:
    deal = from_seed(5, CLASSIC)
    moves = list(solve(deal, Rules()).line)
    analysis = analyse(deal, Rules(), moves, budget=Budget(max_nodes=0))
    assert set(analysis.verdicts) == {"winnable"}
    assert analysis.par is None and analysis.over_par is None and analysis.shorter_from is None


@pytest.mark.slow
def test_a_losing_move_between_unknown_positions_is_not_named() -> None:
    deal = from_seed(3, CLASSIC)
    moves = random_game(deal, Rules(), random.Random(3))
    exact = Budget()
    full = analyse(deal, Rules(), moves, budget=exact)
    assert full.losing_move is not None
    for max_nodes in range(0, exact.nodes, max(1, exact.nodes // 12)):
        partial = analyse(deal, Rules(), moves, budget=Budget(max_nodes=max_nodes))
        assert partial.losing_move in (None, full.losing_move)
        if partial.losing_move is None:
            assert "unknown" in partial.verdicts[: full.losing_move + 1]
