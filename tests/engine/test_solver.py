"""The exact solver against the plain baseline, replays of its lines, hints and par."""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.solver_baseline import baseline_winnable
from tripeaks.engine.cards import parse_card
from tripeaks.engine.deal import Deal, from_seed
from tripeaks.engine.game import Draw, Play, Position, Resign, RuleError, State, apply, new_game
from tripeaks.engine.layout import CLASSIC, Layout, Slot
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules, Start
from tripeaks.engine.solver import (
    Hint,
    Solution,
    hint,
    line_tokens,
    par,
    solve,
    solve_min_draws,
    winnable,
)

# Verdicts of the plain baseline (bench/solver_baseline.py) on classic seeds 0..199, wrap on:
# these six are the only unwinnable ones (the baseline takes seconds each, so they are recorded).
UNWINNABLE_CLASSIC_SEEDS = (70, 76, 112, 128, 155, 198)

RULE_SETS = (
    Rules(),
    Rules(wrap=False),
    Rules(start="empty"),
    Rules(wrap=False, open=True, start="empty"),
)


def _row_layouts() -> tuple[Layout, ...]:
    """Small layouts (fast for the baseline): one peak of 3 rows, two small peaks, a wall."""
    peak = (
        Slot(2, 0, 0),
        Slot(1, 1, 1),
        Slot(3, 1, 1),
        Slot(0, 2, 2),
        Slot(2, 2, 2),
        Slot(4, 2, 2),
    )
    twin = peak + tuple(Slot(s.x + 6, s.y, s.z) for s in peak)
    wall = tuple(Slot(2 * i, 0, 0) for i in range(5)) + tuple(
        Slot(1 + 2 * i, 1, 1) for i in range(4)
    )
    return (
        Layout("peak", "Peak", peak),
        Layout("twin", "Twin peaks", twin),
        Layout("wall", "Wall", wall),
    )


SMALL_LAYOUTS = _row_layouts()


def replay(
    deal: Deal, rules: Rules, line: tuple[Play | Draw, ...], start: State | None = None
) -> State:
    state = new_game(deal, rules) if start is None else start
    for move in line:
        state = apply(state, move)
    return state


def random_state(deal: Deal, rules: Rules, rng: random.Random, moves: int) -> State:
    state = new_game(deal, rules)
    for _ in range(moves):
        if state.status != "playing":
            break
        playable = state.playable()
        if playable and (rng.random() < 0.75 or state.stock_left == 0):
            state = apply(state, Play(rng.choice(playable)))
        elif state.stock_left:
            state = apply(state, Draw())
    return state


def brute_force_min_draws(deal: Deal, rules: Rules, position: Position | None = None) -> int | None:
    """0-1 breadth-first search over full states (removed, drawn, waste rank): no dominance, no
    tricks. The fewest draws that win, or None."""
    layout = deal.layout
    full = (1 << layout.size) - 1
    ranks = [card.rank for card in deal.layout_cards]
    stock = [card.rank for card in deal.stock]
    if position is None:
        position = Position(0, 0, deal.waste)
    start = (
        position.removed,
        position.drawn,
        None if position.waste_top is None else position.waste_top.rank,
    )
    best: dict[tuple[int, int, int | None], int] = {start: 0}
    queue: deque[tuple[int, int, int | None]] = deque([start])
    while queue:
        state = queue.popleft()
        removed, drawn, top = state
        cost = best[state]
        if removed == full:
            return cost
        for p in range(layout.size):
            if not removed >> p & 1 and layout.free(p, removed) and rules.fits(ranks[p], top):
                nxt = (removed | 1 << p, drawn, ranks[p])
                if nxt not in best or best[nxt] > cost:
                    best[nxt] = cost
                    queue.appendleft(nxt)
        if drawn < len(stock):
            nxt = (removed, drawn + 1, stock[drawn])
            if nxt not in best or best[nxt] > cost + 1:
                best[nxt] = cost + 1
                queue.append(nxt)
    return None


# --------------------------------------------------------------------------- verdicts


def test_verdicts_on_classic_seeds_match_the_recorded_baseline() -> None:
    lost = tuple(seed for seed in range(200) if not winnable(from_seed(seed, CLASSIC), Rules()))
    assert lost == UNWINNABLE_CLASSIC_SEEDS


@pytest.mark.parametrize("seed", range(12))
def test_verdicts_match_the_baseline_live_on_classic_deals(seed: int) -> None:
    for rules in (Rules(), Rules(start="empty")):
        deal = from_seed(seed, CLASSIC, rules.start)
        assert solve(deal, rules).winnable == baseline_winnable(deal, rules)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    layout=st.sampled_from(SMALL_LAYOUTS),
    rules=st.sampled_from(RULE_SETS),
)
def test_verdicts_match_the_baseline_on_small_layouts(
    seed: int, layout: Layout, rules: Rules
) -> None:
    deal = from_seed(seed, layout, rules.start)
    expected = baseline_winnable(deal, rules)
    assert solve(deal, rules).winnable == expected
    assert solve_min_draws(deal, rules).winnable == expected


