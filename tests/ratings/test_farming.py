"""Ratings resist farming (issue #34, item 4), at the service: guests are not rated and move
nobody's rating; a pair is rated a few games a day; a provisional opponent moves an established
rating little; wins against opponents who never moved flag the winner; a held run's games wait
for staff."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from tripeaks.ratings import glicko, selectors, services
from tripeaks.ratings.models import PairGame, Rating, RatingEvent, RatingFlag
from tripeaks.ratings.services import rate_race, settle_held

pytestmark = pytest.mark.django_db

RULES = "wrap-closed"


def rating(user: Any) -> float:
    return selectors.rating_of(user.pk, RULES).rating


def honest_wins(count: int) -> float:
    """A new player's rating after `count` wins, each against another new player."""
    me = glicko.START
    for _ in range(count):
        me = glicko.rate_period(me, [(glicko.START, 1.0)])
    return me.rating


def test_twenty_boosting_races_against_one_feeder_gain_what_three_honest_wins_give(
    make_user: Any,
) -> None:
    booster, feeder = make_user(), make_user()
    for number in range(20):
        rate_race(
            rules_key=RULES,
            placings=[(booster.pk, 1), (feeder.pk, 2)],
            race=f"race-boost-{number}",
            unmoved={feeder.pk},
        )
    # Before: every race rated, 1,500 -> 1,889 or more. Now the pair's first three (24 h).
    assert selectors.rating_of(booster.pk, RULES).races == settings.RATING_PAIR_LIMIT == 3
    # 1,753: less than three honest wins against new players give (1,809).
    assert round(rating(booster)) == 1753
    assert rating(booster) < honest_wins(3)
    assert PairGame.objects.filter(low_id=min(booster.pk, feeder.pk)).count() == 3
    # ... and the booster waits for staff: three wins against an opponent who never moved.
    flag = RatingFlag.objects.get(user=booster, rules_key=RULES)
    assert "never moved" in flag.reason and not flag.reviewed
    assert not RatingFlag.objects.filter(user=feeder).exists()


def test_a_guest_feeder_each_race_gives_nothing(make_user: Any) -> None:
    booster = make_user()
    for number in range(15):
        guest = make_user(is_guest=True)
        changes = rate_race(
            rules_key=RULES, placings=[(booster.pk, 1), (guest.pk, 2)], race=f"race-g-{number}"
        )
        assert changes == {}
    assert rating(booster) == 1500.0  # before: 2,055 after 15 races
    assert not Rating.objects.filter(races__gt=0).exists()
    assert not RatingEvent.objects.exists()


def test_an_eight_seat_race_with_seven_guests_gives_nothing(make_user: Any) -> None:
    booster = make_user()
    for number in range(3):
        guests = [make_user(is_guest=True) for _ in range(7)]
        placings = [(booster.pk, 1)] + [(g.pk, 2 + i) for i, g in enumerate(guests)]
        assert rate_race(rules_key=RULES, placings=placings, race=f"race-8-{number}") == {}
    assert rating(booster) == 1500.0  # before: 2,051 after three


def test_a_race_with_guests_rates_the_accounts_among_themselves(make_user: Any) -> None:
    a, b, guest = make_user(), make_user(), make_user(is_guest=True)
    changes = rate_race(rules_key=RULES, placings=[(guest.pk, 1), (a.pk, 2), (b.pk, 3)])
    assert set(changes) == {a.pk, b.pk}
    alone = glicko.rate_period(glicko.START, [(glicko.START, 1.0)])
    assert changes[a.pk].after == pytest.approx(alone.rating)  # beat b; the guest counts nothing
    assert changes[a.pk].place == 2


def test_a_pair_is_rated_three_times_a_day_and_others_still_count(make_user: Any) -> None:
    a, b, c = make_user(), make_user(), make_user()
    for number in range(4):
        rate_race(rules_key=RULES, placings=[(a.pk, 1), (b.pk, 2)], race=f"race-p-{number}")
    assert selectors.rating_of(b.pk, RULES).races == 3
    # The fourth three-way race rates a and b against c only, not against each other.
    changes = rate_race(
        rules_key=RULES, placings=[(a.pk, 1), (b.pk, 2), (c.pk, 3)], race="race-p-three"
    )
    assert set(changes) == {a.pk, b.pk, c.pk}
    assert RatingEvent.objects.get(race="race-p-three", user=a).players == 2
    assert RatingEvent.objects.get(race="race-p-three", user=c).players == 3


