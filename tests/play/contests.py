"""Contest games as the contests make them: a race begun now, without sockets or waiting."""

from __future__ import annotations

from typing import Any

from tripeaks.engine.rules import Rules
from tripeaks.play.models import Game
from tripeaks.races import clock
from tripeaks.races import services as races
from tripeaks.races.models import Race, Seat


def begun_race(ann: Any, bob: Any, settings: Any) -> Race:
    """A two-player race of `ann` and `bob`, running: each has their game on its deal."""
    settings.RACE_COUNTDOWN_S = 0
    race = races.create_race(host=ann, rules=Rules(), seats=2)
    races.join_race(race_id=race.pk, user=bob)  # the last seat: the countdown (of 0 s) begins
    # Its start instant has come: this begins it, unless the worker's timer just did.
    clock.advance_race_clock(race_id=race.pk)
    race = Race.objects.select_related("deal").get(pk=race.pk)
    assert race.state == "running"
    return race


def game_of(race: Race, user: Any) -> Game:
    game = Seat.objects.select_related("game").get(race=race, user=user).game
    assert game is not None
    return game
