"""Flags count in contests (issue #34, item 3): a race won by a bot (the timing check) or by a
second account (a device or address shared with another player of the race) keeps its places,
but the rating change waits for staff; accepting applies it, hiding drops it. Before: the bot won
+162 / -162 at once, and nothing was held."""

from __future__ import annotations

from typing import Any

import pytest

from leaderboard.models import Result
from leaderboard.selectors.review_queue import runs_to_review
from leaderboard.services.review import review_run
from tests.play.server_clock import still_server_clock
from tests.races.helpers import api, join, open_race, winning_line
from tests.races.test_race_api import begun
from tests.races.test_rating_farming import played_from
from tripeaks.races import ending
from tripeaks.races.models import Race, Seat, State
from tripeaks.ratings import selectors

RULES = "wrap-closed"


def rating(user: Any) -> tuple[int, int]:
    view = selectors.rating_of(user.pk, RULES)
    return round(view.rating), view.races


def bot_wins(bot: Any, human: Any, *, human_draws: bool = False) -> Race:
    """The bot plays the solver's line at machine speed and wins; the human is still thinking
    (or has drawn a card)."""
    race = open_race(bot)
    join(human, race)
    begun(race["id"])
    if human_draws:
        mine = api(human).get(f"/api/races/{race['id']}").json()["game"]
        drawn = api(human).post(
            f"/api/games/{mine}/moves", {"seq": 0, "action": "draw"}, format="json"
        )
        assert drawn.status_code == 200, drawn.content
    game = api(bot).get(f"/api/races/{race['id']}").json()["game"]
    with still_server_clock():  # machine speed on a busy machine too
        for seq, move in enumerate(winning_line(race["id"])):
            answer = api(bot).post(f"/api/games/{game}/moves", {"seq": seq, **move}, format="json")
            assert answer.status_code == 200, answer.content
    row = Race.objects.get(pk=race["id"])
    assert row.state == State.FINISHED
    return row


def seat(race: Race, user: Any) -> Seat:
    return Seat.objects.get(race=race, user=user)


@pytest.fixture
def staff(make_user: Any) -> Any:
    return make_user("referee", is_staff=True)


@pytest.fixture
def timing_on(settings: Any) -> None:
    settings.FAIR_PLAY_TIMING_CHECK = True


@pytest.mark.django_db(transaction=True)
def test_a_bots_race_win_keeps_its_place_but_its_rating_waits_for_staff(
    make_player: Any, staff: Any, timing_on: None
) -> None:
    bot, human = make_player("bot"), make_player("human")
    race = bot_wins(bot, human)
    # The race's own results: the bot finished first, its change held (no "after").
    assert seat(race, bot).place == 1 and seat(race, human).place == 2
    assert seat(race, bot).rating_before == 1500.0 and seat(race, bot).rating_after is None
    assert seat(race, human).rating_after is None
    assert rating(bot) == rating(human) == (1500, 0)  # before: 1662 and 1338
    shown = api(human).get(f"/api/races/{race.pk}").json()
    lines = {line["username"]: line for line in shown["players"]}
    assert lines["bot"]["place"] == 1 and lines["bot"]["status"] == "won"
    assert lines["bot"]["rating"] == {"before": 1500, "after": None, "change": None, "held": True}
    assert lines["human"]["rating"] is None
    # The bot's run waits in the review queue with the timing reason.
    result = Result.objects.get(player=bot, game__contest=race.group)
    assert result.flagged and "think time" in result.flag_reason
    assert [line["player"]["username"] for line in runs_to_review()] == ["bot"]
    review_run(result_id=result.pk, staff=staff, decision="accept", reason="a fast human, seen")
    assert rating(bot) == (1662, 1) and rating(human) == (1338, 1)
    # The player's history shows the accepted change.
    history = api(bot).get("/api/ratings/me").json()["ratings"][0]["history"]
    assert [(line["before"], line["after"]) for line in history] == [(1500, 1662)]


@pytest.mark.django_db(transaction=True)
def test_a_hidden_bot_run_never_moves_a_rating(
    make_player: Any, staff: Any, timing_on: None
) -> None:
    bot, human = make_player("bot"), make_player("human")
    race = bot_wins(bot, human)
    result = Result.objects.get(player=bot, game__contest=race.group)
    review_run(result_id=result.pk, staff=staff, decision="hide", reason="a script")
    assert rating(bot) == rating(human) == (1500, 0)
    assert runs_to_review() == []


@pytest.mark.django_db(transaction=True)
def test_a_race_between_two_accounts_of_one_device_is_held(
    make_player: Any, staff: Any, settings: Any
) -> None:
    settings.FAIR_PLAY_HOLD_SHARED = True
    main, second = make_player("main"), make_player("second")
    played_from(main, device="m" * 22)
    played_from(second, device="m" * 22)
    race = bot_wins(main, second, human_draws=True)
    assert seat(race, main).place == 1
    assert rating(main) == rating(second) == (1500, 0)
    held = Result.objects.get(player=main, game__contest=race.group)
    assert held.held and "another account in this contest" in held.hold_reason
    # The second account's game is resigned after the race (a worker's task, here at once):
    # held as well.
    ending.end_games(game_ids=[seat(race, second).game_id])
    other = Result.objects.get(player=second, game__contest=race.group)
    assert other.held
    assert {line["player"]["username"] for line in runs_to_review()} == {"main", "second"}
    review_run(result_id=held.pk, staff=staff, decision="accept", reason="siblings, checked")
    # The pair's game waits for the second account's run too.
    assert rating(main) == (1500, 0)
    review_run(result_id=other.pk, staff=staff, decision="accept", reason="siblings")
    assert rating(main) == (1662, 1) and rating(second) == (1338, 1)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "its rating change and arena points wait until our staff accept it"),
        ("de", "ihre Wertungsänderung und ihre Arenapunkte warten"),
        ("ne", "रेटिङ परिवर्तन र एरिना अङ्क रोकिन्छन्"),
    ],
)
def test_the_fair_play_page_says_contests_count_flags(lang: str, said: str) -> None:
    from django.test import Client

    page = Client().get("/fair-play/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert said in page
