"""rate_race: a race of n players is its pairwise results, one Glicko-2 rating period each,
everyone rated against the others' ratings from before the race. Expected values are worked out
here by calling glicko.rate_period (Glickman's published steps) on the pairwise games, independently of the service's own loop."""

from __future__ import annotations

from typing import Any

import pytest

from tripeaks.ratings import glicko, selectors, services
from tripeaks.ratings.models import Rating, RatingEvent
from tripeaks.ratings.services import RatingChange, rate_race

pytestmark = pytest.mark.django_db

RULES = "wrap-closed"


def one_period(
    me: tuple[float, float, float], games: list[tuple[float, float, float]]
) -> glicko.Glicko:
    """Glicko-2's rating after one period against (rating, rd, score) opponents (an opponent's
    volatility plays no part)."""
    return glicko.rate_period(
        glicko.Glicko(*me), [(glicko.Glicko(r, rd, 0.06), s) for r, rd, s in games]
    )


def state(user: Any) -> tuple[float, float, float]:
    row = Rating.objects.filter(user=user, rules_key=RULES).first()
    if row is None:
        return (1500.0, 350.0, 0.06)
    return (row.rating, row.rd, row.volatility)


def test_two_new_players_move_as_glicko_2_says(make_user: Any) -> None:
    winner, loser = make_user(), make_user()
    changes = rate_race(rules_key=RULES, placings=[(winner.pk, 1), (loser.pk, 2)])
    start = (1500.0, 350.0, 0.06)
    won = one_period(start, [(1500.0, 350.0, 1.0)])
    lost = one_period(start, [(1500.0, 350.0, 0.0)])
    assert changes[winner.pk].after == pytest.approx(won.rating, abs=1e-9)
    assert changes[loser.pk].after == pytest.approx(lost.rating, abs=1e-9)
    assert changes[winner.pk].rd == pytest.approx(won.rd, abs=1e-9)
    assert state(winner) == pytest.approx((won.rating, won.rd, won.volatility), abs=1e-9)
    assert state(loser) == pytest.approx((lost.rating, lost.rd, lost.volatility), abs=1e-9)
    # Two equal players: the winner gains what the loser loses (about 163 points at RD 350).
    assert changes[winner.pk].after - 1500 == pytest.approx(1500 - changes[loser.pk].after)
    assert 150 < changes[winner.pk].change < 180
    assert changes[winner.pk] == RatingChange(
        before=1500.0,
        after=changes[winner.pk].after,
        rd=changes[winner.pk].rd,
        provisional=True,
        rd_before=350.0,
        races=1,
        place=1,
    )


def test_a_four_player_race_is_its_pairwise_results_against_ratings_from_before(
    make_user: Any,
) -> None:
    players = [make_user() for _ in range(4)]
    # Give them different ratings first, so whose rating is used matters.
    rate_race(rules_key=RULES, placings=[(players[0].pk, 1), (players[1].pk, 2)])
    rate_race(rules_key=RULES, placings=[(players[2].pk, 1), (players[3].pk, 2)])
    rate_race(rules_key=RULES, placings=[(players[0].pk, 1), (players[2].pk, 2)])
    before = {p.pk: state(p) for p in players}
    # Places: players[3] first, players[1] second, players[0] and players[2] tied third.
    places = {players[3].pk: 1, players[1].pk: 2, players[0].pk: 3, players[2].pk: 3}
    changes = rate_race(rules_key=RULES, placings=list(places.items()))
    for me, place in places.items():
        games = [
            (
                before[other][0],
                before[other][1],
                1.0 if place < theirs else 0.5 if place == theirs else 0.0,
            )
            for other, theirs in places.items()
            if other != me
        ]
        expected = one_period(before[me], games)
        assert changes[me].before == before[me][0]
        assert changes[me].after == pytest.approx(expected.rating, abs=1e-9)
        assert changes[me].rd == pytest.approx(expected.rd, abs=1e-9)
        assert Rating.objects.get(user_id=me, rules_key=RULES).volatility == pytest.approx(
            expected.volatility, abs=1e-12
        )
    assert changes[players[3].pk].after > changes[players[3].pk].before
    assert {e.players for e in RatingEvent.objects.filter(user_id__in=places)} == {2, 4}


def test_equal_players_who_tie_keep_their_rating_and_grow_surer(make_user: Any) -> None:
    one, two = make_user(), make_user()
    changes = rate_race(rules_key=RULES, placings=[(one.pk, 1), (two.pk, 1)])
    for user in (one, two):
        assert changes[user.pk].after == pytest.approx(1500.0, abs=1e-9)
        assert changes[user.pk].change == 0
        assert changes[user.pk].rd < 350


def test_a_shared_first_place_scores_a_draw_between_the_two_and_wins_over_the_rest(
    make_user: Any,
) -> None:
    a, b, c = make_user(), make_user(), make_user()
    changes = rate_race(rules_key=RULES, placings=[(a.pk, 1), (b.pk, 1), (c.pk, 3)])
    start = (1500.0, 350.0, 0.06)
    expected = one_period(start, [(1500.0, 350.0, 0.5), (1500.0, 350.0, 1.0)])
    assert changes[a.pk].after == pytest.approx(expected.rating, abs=1e-9)
    assert changes[b.pk].after == pytest.approx(changes[a.pk].after, abs=1e-9)
    assert changes[c.pk].after < 1500