# Registered layouts the baseline decides in well under a second.
QUICK_LAYOUTS = tuple(
    get_layout(key) for key in ("pyramid", "cascade", "funnel", "saltire", "staircase")
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    layout=st.sampled_from(QUICK_LAYOUTS),
    wrap=st.booleans(),
    face_up=st.booleans(),
    start=st.sampled_from(["waste", "empty"]),
)
def test_verdicts_match_the_baseline_and_lines_win_on_registered_layouts(
    seed: int, layout: Layout, wrap: bool, face_up: bool, start: Start
) -> None:
    rules = Rules(wrap=wrap, open=face_up, start=start)
    deal = from_seed(seed, layout, start)
    solution = solve(deal, rules)
    assert solution.winnable == baseline_winnable(deal, rules)
    if solution.winnable:
        assert replay(deal, rules, solution.line).status == "won"
    else:
        assert solution.line == ()


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("layout", SMALL_LAYOUTS[:2])
def test_lost_and_won_verdicts_match_the_baseline_over_300_small_deals(
    layout: Layout, rules: Rules
) -> None:
    lost_by_baseline = [
        s for s in range(300) if not baseline_winnable(from_seed(s, layout, rules.start), rules)
    ]
    lost_by_solver = [
        s for s in range(300) if not winnable(from_seed(s, layout, rules.start), rules)
    ]
    assert lost_by_solver == lost_by_baseline
    assert lost_by_solver  # seed 134 is lost under every rule set on these layouts


def _deal_of(layout: Layout, layout_tokens: str, waste: str, stock_tokens: str) -> Deal:
    return Deal(
        layout,
        tuple(parse_card(t) for t in layout_tokens.split()),
        parse_card(waste),
        tuple(parse_card(t) for t in stock_tokens.split()),
    )


def test_a_deal_whose_sevens_can_never_play_is_lost() -> None:
    # Four sevens lie on top of every six and eight; nothing else can ever put a 6 or 8 on the waste.
    layout = Layout(
        "stack",
        "Stack",
        tuple(Slot(x, 0, 0) for x in (0, 2, 6, 8, 12, 14, 18, 20))
        + tuple(Slot(1 + 6 * i, 1, 1) for i in range(4)),
    )
    # Positions 8..11 (the sevens) each cover two of positions 0..7 (the sixes and eights).
    deal_cards = "6C 8C 6D 8D 6H 8H 6S 8S 7C 7D 7H 7S"
    rest = [c for r in "A2345TJQK9" for c in (r + "C", r + "D", r + "H", r + "S")]
    deal = _deal_of(layout, deal_cards, rest[0], " ".join(rest[1:]))
    assert not baseline_winnable(deal, Rules())
    assert solve(deal, Rules()) == Solution(False, ())
    assert par(deal, Rules()) is None
    assert hint(new_game(deal, Rules())) == Hint(None, False)


@pytest.mark.parametrize("seed", UNWINNABLE_CLASSIC_SEEDS[:3])
def test_unwinnable_classic_deals_give_no_line_par_or_hint(seed: int) -> None:
    deal = from_seed(seed, CLASSIC)
    assert solve(deal, Rules()) == Solution(False, ())
    assert solve_min_draws(deal, Rules()) == Solution(False, ())
    assert par(deal, Rules()) is None
    assert hint(new_game(deal, Rules())) == Hint(None, False)


# --------------------------------------------------------------------------- lines


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), rules=st.sampled_from(RULE_SETS))
def test_every_solver_line_replays_to_a_win(seed: int, rules: Rules) -> None:
    deal = from_seed(seed, CLASSIC, rules.start)
    solution = solve(deal, rules)
    if solution.winnable:
        assert replay(deal, rules, solution.line).status == "won"
        fewest = solve_min_draws(deal, rules)
        assert fewest.winnable
        assert replay(deal, rules, fewest.line).status == "won"
        assert fewest.draws <= solution.draws
        assert len(fewest.line) == CLASSIC.size + fewest.draws  # par, checked on its own below
    else:
        assert solution.line == ()
        assert par(deal, rules) is None


