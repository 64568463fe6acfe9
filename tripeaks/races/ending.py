"""How a race ends: a player's finish placed (`record_finish`, inside play's finishing
transaction), the race finished (`finalize`: places, ratings, seats freed) and the games still
being played resigned after the commit, each through play's locked path (`end_games`)."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from datetime import datetime
from functools import partial

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from tripeaks.infra.bulk_rows import update_rows
from tripeaks.play import services as play
from tripeaks.play.errors import MoveRefused, SeqConflict
from tripeaks.play.models import Game, Move
from tripeaks.races import rating
from tripeaks.races.errors import RaceOver
from tripeaks.races.models import Race, Seat, SeatStatus, State
from tripeaks.races.race_row import changed

log = logging.getLogger("tripeaks.events")

MIN_RATED = 2  # a race of one player is not rated


def _end_race_games(game_ids: list[str]) -> None:
    """Resign the games still being played when their race ended."""
    end_games(game_ids=game_ids)


# The Celery task (made by a call, not a decorator: Celery ships no types), named as routed.
end_race_games = shared_task(name="tripeaks.races.tasks.end_race_games", acks_late=True)(
    _end_race_games
)


# Places: the winner, then those still playing at the end, then those who gave up (resigned,
# left, or were claimed against as absent), the latest to give up first.
_PLACE_GROUP = {
    SeatStatus.WON: 0,
    SeatStatus.FINISHED: 1,
    SeatStatus.RESIGNED: 2,
    SeatStatus.LEFT: 2,
}


def record_finish(*, game: Game) -> None:
    """`play.signals.game_finished` for a race game, inside play's finishing transaction (the
    game row is locked): place the seat, and end the race when this decides it (a win: the first
    to clear wins; or nobody left playing). A win on a race already over for the seat raises
    `RaceOver` (409 `race_over`), which undoes the whole move."""
    try:
        race_id = uuid.UUID(game.contest.removeprefix("race-"))
    except ValueError:
        return
    race = Race.objects.select_for_update().filter(pk=race_id).first()
    seat = Seat.objects.filter(race_id=race_id, game_id=game.pk).first() if race else None
    if race is None or seat is None:
        return
    now = game.finished_at or timezone.now()
    if race.state != State.RUNNING or seat.status != SeatStatus.PLAYING:
        # The race is over (its end resigns the games left), or the seat was left. A win now
        # came after that, by the race row's lock: refused, or the game would say "won" while
        # its seat keeps the place the end gave it (two finishes at once: one winner).
        if game.status == "won":
            raise RaceOver(
                "the race is over: it ended before this move"
                if race.state != State.RUNNING
                else "you have left this race: this move no longer counts"
            )
        return
    if race.ends_at is not None and now >= race.ends_at:
        finalize(race, race.ends_at)  # the cap came first: this game counts as it stands
        return
    take_numbers(seat, game)
    seat.finished_at = now
    if game.status == "won":
        seat.status = SeatStatus.WON
        seat.save()
        finalize(race, now)
        return
    seat.status = SeatStatus.RESIGNED
    seat.save()
    decided_or_changed(race, now)


def decided_or_changed(race: Race, now: datetime) -> None:
    """After a player of the locked, running race gave up: when one player at most is still
    playing, the race is over (the one left wins: they place first); else its sockets hear of
    the change."""
    if race.entries.filter(status=SeatStatus.PLAYING).count() <= 1:
        finalize(race, now)
    else:
        changed(race)


def take_numbers(seat: Seat, game: Game, times: dict[uuid.UUID, int] | None = None) -> None:
    """Cards left and moves as the game stands; the time is the game's clock when it reached
    that position (its win, or its last stored move that changed the position; 0 before any):
    who got there first ranks first. A resignation changes no position, so resigning late (after
    the cap, before the race is ended) neither costs nor gains time. `times`: `position_times`
    of the game, read already."""
    seat.cards_left, seat.moves = game.cards_left, game.moves
    if game.status == "won":
        seat.time_ms = game.elapsed_ms
        return
    if times is None:
        times = position_times([game.pk])
    seat.time_ms = times.get(game.pk, 0)


def position_times(game_ids: list[uuid.UUID]) -> dict[uuid.UUID, int]:
    """Each game's clock at its last stored move but a resignation (none: left out), in one
    query for the games of a race."""
    if not game_ids:
        return {}
    moves = Move.objects.filter(game_id__in=game_ids).exclude(action="resign")
    last = moves.order_by("game_id", "-seq").distinct("game_id")
    return dict(last.values_list("game_id", "elapsed_ms"))


def finalize(race: Race, now: datetime) -> None:
    """End the locked race: place every seat, rate the race, free the seats; the games still
    being played are resigned after the commit (each in play's own locked path)."""
    seats = list(race.entries.select_related("game"))
    playing = [(s, s.game) for s in seats if s.status == SeatStatus.PLAYING and s.game is not None]
    times = position_times([game.pk for _, game in playing if game.status != "won"])
    for seat, game in playing:
        seat.status = SeatStatus.FINISHED
        take_numbers(seat, game, times)
    ranked = [seat for seat in seats if seat.game_id is not None]
    ranked.sort(key=place_key)
    place, previous = 0, None
    for index, seat in enumerate(ranked):
        if place_key(seat) != previous:
            place, previous = index + 1, place_key(seat)
        seat.place = place
    changes = rating.rate(race=race, seats=ranked) if len(ranked) >= MIN_RATED else {}
    for seat in seats:
        seat.active = False
        change = changes.get(seat.user_id)
        if change is not None:
            seat.rating_before, seat.rating_after = change.before, change.after
    update_rows(
        seats,
        [
            "status",
            "active",
            "place",
            "cards_left",
            "moves",
            "time_ms",
            "rating_before",
            "rating_after",
        ],
    )
    race.state, race.finished_at = State.FINISHED, now
    changed(race)
    unfinished = [s.game.pk for s in ranked if s.game is not None and s.game.finished_at is None]
    if unfinished:
        transaction.on_commit(partial(end_games_later, unfinished))
    log.info("race finished", extra={"race": str(race.pk), "players": len(ranked)})


def place_key(seat: Seat) -> tuple[int, float, int]:
    """A seat's standing at the race's end, smaller first; equal keys share a place. The winner;
    then those playing at the end by cards left, then the clock at which they reached them; then
    those who gave up, the latest first (their cards do not count: giving up ranks below
    everyone still playing, and the first to give up ranks last)."""
    group = _PLACE_GROUP[SeatStatus(seat.status)]
    if group == _PLACE_GROUP[SeatStatus.LEFT]:
        gave_up = seat.finished_at.timestamp() if seat.finished_at is not None else 0.0
        return group, -gave_up, 0
    cards = seat.cards_left if seat.cards_left is not None else 99
    return group, cards, seat.time_ms or 0


def end_games_later(game_ids: list[uuid.UUID]) -> None:
    try:
        end_race_games.delay([str(game_id) for game_id in game_ids])
    except Exception:
        log.warning("could not queue ending a race's games", exc_info=True)
        end_games(game_ids=game_ids)


def end_games(*, game_ids: Sequence[uuid.UUID | str]) -> None:
    """Resign each game still unfinished, through play's locked path (a move stored meanwhile
    moves its seq on: read it again and resign at the new one)."""
    for game_id in game_ids:
        for _ in range(5):
            game = (
                Game.objects.select_related("player")
                .filter(pk=game_id, finished_at__isnull=True)
                .first()
            )
            if game is None:
                break
            try:
                play.apply_move(
                    game_id=game.pk,
                    user=game.player,
                    seq=game.seq,
                    action="resign",
                    by_contest=True,
                )
                break
            except SeqConflict:
                continue
            except MoveRefused:
                break