def test_ratings_are_per_rule_set(make_user: Any) -> None:
    a, b = make_user(), make_user()
    rate_race(rules_key="nowrap-open", placings=[(a.pk, 1), (b.pk, 2)])
    assert selectors.rating_of(a.pk, "nowrap-open").rating > 1500
    assert selectors.rating_of(a.pk, RULES) == selectors.RatingView(1500.0, 350.0, 0, True)


def test_provisional_until_ten_races(make_user: Any) -> None:
    a = make_user()
    for race in range(1, 11):
        # A new opponent each time: a pair is rated a few times a day at most.
        b = make_user()
        changes = rate_race(rules_key=RULES, placings=[(a.pk, 1 + race % 2), (b.pk, 2)])
        assert changes[a.pk].races == race
        assert changes[a.pk].provisional is (race < services.PROVISIONAL_RACES)
        assert selectors.rating_of(a.pk, RULES).provisional is (race < 10)
    view = selectors.rating_of(a.pk, RULES)
    assert view.races == 10 and not view.provisional


def test_a_named_race_is_rated_once(make_user: Any) -> None:
    a, b = make_user(), make_user()
    first = rate_race(rules_key=RULES, placings=[(a.pk, 1), (b.pk, 2)], race="race-7")
    again = rate_race(rules_key=RULES, placings=[(a.pk, 2), (b.pk, 1)], race="race-7")
    assert again == first
    assert selectors.rating_of(a.pk, RULES).races == 1
    assert RatingEvent.objects.filter(race="race-7").count() == 2


def test_the_history_and_the_change_a_results_screen_shows(make_user: Any) -> None:
    a, b = make_user(), make_user()
    change = rate_race(rules_key=RULES, placings=[(a.pk, 1), (b.pk, 2)], race="race-1")[a.pk]
    shown = change.as_json()
    assert shown["change"] == shown["shown_after"] - shown["shown_before"] == change.change
    assert shown["shown_before"] == 1500 and shown["place"] == 1 and shown["provisional"]
    [line] = selectors.history_of(a.pk, RULES)
    assert line["race"] == "race-1" and line["change"] == change.change and line["players"] == 2


@pytest.mark.parametrize(
    ("rules_key", "placings", "message"),
    [
        ("wrap-sideways", [(1, 1), (2, 2)], "rule"),
        (RULES, [(1, 1), (1, 2)], "twice"),
        (RULES, [(1, 0), (2, 1)], "place"),
        (RULES, [(1, True), (2, 1)], "place"),
        (RULES, [(1, 1.5), (2, 1)], "place"),
        (RULES, [(1, 1), (2, 3)], "place"),
        (RULES, [(1, 1), (2, 40000)], "place"),
        (RULES, [(1, 1), (2, 2)], "race"),
    ],
)
def test_bad_placings_are_refused_before_anything_is_written(
    rules_key: str, placings: list[tuple[int, Any]], message: str
) -> None:
    race = "r" * 65 if message == "race" else ""
    with pytest.raises(ValueError, match=message):
        rate_race(rules_key=rules_key, placings=placings, race=race)
    assert not Rating.objects.exists()


def test_a_race_of_one_is_not_rated(make_user: Any) -> None:
    alone = make_user()
    assert rate_race(rules_key=RULES, placings=[(alone.pk, 1)]) == {}
    assert not Rating.objects.exists()


def test_the_rule_set_key_is_stored_in_its_one_spelling(make_user: Any) -> None:
    a, b = make_user(), make_user()
    rate_race(rules_key=" WRAP-Closed ", placings=[(a.pk, 1), (b.pk, 2)])
    assert set(Rating.objects.values_list("rules_key", flat=True)) == {RULES}


def test_a_race_is_a_few_statements_whatever_its_size(
    make_user: Any, django_assert_num_queries: Any
) -> None:
    """Read which players are accounts, insert the missing rows, lock them, look for the race,
    count each pair's recent games, update all, add the history and the pairs' games, look for
    wins against feeders."""
    players = [make_user() for _ in range(8)]
    placings = [(p.pk, i + 1) for i, p in enumerate(players)]
    # The test's own transaction makes the service's atomic block a savepoint (2 statements).
    with django_assert_num_queries(9 + 2):
        rate_race(rules_key=RULES, placings=placings, race="race-big")
    assert RatingEvent.objects.filter(race="race-big").count() == 8


def test_a_rated_race_is_read_back_as_it_was_returned(make_user: Any) -> None:
    a, b, c = make_user(), make_user(), make_user()
    changes = rate_race(rules_key=RULES, placings=[(a.pk, 2), (b.pk, 1), (c.pk, 3)], race="race-9")
    read = selectors.race_changes("race-9")
    assert set(read) == {a.pk, b.pk, c.pk}
    for user_id, change in changes.items():
        shown = change.as_json()
        assert read[user_id] == {k: shown[k] for k in read[user_id]}
    assert selectors.race_changes("race-unrated") == {} == selectors.race_changes("")