def test_a_provisional_opponent_moves_an_established_rating_a_quarter_as_far(
    make_user: Any,
) -> None:
    pro, fresh = make_user(), make_user()
    Rating.objects.create(user=pro, rules_key=RULES, rating=1700, rd=60, volatility=0.06, races=40)
    full = glicko.rate_period(glicko.Glicko(1700, 60, 0.06), [(glicko.START, 1.0)])
    changes = rate_race(rules_key=RULES, placings=[(pro.pk, 1), (fresh.pk, 2)])
    weighted = changes[pro.pk].after - 1700
    assert weighted == pytest.approx(services.PROVISIONAL_WEIGHT * (full.rating - 1700))
    assert 1.0 < weighted < 1.2  # a quarter of the full change, 4.5 points
    # The provisional player moves as much as ever.
    lost = glicko.rate_period(glicko.START, [(glicko.Glicko(1700, 60, 0.06), 0.0)])
    assert changes[fresh.pk].after == pytest.approx(lost.rating)


def test_a_held_players_games_wait_for_staff_and_accept_applies_them(make_user: Any) -> None:
    bot, human, other = make_user(), make_user(), make_user()
    placings = [(bot.pk, 1), (human.pk, 2), (other.pk, 3)]
    changes = rate_race(rules_key=RULES, placings=placings, race="race-h", held={bot.pk})
    # The human and the other player are rated against each other only; the bot not at all.
    assert set(changes) == {human.pk, other.pk}
    assert rating(bot) == 1500.0
    assert selectors.rating_of(human.pk, RULES).races == 1
    human_before = rating(human)
    accepted = settle_held(race="race-h", user_id=bot.pk, accept=True)
    assert set(accepted) == {bot.pk, human.pk, other.pk}
    assert rating(bot) > 1500.0 and rating(human) < human_before
    assert selectors.rating_of(bot.pk, RULES).races == 1
    assert RatingEvent.objects.filter(race=f"race-h+{bot.pk}").count() == 3
    # Decided once: a second decision finds nothing waiting.
    assert settle_held(race="race-h", user_id=bot.pk, accept=True) == {}


def test_a_hidden_players_games_never_count(make_user: Any) -> None:
    bot, human = make_user(), make_user()
    assert (
        rate_race(
            rules_key=RULES, placings=[(bot.pk, 1), (human.pk, 2)], race="race-x", held={bot.pk}
        )
        == {}
    )
    assert settle_held(race="race-x", user_id=bot.pk, accept=False) == {}
    assert rating(bot) == rating(human) == 1500.0
    assert PairGame.objects.get(race="race-x").state == PairGame.State.DROPPED
    # A named race is rated once: calling again does not rate it now.
    assert rate_race(rules_key=RULES, placings=[(bot.pk, 1), (human.pk, 2)], race="race-x") == {}
    assert rating(bot) == 1500.0


def test_held_games_count_toward_the_pair_limit(make_user: Any) -> None:
    bot, human = make_user(), make_user()
    for number in range(3):
        rate_race(
            rules_key=RULES,
            placings=[(bot.pk, 1), (human.pk, 2)],
            race=f"race-l-{number}",
            held={bot.pk},
        )
    assert rate_race(rules_key=RULES, placings=[(bot.pk, 1), (human.pk, 2)], race="race-l-3") == {}


def test_the_pair_limit_is_per_rule_set(make_user: Any) -> None:
    a, b = make_user(), make_user()
    for number in range(4):
        rate_race(rules_key=RULES, placings=[(a.pk, 1), (b.pk, 2)], race=f"race-r-{number}")
    other = rate_race(rules_key="nowrap-open", placings=[(a.pk, 1), (b.pk, 2)], race="race-r-o")
    assert set(other) == {a.pk, b.pk}
    assert selectors.rating_of(a.pk, RULES).races == 3
