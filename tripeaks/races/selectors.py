"""Reads of races: what a player may see of a race (never a card, a position or a move list of
anyone: the players' progress is counts), the lobby, a player's history."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NotRequired, TypedDict
from uuid import UUID

from django.utils import timezone

from tripeaks.engine.rules import Rules
from tripeaks.play.payloads import RulesPayload, rules_payload
from tripeaks.play.progress import progress_of
from tripeaks.play.services import load_game_state
from tripeaks.races import absence, presence
from tripeaks.races.models import Race, Seat, SeatStatus, State

# The type of a race frame on the race's feed (`broadcast.publish_race`, read by its sockets).
RACE_EVENT = "race.changed"
# What a race tells of each player's game while it runs (play's progress, minus the game's id).
PROGRESS_FIELDS = ("cards_left", "stock_left", "streak", "moves", "time_ms", "seq")


class RatingLine(TypedDict):
    before: int
    after: int | None  # None while held for staff
    change: int | None
    held: NotRequired[bool]


class PlayerLine(TypedDict):
    username: str
    name: str
    status: str
    cards_left: int | None
    stock_left: int | None
    streak: int | None
    moves: int
    time_ms: int | None
    seq: int | None
    place: int | None
    rating: RatingLine | None
    # Would a claim against this racer be accepted now (`absence.py`, the claim's own rule), and
    # if not, in how many seconds at the soonest (None: no claim can be made against them).
    claimable: bool
    claimable_in_s: float | None
    # Their game, once the race is over: its players open each other's replays from the results
    # (tripeaks/review lets a race's players see its games then, and nobody else).
    game: str | None


class RacePayload(TypedDict):
    id: str
    code: str
    state: str
    host: str
    seats: int
    rules: RulesPayload
    layout: str
    public: bool
    matched: bool
    countdown_s: float
    cap_s: float
    absent_s: float
    starts_at: str | None
    ends_at: str | None
    finished_at: str | None
    created_at: str | None
    server_time: str
    version: int
    rematch_of: str | None
    rematch: str | None
    players: list[PlayerLine]
    game: str | None


# The race for its group, on the contest feed: {"type", "race", "games", "users"}. Its sockets
# read it back as JSON off the feed.
RaceEvent = dict[str, object]


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _player(seat: Seat, race: Race, now: datetime, claim_in: float | None) -> PlayerLine:
    line: PlayerLine = {
        "username": seat.user.username,
        "name": seat.user.public_name,
        "status": seat.status,
        "cards_left": seat.cards_left,
        "stock_left": None,
        "streak": None,
        "moves": seat.moves,
        "time_ms": seat.time_ms,
        "seq": None,
        "place": seat.place,
        "rating": None,
        "claimable": claim_in == 0,
        "claimable_in_s": None if claim_in is None else round(claim_in, 1),
        "game": str(seat.game_id) if race.state == State.FINISHED and seat.game_id else None,
    }
    if (
        race.state == State.RUNNING
        and seat.game_id is not None
        and seat.status == SeatStatus.PLAYING
    ):
        game = seat.game
        assert game is not None
        progress = progress_of(game, load_game_state(game), now)
        line.update(  # PROGRESS_FIELDS
            {
                "cards_left": progress["cards_left"],
                "stock_left": progress["stock_left"],
                "streak": progress["streak"],
                "moves": progress["moves"],
                "time_ms": progress["time_ms"],
                "seq": progress["seq"],
            }
        )
        if progress["status"] == "stuck":
            line["status"] = "stuck"
    if seat.rating_after is not None and seat.rating_before is not None:
        line["rating"] = {
            "before": round(seat.rating_before),
            "after": round(seat.rating_after),
            "change": round(seat.rating_after - seat.rating_before),
        }
    elif seat.rating_before is not None:  # held for staff (docs/fair-play.md, "Contests")
        line["rating"] = {
            "before": round(seat.rating_before),
            "after": None,
            "change": None,
            "held": True,
        }
    return line


def _seats(race: Race) -> list[Seat]:
    # The games (and their deals) only while the race runs: nothing else of them is shown, and
    # joining them cost more CPU than the rest of a race socket's open.
    related = ("user", "game", "game__deal") if race.state == State.RUNNING else ("user",)
    seats = list(race.entries.select_related(*related).order_by("joined_at", "id"))
    if race.state == State.FINISHED:
        seats.sort(key=lambda seat: (seat.place is None, seat.place or 0))
    else:
        seats = [seat for seat in seats if seat.active or seat.game_id is not None]
    return seats


def _begun_seats(race: Race, seats: Sequence[Seat]) -> list[Seat]:
    """`_seats` of a race just begun, from the seats the start holds (each with its user and its
    game, made with the race's deal), and its host from among them."""
    ordered = sorted(seats, key=lambda seat: (seat.joined_at, seat.pk))
    host = next((seat.user for seat in ordered if seat.user_id == race.host_id), None)
    if host is not None:
        race.host = host  # (else read, as any race's host)
    return ordered


def race_payload(
    race: Race,
    *,
    viewer_id: int | None = None,
    seats: list[Seat] | None = None,
    with_claims: bool = True,
    begun: bool = False,
) -> RacePayload:
    """The race as a player sees it. `with_claims`: whether each racer may be claimed against
    (a Redis command and a query for a running race); the lobby's races to watch go without.
    `begun`: the race and its seats as the transaction that began it left them
    (`absence.claim_waits`)."""
    now = timezone.now()
    seats = _seats(race) if seats is None else seats
    waits = absence.claim_waits(race, seats, now, begun=begun) if with_claims else {}
    mine = next((seat for seat in seats if seat.user_id == viewer_id), None)
    # A rematch is opened only once its race is finished: no query for a race still going.
    rematch = (
        Race.objects.filter(rematch_of=race).values_list("id", flat=True).first()
        if race.state == State.FINISHED
        else None
    )
    return {
        "id": str(race.pk),
        "code": race.code,
        "state": race.state,
        "host": race.host.username,
        "seats": race.seats,
        "rules": rules_payload(Rules.from_key(race.rules_key)),
        "layout": race.layout,
        "public": race.public,
        "matched": race.matched,
        "countdown_s": race.countdown_s,
        "cap_s": race.cap_s,
        "absent_s": presence.absent_after_s(),
        "starts_at": _iso(race.starts_at),
        "ends_at": _iso(race.ends_at),
        "finished_at": _iso(race.finished_at),
        "created_at": _iso(race.created_at),
        "server_time": now.isoformat(),
        "version": race.version,
        "rematch_of": str(race.rematch_of_id) if race.rematch_of_id else None,
        "rematch": str(rematch) if rematch else None,
        "players": [_player(seat, race, now, waits.get(seat.user_id)) for seat in seats],
        "game": str(mine.game_id) if mine is not None and mine.game_id else None,
    }


def get_race(race_id: UUID | str) -> Race | None:
    return Race.objects.select_related("host").filter(pk=race_id).first()


def race_event(race_id: UUID | str) -> RaceEvent | None:
    """The race for its group: the public payload, and (for each socket to pick its own, never
    sent on) every player's game id and user id."""
    race = get_race(race_id)
    return None if race is None else race_event_of(race)


def race_event_of(race: Race, begun: Sequence[Seat] | None = None) -> RaceEvent:
    """`race_event` of a race row already read (with its host). `begun`: the seats of a race
    just begun, with their games, as the start made them (the start's event is made of the rows
    it holds, not read again: `clock._begin`)."""
    seats = _seats(race) if begun is None else _begun_seats(race, begun)
    payload = race_payload(race, seats=seats, begun=begun is not None)
    return {
        "type": RACE_EVENT,
        "race": payload,
        "games": {str(seat.user_id): str(seat.game_id) for seat in seats if seat.game_id},
        "users": {str(seat.user_id): seat.user.username for seat in seats},
    }


def lobby(*, limit: int = 50) -> list[RacePayload]:
    """Open public races, newest first."""
    races = Race.objects.select_related("host").filter(state=State.OPEN, public=True)
    return [race_payload(race) for race in races.order_by("-created_at")[:limit]]


def live(*, limit: int = 20) -> list[RacePayload]:
    """Public races counting down or running, the soonest begun first: the lobby's races to
    watch (progress only, as every race payload: a watcher has no game, and sees no card)."""
    races = Race.objects.select_related("host").filter(
        state__in=(State.COUNTDOWN, State.RUNNING), public=True
    )
    ordered = races.order_by("starts_at", "created_at")[:limit]
    return [race_payload(race, with_claims=False) for race in ordered]


def history(user_id: int, *, limit: int = 20) -> list[RacePayload]:
    """The player's finished races, newest first."""
    races = (
        Race.objects.select_related("host")
        .filter(state=State.FINISHED, entries__user_id=user_id, entries__game__isnull=False)
        .order_by("-finished_at")[:limit]
    )
    return [race_payload(race, viewer_id=user_id) for race in races]


def race_by_code(code: str) -> Race | None:
    return Race.objects.select_related("host").filter(code=code.strip().upper()[:8]).first()
