from __future__ import annotations

import pytest

from tripeaks.engine.cards import SORTED_DECK
from tripeaks.engine.deal import DealError, from_seed, parse_code, shuffled_deck, splitmix64
from tripeaks.engine.layout import CLASSIC

# ---------------------------------------------------------------- an independent re-implementation


class ReferenceSplitMix64:
    """SplitMix64 written out plainly from the issue's formula, independently of the engine."""

    def __init__(self, seed: int) -> None:
        self.state = seed % 2**64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) % 2**64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        return z ^ (z >> 31)


def reference_code(seed: int) -> str:
    deck = [rank + suit for rank in "A23456789TJQK" for suit in "CDHS"]
    numbers = ReferenceSplitMix64(seed)
    i = 51
    while i >= 1:
        j = numbers.next() % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1
    return " ".join(deck)


# Checked against reference_code above; pinned so that a seed means the same deal forever.
PINNED = {
    0: "QH TC 3C JC 4H 7C QC 3D 4S AC 3H 2H 9H 2S KH TH 8H AD 8C 2C 7H 2D JH 6H 5D 9D 6C 4D TD KC 3S 6S JD 5C 7S 6D AH 7D TS QD QS 5S KD 8S KS AS 9C JS 5H 8D 4C 9S",
    1: "5S 3C 5C 9D 6C JS 6S 5H QS 3H 5D 7D AH 4H TC 8H 9C 8D AD 4D QC 4C TH 9S KC KD 6H QH 3S JH 2D 2H TS 2C 7H KS 8S KH TD 7C 6D 4S JD AC AS 7S 2S 3D 8C JC 9H QD",
    2**64
    - 1: "3H KS QD AS 4D TC 5D 7S 7H 5S 5H QC 5C TS JH 9C 4S 4H 9H TD 6C JD JS QS AC QH 7C 6H 2H KH 3C 8D 6S TH 4C 8S 6D 9D 2S 9S 2D 7D JC 8C 3S KD AH 8H KC AD 3D 2C",
    12345: "8S 9H QC QS TS 3D 7D QH 5S 6H 4H 2C 6C 4S 7C QD 2S AH 3C 6D AS 5C 3H KH KC JD 4D 6S 9D 5D KD JH 9S KS AC 8C 2H 5H 7H 4C TD 8D AD JS TH 8H 3S 7S 9C 2D TC JC",
}


def test_splitmix64_well_known_outputs_for_seed_0() -> None:
    expected = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    reference = ReferenceSplitMix64(0)
    assert [reference.next() for _ in range(3)] == expected
    numbers = splitmix64(0)
    assert [next(numbers) for _ in range(3)] == expected


@pytest.mark.parametrize("seed", [0, 1, 42, 12345, 2**63, 2**64 - 1])
def test_splitmix64_matches_the_reference(seed: int) -> None:
    reference = ReferenceSplitMix64(seed)
    numbers = splitmix64(seed)
    for _ in range(100):
        assert next(numbers) == reference.next()


@pytest.mark.parametrize("seed", sorted(PINNED))
def test_pinned_deal_codes(seed: int) -> None:
    assert reference_code(seed) == PINNED[seed]
    assert " ".join(card.token for card in shuffled_deck(seed)) == PINNED[seed]
    assert from_seed(seed, CLASSIC).code == PINNED[seed]


def test_seeded_deal_fills_layout_then_waste_then_stock_in_draw_order() -> None:
    deck = shuffled_deck(12345)
    deal = from_seed(12345, CLASSIC)
    assert deal.layout_cards == deck[:28]
    assert deal.waste == deck[28]
    assert deal.stock == deck[29:]
    assert len(deal.stock) == 23


def test_empty_start_deal_has_no_waste_and_a_longer_stock() -> None:
    deck = shuffled_deck(7)
    deal = from_seed(7, CLASSIC, start="empty")
    assert deal.waste is None
    assert deal.start == "empty"
    assert deal.layout_cards == deck[:28]
    assert deal.stock == deck[28:]
    assert deal.code == " ".join(card.token for card in deck)


@pytest.mark.parametrize("seed", [-1, 2**64, True, 1.0, "7"])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(DealError, match="seed"):
        from_seed(seed, CLASSIC)  # type: ignore[arg-type]


def test_deal_code_round_trips() -> None:
    for seed in PINNED:
        deal = from_seed(seed, CLASSIC)
        assert parse_code(deal.code, CLASSIC) == deal
    empty = from_seed(3, CLASSIC, start="empty")
    assert parse_code(empty.code, CLASSIC, start="empty") == empty


def test_deal_code_accepts_lower_case_and_any_whitespace() -> None:
    code = PINNED[0]
    messy = "  " + code.lower().replace(" ", " \t\n ", 5) + "\n"
    assert parse_code(messy, CLASSIC).code == code


def test_deal_code_with_wrong_count_is_refused() -> None:
    tokens = PINNED[0].split()
    with pytest.raises(DealError, match="52 cards.*this one has 51"):
        parse_code(" ".join(tokens[:-1]), CLASSIC)
    with pytest.raises(DealError, match="this one has 53"):
        parse_code(PINNED[0] + " AC", CLASSIC)
    with pytest.raises(DealError, match="this one has 0"):
        parse_code("", CLASSIC)


def test_deal_code_with_duplicates_is_refused() -> None:
    tokens = PINNED[0].split()
    tokens[-1] = tokens[0]  # QH twice, 9S missing
    with pytest.raises(DealError, match="QH appears twice"):
        parse_code(" ".join(tokens), CLASSIC)


@pytest.mark.parametrize("bad", ["10H", "ZZ", "7X", "Q"])
def test_deal_code_with_unknown_tokens_is_refused(bad: str) -> None:
    tokens = PINNED[0].split()
    tokens[4] = bad
    with pytest.raises(DealError, match=f"card 5 of the deal code: '{bad}' is not a card"):
        parse_code(" ".join(tokens), CLASSIC)


def test_deal_code_that_is_not_text_is_refused() -> None:
    with pytest.raises(DealError):
        parse_code(None, CLASSIC)  # type: ignore[arg-type]


def test_every_seed_gives_a_permutation_of_the_deck() -> None:
    for seed in range(50):
        assert sorted(shuffled_deck(seed)) == list(SORTED_DECK)