def test_solve_from_a_mid_game_position_agrees_with_the_baseline_and_replays() -> None:
    rng = random.Random(7)
    checked = lost = 0
    for seed in range(24):
        rules = RULE_SETS[seed % len(RULE_SETS)]
        deal = from_seed(seed, CLASSIC, rules.start)
        state = random_state(deal, rules, rng, rng.randint(5, 30))
        if state.status != "playing":
            continue
        solution = solve(deal, rules, state.position)
        assert solution.winnable == baseline_winnable(deal, rules, state.position)
        if solution.winnable:
            assert replay(deal, rules, solution.line, state).status == "won"
        else:
            lost += 1
        checked += 1
    assert checked >= 18
    assert lost >= 1  # random play loses some games: the lost branch is exercised


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    layout=st.sampled_from((*QUICK_LAYOUTS, *SMALL_LAYOUTS)),
    rules=st.sampled_from(RULE_SETS),
    moves=st.integers(0, 40),
)
def test_solve_from_late_positions_agrees_with_the_baseline_and_replays(
    seed: int, layout: Layout, rules: Rules, moves: int
) -> None:
    # Late in a game most ranks have few cards left: the positions where a card that nothing
    # left can follow fits the waste, and the search does not draw from there.
    deal = from_seed(seed, layout, rules.start)
    state = random_state(deal, rules, random.Random(seed), moves)
    solution = solve(deal, rules, state.position)
    assert solution.winnable == baseline_winnable(deal, rules, state.position)
    if solution.winnable:
        assert replay(deal, rules, solution.line, state).status == "won"


def test_line_tokens_are_positions_and_draws() -> None:
    assert line_tokens((Play(18), Draw(), Play(0))) == [18, "draw", 0]
    assert line_tokens(()) == []


def test_a_won_position_needs_no_moves() -> None:
    deal = from_seed(3, CLASSIC)
    everything = Position((1 << CLASSIC.size) - 1, 5, deal.stock[4])
    assert solve(deal, Rules(), everything) == Solution(True, ())
    assert solve_min_draws(deal, Rules(), everything) == Solution(True, ())


def test_impossible_positions_and_mismatched_starts_are_refused() -> None:
    deal = from_seed(3, CLASSIC)
    with pytest.raises(RuleError):
        solve(deal, Rules(), Position(1, 0, deal.waste))  # a peak top gone while still covered
    with pytest.raises(RuleError):
        solve(deal, Rules(), Position(0, 99, deal.waste))
    with pytest.raises(RuleError):
        solve(deal, Rules(start="empty"))


# --------------------------------------------------------------------------- par and hints


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("layout", SMALL_LAYOUTS)
def test_par_matches_a_brute_force_fewest_draws_search(rules: Rules, layout: Layout) -> None:
    for seed in range(6):
        deal = from_seed(seed, layout, rules.start)
        expected = brute_force_min_draws(deal, rules)
        assert par(deal, rules) == (None if expected is None else layout.size + expected)
        assert solve_min_draws(deal, rules).draws == (expected or 0)


def test_par_on_classic_is_28_plus_the_fewest_draws_and_never_beaten_by_solve() -> None:
    for seed, rules in ((0, Rules()), (1, Rules(wrap=False)), (2, Rules(start="empty"))):
        deal = from_seed(seed, CLASSIC, rules.start)
        fewest = solve_min_draws(deal, rules)
        assert fewest.winnable
        assert par(deal, rules) == CLASSIC.size + fewest.draws
        assert fewest.draws <= solve(deal, rules).draws
        assert replay(deal, rules, fewest.line).status == "won"


def test_hints_are_legal_and_keep_the_game_winnable_with_one_draw_less_when_drawing() -> None:
    rng = random.Random(11)
    winnable_hints = draws = 0
    for i in range(30):
        rules = RULE_SETS[i % len(RULE_SETS)]
        layout = CLASSIC if i % 3 else SMALL_LAYOUTS[i % len(SMALL_LAYOUTS)]
        deal = from_seed(1000 + i, layout, rules.start)
        state = random_state(deal, rules, rng, rng.randint(2, 25))
        given_hint = hint(state)
        fewest = solve_min_draws(deal, rules, state.position)
        assert given_hint.winnable == fewest.winnable == solve(deal, rules, state.position).winnable
        if not given_hint.winnable:
            assert given_hint.move is None
            continue
        if state.status == "won":
            assert given_hint.move is None
            continue
        assert given_hint.move is not None
        after = apply(state, given_hint.move)  # legal, or apply raises
        rest = solve_min_draws(deal, rules, after.position)
        assert rest.winnable
        # The hinted move starts a fewest-draws line.
        assert rest.draws + isinstance(given_hint.move, Draw) == fewest.draws
        winnable_hints += 1
        draws += isinstance(given_hint.move, Draw)
    assert winnable_hints >= 15


def test_hint_on_finished_games() -> None:
    deal = from_seed(0, CLASSIC)
    state = new_game(deal, Rules())
    won = replay(deal, Rules(), solve(deal, Rules()).line)
    assert hint(won) == Hint(None, True)
    assert hint(apply(state, Resign())) == Hint(None, False)
