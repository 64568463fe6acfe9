from __future__ import annotations

import pytest

from tripeaks.engine.rules import CLASSIC_RULE_SETS, Rules, RulesError

WRAP = Rules(wrap=True)
NO_WRAP = Rules(wrap=False)


def chain_fits(rules: Rules, ranks: list[int]) -> bool:
    return all(rules.fits(b, a) for a, b in zip(ranks, ranks[1:], strict=False))


def test_one_rank_up_or_down_fits_in_both_directions() -> None:
    for rules in (WRAP, NO_WRAP):
        assert chain_fits(rules, [6, 7, 8, 7, 6, 5])
        assert not rules.fits(7, 7)
        assert not rules.fits(9, 7)
        assert not rules.fits(5, 7)


def test_wrap_connects_king_and_ace_both_ways() -> None:
    assert chain_fits(WRAP, [12, 13, 1, 2])  # Q-K-A-2
    assert chain_fits(WRAP, [13, 1, 2, 1, 13])  # K-A-2-A-K
    assert chain_fits(WRAP, [11, 12, 13, 1, 2])  # J-Q-K-A-2


def test_without_wrap_ranks_stop_at_both_ends() -> None:
    assert not NO_WRAP.fits(1, 13)  # A on K
    assert not NO_WRAP.fits(13, 1)  # K on A
    assert not chain_fits(NO_WRAP, [12, 13, 1, 2])
    assert NO_WRAP.fits(2, 1) and NO_WRAP.fits(12, 13)


def test_wrap_does_not_make_other_gaps_fit() -> None:
    assert not WRAP.fits(12, 1)  # Q on A
    assert not WRAP.fits(2, 13)  # 2 on K


def test_an_empty_waste_takes_any_rank() -> None:
    for rules in (WRAP, NO_WRAP):
        assert all(rules.fits(rank, None) for rank in range(1, 14))


@pytest.mark.parametrize(
    ("key", "rules"),
    [
        ("wrap-closed", Rules()),
        ("wrap-open", Rules(open=True)),
        ("nowrap-closed", Rules(wrap=False)),
        ("nowrap-open", Rules(wrap=False, open=True)),
        ("wrap-closed-empty", Rules(start="empty")),
        ("nowrap-open-empty", Rules(wrap=False, open=True, start="empty")),
    ],
)
def test_rule_keys_round_trip(key: str, rules: Rules) -> None:
    assert rules.key == key
    assert Rules.from_key(key) == rules
    assert Rules.from_key(key.upper()) == rules


@pytest.mark.parametrize(
    "key", ["", "wrap", "wrap-shut", "loop-open", "wrap-open-full", "wrap-open-empty-x"]
)
def test_bad_rule_keys_are_refused(key: str) -> None:
    with pytest.raises(RulesError, match="not a rule set"):
        Rules.from_key(key)


def test_bad_rule_values_are_refused() -> None:
    with pytest.raises(RulesError):
        Rules(start="full")  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        Rules(wrap=1)  # type: ignore[arg-type]


def test_defaults_are_wrap_closed_waste_start() -> None:
    assert Rules() == Rules(wrap=True, open=False, start="waste")
    assert [r.key for r in CLASSIC_RULE_SETS] == [
        "wrap-closed",
        "wrap-open",
        "nowrap-closed",
        "nowrap-open",
    ]
