from __future__ import annotations

import pytest

from tripeaks.engine.cards import SORTED_DECK, Card, CardError, card_from_index, parse_card


def test_sorted_deck_is_rank_major_with_suits_c_d_h_s() -> None:
    tokens = [card.token for card in SORTED_DECK]
    assert tokens[:8] == ["AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S"]
    assert tokens[-4:] == ["KC", "KD", "KH", "KS"]
    assert len(tokens) == len(set(tokens)) == 52
    assert " ".join(tokens) == (
        "AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S 7C 7D 7H 7S "
        "8C 8D 8H 8S 9C 9D 9H 9S TC TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS"
    )


def test_index_is_place_in_sorted_deck() -> None:
    for i, card in enumerate(SORTED_DECK):
        assert card.index == i
        assert card_from_index(i) == card


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("AC", 1, "C"),
        ("7H", 7, "H"),
        ("TS", 10, "S"),
        ("ts", 10, "S"),
        ("kd", 13, "D"),
        (" qh ", 12, "H"),
    ],
)
def test_parse_card_accepts_upper_and_lower_case(token: str, rank: int, suit: str) -> None:
    assert parse_card(token) == Card(rank, suit)


@pytest.mark.parametrize("token", ["", "1H", "10H", "7X", "H7", "7HH", "A", "７H", "ßS"])
def test_parse_card_rejects_non_cards_with_a_readable_message(token: str) -> None:
    with pytest.raises(CardError, match="is not a card"):
        parse_card(token)


def test_parse_card_rejects_non_text() -> None:
    with pytest.raises(CardError):
        parse_card(7)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rank", "suit"), [(0, "C"), (14, "C"), (True, "C"), (5, "X"), (5, ""), (5, "CD")]
)
def test_card_rejects_impossible_values(rank: int, suit: str) -> None:
    with pytest.raises(CardError):
        Card(rank, suit)


def test_card_token_and_name() -> None:
    card = parse_card("QS")
    assert card.token == str(card) == "QS"
    assert card.name == "queen of spades"
