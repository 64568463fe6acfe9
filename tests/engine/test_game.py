from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from tripeaks.engine.cards import parse_card
from tripeaks.engine.deal import Deal, from_seed
from tripeaks.engine.game import (
    Draw,
    Move,
    Play,
    Resign,
    Restart,
    RuleError,
    State,
    Undo,
    apply,
    move_to_dict,
    new_game,
    parse_move,
    replay,
)
from tripeaks.engine.layout import CLASSIC, Layout
from tripeaks.engine.rules import Rules

MakeDeal = Callable[..., Deal]  # the make_deal fixture from conftest.py

WRAP = Rules()
NO_WRAP = Rules(wrap=False)


def play_all(state: State, *moves: int | str) -> State:
    for move in moves:
        state = apply(state, Draw() if move == "d" else Undo() if move == "u" else Play(int(move)))
    return state


# ---------------------------------------------------------------- the classic layout


def classic_covered_by_formula(p: int) -> set[int]:
    if p < 3:
        return {3 + 2 * p, 4 + 2 * p}
    if p < 9:
        i = p - 3
        first = 9 + 3 * (i // 2) + (i % 2)
        return {first, first + 1}
    if p < 18:
        i = p - 9
        return {18 + i, 19 + i}
    return set()


def test_classic_cover_relation_is_exactly_the_issue_formula() -> None:
    assert CLASSIC.size == 28
    for p in range(28):
        assert set(CLASSIC.covered_by[p]) == classic_covered_by_formula(p), p
    for p in range(28):
        assert set(CLASSIC.covers[p]) == {
            q for q in range(28) if p in classic_covered_by_formula(q)
        }


def test_at_the_deal_only_the_bottom_row_is_free_and_face_up() -> None:
    state = new_game(from_seed(0, CLASSIC), WRAP)
    assert [p for p in range(28) if state.is_free(p)] == list(range(18, 28))
    assert [p for p in range(28) if state.is_face_up(p)] == list(range(18, 28))
    assert state.status == "playing"
    assert (state.moves, state.seq, state.stock_left, state.cards_left, state.waste_count) == (
        0,
        0,
        23,
        28,
        1,
    )


def test_open_variant_shows_every_card_but_only_free_cards_play(make_deal: MakeDeal) -> None:
    deal = make_deal("", "5D", layout=CLASSIC)
    state = new_game(deal, Rules(open=True))
    assert all(state.is_face_up(p) for p in range(28))
    assert [p for p in range(28) if state.is_free(p)] == list(range(18, 28))
    with pytest.raises(RuleError, match="position 0 is still covered"):
        apply(state, Play(0))


# ---------------------------------------------------------------- playing cards


def test_a_free_card_one_rank_away_plays_and_becomes_the_waste_top(make_deal: MakeDeal) -> None:
    deal = make_deal("", "5D", layout=CLASSIC)
    layout_cards = list(deal.layout_cards)
    state = new_game(deal, WRAP)
    fitting = [p for p in range(18, 28) if abs(layout_cards[p].rank - 5) == 1]
    for p in range(18, 28):
        if p not in fitting:
            with pytest.raises(RuleError, match="does not fit on 5D"):
                apply(state, Play(p))
    assert state.playable() == tuple(fitting)


def test_play_moves_the_card_to_the_waste() -> None:
    deal = from_seed(0, CLASSIC)
    state = new_game(deal, WRAP)
    p = state.playable()[0]
    after = apply(state, Play(p))
    assert after.waste_top == deal.layout_cards[p]
    assert not after.in_layout(p)
    assert (after.moves, after.seq, after.cards_left, after.waste_count) == (1, 1, 27, 2)
    assert after.history == (state.position,)
    assert state.moves == 0  # the old state is untouched


def test_covered_card_is_refused_as_face_down() -> None:
    state = new_game(from_seed(0, CLASSIC), WRAP)
    for p in range(18):
        with pytest.raises(RuleError, match=f"the card at position {p} is face down"):
            apply(state, Play(p))


def test_card_turns_face_up_when_both_covering_cards_are_gone(make_deal: MakeDeal) -> None:
    # 9 is covered by 18 and 19. Waste 5: play 18 (6), then 19 (7).
    tokens = (
        [f"{r}C" for r in "A23456789TJQK"]
        + [f"{r}D" for r in "A23489TJQK"]
        + ["AH", "2H", "3H", "4H", "8H"]
    )
    layout_tokens = tokens[:18] + ["6H", "7H"] + tokens[18:26]
    state = new_game(make_deal(" ".join(layout_tokens), "5D"), WRAP)
    assert not state.is_face_up(9)
    state = apply(state, Play(18))
    assert not state.is_face_up(9) and not state.is_free(9)
    state = apply(state, Play(19))
    assert state.is_face_up(9) and state.is_free(9)
    assert state.card_at(9) == parse_card(layout_tokens[9])


def test_bad_positions_are_refused(make_deal: MakeDeal) -> None:
    state = new_game(make_deal("", "5D"), WRAP)
    with pytest.raises(RuleError, match="no position 28"):
        apply(state, Play(28))
    with pytest.raises(RuleError, match="no position -1"):
        apply(state, Play(-1))
    with pytest.raises(RuleError, match="whole number"):
        apply(state, Play(True))
    with pytest.raises(RuleError, match="whole number"):
        apply(state, Play("18"))  # type: ignore[arg-type]


def test_a_played_position_cannot_be_played_again(make_deal: MakeDeal) -> None:
    state = new_game(wrap_deal(make_deal, ["6D"], "5D"), WRAP)
    state = apply(state, Play(18))
    with pytest.raises(RuleError, match="position 18 has already been played"):
        apply(state, Play(18))


# ---------------------------------------------------------------- wrap


def wrap_deal(make_deal: MakeDeal, bottom: list[str], waste: str) -> Deal:
    fillers = [
        t for t in (f"{r}{s}" for s in "CDHS" for r in "56789T") if t not in bottom and t != waste
    ]
    return make_deal(" ".join(fillers[:18] + bottom), waste)


def test_q_k_a_2_is_legal_with_wrap(make_deal: MakeDeal) -> None:
    deal = wrap_deal(make_deal, ["KC", "AC", "2C"], "QC")
    state = play_all(new_game(deal, WRAP), 18, 19, 20)
    assert state.waste_top == parse_card("2C")


def test_k_a_2_a_k_is_legal_with_wrap(make_deal: MakeDeal) -> None:
    deal = wrap_deal(make_deal, ["AC", "2C", "AD", "KD"], "KC")
    state = play_all(new_game(deal, WRAP), 18, 19, 20, 21)
    assert state.waste_top == parse_card("KD")


def test_k_a_is_illegal_without_wrap(make_deal: MakeDeal) -> None:
    deal = wrap_deal(make_deal, ["AC", "QC"], "KC")
    state = new_game(deal, NO_WRAP)
    with pytest.raises(RuleError, match="AC does not fit on KC"):
        apply(state, Play(18))
    state = apply(state, Play(19))  # Q on K still fits
    deal = wrap_deal(make_deal, ["KC"], "AC")
    with pytest.raises(RuleError, match="KC does not fit on AC"):
        apply(new_game(deal, NO_WRAP), Play(18))


def test_fitting_ranks() -> None:
    def ranks(rules: Rules, waste: str | None) -> tuple[int, ...]:
        code = from_seed(0, CLASSIC).code.split()
        if waste is None:
            deal = from_seed(0, CLASSIC, start="empty")
        else:
            code.remove(waste)
            code.insert(28, waste)
            deal = Deal(
                CLASSIC,
                tuple(map(parse_card, code[:28])),
                parse_card(waste),
                tuple(map(parse_card, code[29:])),
            )
        return new_game(deal, rules).fitting_ranks

    assert ranks(WRAP, "7H") == (6, 8)
    assert ranks(WRAP, "KH") == (1, 12)
    assert ranks(WRAP, "AH") == (2, 13)
    assert ranks(NO_WRAP, "KH") == (12,)
    assert ranks(NO_WRAP, "AH") == (2,)
    assert ranks(Rules(start="empty"), None) == tuple(range(1, 14))


# ---------------------------------------------------------------- the empty start


def test_empty_start_accepts_any_free_card_first() -> None:
    deal = from_seed(99, CLASSIC, start="empty")
    state = new_game(deal, Rules(start="empty"))
    assert state.waste_top is None and state.waste_count == 0 and state.stock_left == 24
    assert state.playable() == tuple(range(18, 28))
    for p in range(18, 28):
        after = apply(state, Play(p))
        assert after.waste_top == deal.layout_cards[p]
    # and the usual rule from then on
    after = apply(state, Play(18))
    top = deal.layout_cards[18].rank
    assert all(abs(after.card_at(p).rank - top) in (1, 12) for p in after.playable())


def test_empty_start_first_draw_starts_the_waste() -> None:
    deal = from_seed(5, CLASSIC, start="empty")
    state = apply(new_game(deal, Rules(start="empty")), Draw())
    assert state.waste_top == deal.stock[0]
    assert apply(state, Undo()).waste_top is None


def test_rules_and_deal_must_agree_on_the_start() -> None:
    with pytest.raises(RuleError, match="empty"):
        new_game(from_seed(0, CLASSIC), Rules(start="empty"))
    with pytest.raises(RuleError):
        new_game(from_seed(0, CLASSIC, start="empty"), WRAP)


# ---------------------------------------------------------------- the stock


def test_draw_turns_the_stock_in_order_once() -> None:
    deal = from_seed(1, CLASSIC)
    state = new_game(deal, WRAP)
    for i, card in enumerate(deal.stock):
        state = apply(state, Draw())
        assert state.waste_top == card
        assert state.stock_left == 22 - i
        assert state.moves == i + 1
    with pytest.raises(RuleError, match="the stock is empty"):
        apply(state, Draw())


# ---------------------------------------------------------------- undo and restart


def test_undo_goes_back_one_move_at_a_time_to_the_deal_and_counts_as_a_move() -> None:
    start = new_game(from_seed(2, CLASSIC), WRAP)
    states = [start]
    state = start
    for _ in range(10):
        move = Play(state.playable()[0]) if state.playable() else Draw()
        state = apply(state, move)
        states.append(state)
    for back in range(10):
        state = apply(state, Undo())
        previous = states[-2 - back]
        assert state.position == previous.position
        assert state.history == previous.history
        assert state.moves == 10 + back + 1
        assert state.seq == 10 + back + 1
    assert state.position == start.position and not state.can_undo
    with pytest.raises(RuleError, match="nothing to undo"):
        apply(state, Undo())


def test_undo_of_a_draw_puts_the_card_back_on_the_stock() -> None:
    deal = from_seed(3, CLASSIC)
    state = apply(new_game(deal, WRAP), Draw())
    state = apply(state, Undo())
    assert state.stock_left == 23 and state.waste_top == deal.waste
    assert apply(state, Draw()).waste_top == deal.stock[0]


def test_restart_goes_back_to_the_deal_keeps_counting_moves_and_clears_history() -> None:
    deal = from_seed(4, CLASSIC)
    state = new_game(deal, WRAP)
    state = play_all(state, "d", "d", "d")
    restarted = apply(state, Restart())
    assert restarted.position == new_game(deal, WRAP).position
    assert restarted.moves == 3  # restart itself is not a move, and the count is not reset
    assert restarted.seq == 4
    assert restarted.history == () and not restarted.can_undo
    with pytest.raises(RuleError, match="nothing to undo"):
        apply(restarted, Undo())
    assert apply(restarted, Draw()).waste_top == deal.stock[0]


# ---------------------------------------------------------------- the end of a game


def test_won_when_the_layout_is_empty_whatever_is_left_in_the_stock(
    make_deal: MakeDeal, tiny: Layout
) -> None:
    # 0 is covered by 1 and 2. Waste 5: play 4, 3, then 2 (freed).
    state = new_game(make_deal("2C 4C 3C", "5D", layout=tiny), WRAP)
    state = play_all(state, 1, 2, 0)
    assert state.status == "won" and state.over
    assert state.stock_left == 48 and state.cards_left == 0
    for move in (Play(0), Draw(), Undo(), Restart(), Resign()):
        with pytest.raises(RuleError, match=r"the game is over \(won\)"):
            apply(state, move)
    assert state.legal_moves() == () and not state.can_undo


def stuck_state(make_deal: MakeDeal, tiny: Layout) -> State:
    # Three nines; the last stock card is KS: nothing fits once the stock is spent.
    state = new_game(make_deal("9H 9C 9D", "5D", layout=tiny), WRAP)
    for _ in range(47):
        state = apply(state, Draw())
        assert state.status == "playing"
    return apply(state, Draw())


def test_stuck_when_the_stock_is_empty_and_nothing_fits(make_deal: MakeDeal, tiny: Layout) -> None:
    state = stuck_state(make_deal, tiny)
    assert state.waste_top == parse_card("KS")
    assert state.status == "stuck" and not state.over
    assert state.playable() == ()
    with pytest.raises(RuleError, match="the stock is empty"):
        apply(state, Draw())
    assert {type(m) for m in state.legal_moves()} == {Undo, Restart, Resign}


def test_undo_out_of_stuck(make_deal: MakeDeal, tiny: Layout) -> None:
    state = apply(stuck_state(make_deal, tiny), Undo())
    assert state.status == "playing" and state.stock_left == 1


def test_restart_out_of_stuck(make_deal: MakeDeal, tiny: Layout) -> None:
    state = apply(stuck_state(make_deal, tiny), Restart())
    assert state.status == "playing" and state.stock_left == 48 and state.moves == 48


def test_resign_ends_the_game_as_lost(make_deal: MakeDeal, tiny: Layout) -> None:
    for state in (new_game(from_seed(0, CLASSIC), WRAP), stuck_state(make_deal, tiny)):
        lost = apply(state, Resign())
        assert lost.status == "lost" and lost.over
        assert lost.moves == state.moves and lost.seq == state.seq + 1
        for move in (Play(18), Draw(), Undo(), Restart(), Resign()):
            with pytest.raises(RuleError, match=r"the game is over \(lost\)"):
                apply(lost, move)


def test_seq_counts_every_applied_action() -> None:
    state = new_game(from_seed(6, CLASSIC), WRAP)
    moves: list[Move] = [Draw(), Undo(), Draw(), Restart(), Restart(), Draw(), Resign()]
    for i, move in enumerate(moves, start=1):
        state = apply(state, move)
        assert state.seq == i
    assert state.moves == 4


def test_replay_equals_applying_one_by_one() -> None:
    deal = from_seed(8, CLASSIC)
    moves: list[Move] = [Draw(), Draw(), Undo(), Restart(), Draw()]
    state = new_game(deal, WRAP)
    for move in moves:
        state = apply(state, move)
    assert replay(deal, WRAP, moves) == state
    with pytest.raises(RuleError):
        replay(deal, WRAP, [Undo()])


def test_unknown_move_objects_are_refused() -> None:
    with pytest.raises(RuleError, match="unknown move"):
        apply(new_game(from_seed(0, CLASSIC), WRAP), "draw")  # type: ignore[arg-type]


def test_state_is_frozen() -> None:
    state = new_game(from_seed(0, CLASSIC), WRAP)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.moves = 3  # type: ignore[misc]


# ---------------------------------------------------------------- parse_move


@pytest.mark.parametrize(
    ("data", "move"),
    [
        ({"action": "play", "position": 12}, Play(12)),
        ({"action": "play", "position": 0, "seq": 17}, Play(0)),
        ({"action": "draw"}, Draw()),
        ({"action": "undo"}, Undo()),
        ({"action": "restart"}, Restart()),
        ({"action": "resign"}, Resign()),
        ("draw", Draw()),
        ("undo", Undo()),
        ("restart", Restart()),
        ("resign", Resign()),
    ],
)
def test_parse_move_accepts_the_documented_forms(data: object, move: object) -> None:
    assert parse_move(data) == move


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"action": "play", "position": True}, "whole number, not bool"),
        ({"action": "play", "position": "12"}, "whole number, not str"),
        ({"action": "play", "position": 12.0}, "whole number, not float"),
        ({"action": "play", "position": None}, "whole number"),
        ({"action": "play"}, 'needs a "position"'),
        (
            {"action": "play", "position": 28},
            "no position 28 in this layout: positions run from 0 to 27",
        ),
        ({"action": "play", "position": -1}, "no position -1"),
        ({"action": "fly"}, "unknown action 'fly': use one of play, draw, undo, restart, resign"),
        ({"action": "Draw"}, "unknown action 'Draw'"),
        ({"action": 3}, "unknown action 3"),
        ({"position": 3}, 'needs an "action"'),
        ({"action": "draw", "position": 3}, "draw takes no position"),
        ("play", "a play needs a position"),
        ("jump", "unknown action 'jump'"),
        (" draw", "unknown action"),
        (None, "a move is an object"),
        (12, "a move is an object"),
        (["draw"], "a move is an object"),
    ],
)
def test_parse_move_is_strict(data: object, message: str) -> None:
    with pytest.raises(RuleError) as error:
        parse_move(data, layout=CLASSIC)
    assert message in str(error.value)


def test_parse_move_without_a_layout_allows_positions_up_to_50() -> None:
    assert parse_move({"action": "play", "position": 50}) == Play(50)
    with pytest.raises(RuleError):
        parse_move({"action": "play", "position": 51})


@pytest.mark.parametrize("move", [Play(0), Play(27), Draw(), Undo(), Restart(), Resign()])
def test_move_to_dict_round_trips_through_parse_move(
    move: Play | Draw | Undo | Restart | Resign,
) -> None:
    assert parse_move(move_to_dict(move), layout=CLASSIC) == move
