"""Writes of ratings: ``rate_race``, and ``settle_held`` when staff decide on a held run.

A race of n players is scored as its pairwise results: each player beat everyone placed below
them (1), drew with everyone sharing their place (0.5) and lost to everyone above (0). Each
player's race is one Glicko-2 rating period of n - 1 games against the other players' ratings
from *before* the race: every new rating is worked out from the old ones, then all are written.

What keeps a rating from being farmed (docs/ratings.md, "Fair ratings"): only accounts are rated,
among themselves; a pair is rated ``settings.RATING_PAIR_LIMIT`` games a day at most; a provisional opponent moves
an established rating ``PROVISIONAL_WEIGHT`` of the way; a run held for staff holds its games
(``PairGame``, state held) until a decision; wins against opponents who never moved flag the
winner (``RatingFlag``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypedDict

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from tripeaks.engine.rules import Rules, RulesError
from tripeaks.infra.bulk_rows import update_rows
from tripeaks.ratings import glicko
from tripeaks.ratings.models import RACE_NAME_MAX, PairGame, Rating, RatingEvent, RatingFlag

# A player's rating is provisional (shown with "?", off the board) until this many rated races.
PROVISIONAL_RACES = 10


def is_provisional(races: int) -> bool:
    return races < PROVISIONAL_RACES


class RecordedChange(TypedDict):
    """What a race did to a player's rating, as its RatingEvent keeps it (selectors.race_changes)."""

    before: float
    after: float
    rd: float
    rd_before: float
    place: int
    shown_before: int
    shown_after: int
    change: int


class ChangeJson(RecordedChange):
    provisional: bool
    races: int


@dataclass(frozen=True)
class RatingChange:
    """What one race did to one player's rating (rating and rd on the Glicko scale)."""

    before: float
    after: float
    rd: float
    provisional: bool
    rd_before: float = glicko.START.rd
    races: int = 0
    place: int = 0

    @property
    def change(self) -> int:
        """The change as the player sees it: the difference of the two shown (rounded) ratings."""
        return round(self.after) - round(self.before)

    def as_json(self) -> ChangeJson:
        """For the results screen: the exact values, and the rounded ones a player reads."""
        return {
            "before": self.before,
            "after": self.after,
            "rd": self.rd,
            "provisional": self.provisional,
            "rd_before": self.rd_before,
            "races": self.races,
            "place": self.place,
            "shown_before": round(self.before),
            "shown_after": round(self.after),
            "change": self.change,
        }


def _score(mine: int, theirs: int) -> float:
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def _check(rules_key: str, placings: Sequence[tuple[int, int]], race: str) -> str:
    if len(race) > RACE_NAME_MAX:
        raise ValueError(f"a race's name is at most {RACE_NAME_MAX} characters")
    try:
        key = Rules.from_key(rules_key).key
    except RulesError as error:
        raise ValueError(str(error)) from None
    users = [user_id for user_id, _ in placings]
    if len(set(users)) != len(users):
        raise ValueError("a player appears twice in the placings")
    if any(
        isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= len(placings)
        for _, place in placings
    ):
        raise ValueError("a place is a whole number from 1 (the best) to the number of players")
    return key


# A pair of accounts is rated at most settings.RATING_PAIR_LIMIT games in PAIR_WINDOW on a rule set.
PAIR_WINDOW = timedelta(hours=24)
# An established player's change from games against provisional opponents is weighted this much
# (a provisional rating says little yet: a fresh account must not move an established one far).
PROVISIONAL_WEIGHT = 0.25
# Rated wins against opponents who never moved (left or resigned at once) in FEEDER_WINDOW that
# flag the winner for staff review.
FEEDER_GAMES = 3
FEEDER_WINDOW = timedelta(days=7)


def pair_limit() -> int:
    return settings.RATING_PAIR_LIMIT


@transaction.atomic
def rate_race(
    *,
    rules_key: str,
    placings: Sequence[tuple[int, int]],
    race: str = "",
    held: Collection[int] = (),
    unmoved: Collection[int] = (),
) -> dict[int, RatingChange]:
    """Rate a finished race: ``placings`` are (user id, place), place 1 the best, ties share one.

    Returns the ``RatingChange`` of each player rated now. Call it inside the transaction that
    finishes the race. ``race`` (optional, e.g. ``"race-17"``) names the race in each player's
    history and makes the rating once-only: a second call for the same race changes nothing and
    returns the changes the first one made.

    Only accounts are rated, among themselves: guests are left out (a race of one account and
    guests rates nobody). A pair that has had ``pair_limit()`` games in ``PAIR_WINDOW`` is not
    rated. The games of a player in ``held`` (a run flagged or held for staff) wait, unrated, until
    staff decide (``settle_held``). ``unmoved``: players who never moved (feeders, if it repeats).

    Rows are locked in user-id order, so concurrent races with players in common wait for each
    other instead of deadlocking, and none loses the other's update.
    """
    key = _check(rules_key, placings, race)
    if len(placings) < 2:
        return {}
    accounts = set(
        get_user_model()
        .objects.filter(pk__in=[user_id for user_id, _ in placings], is_guest=False)
        .values_list("pk", flat=True)
    )
    places = {user_id: place for user_id, place in placings if user_id in accounts}
    users = sorted(places)
    if len(users) < 2:
        return {}
    rows = _lock_rows(key, users)
    if race and PairGame.objects.filter(race=race).exists():
        return _recorded(RatingEvent.objects.filter(race=race, user_id__in=users), rows)
    now = timezone.now()
    games = _pair_games(
        key, places, _pair_counts(key, users, now), race=race, held=held, unmoved=unmoved, now=now
    )
    changes = _rate_games(
        key, rows, [game for game in games if game.state == PairGame.State.RATED], race, now
    )
    PairGame.objects.bulk_create(games)
    _flag_feeders(key, changes, now)
    return changes


def _pair_games(
    key: str,
    places: dict[int, int],
    played: dict[tuple[int, int], int],
    *,
    race: str,
    held: Collection[int],
    unmoved: Collection[int],
    now: datetime,
) -> list[PairGame]:
    """The race's game between each pair of players not yet rated ``pair_limit()`` times: rated
    now, or held while a player in ``held`` waits for staff."""
    users = sorted(places)
    games: list[PairGame] = []
    for index, low in enumerate(users):
        for high in users[index + 1 :]:
            if played.get((low, high), 0) >= pair_limit():
                continue
            waiting = [user_id for user_id in (low, high) if user_id in held]
            games.append(
                PairGame(
                    race=race,
                    rules_key=key,
                    low_id=low,
                    high_id=high,
                    low_place=places[low],
                    high_place=places[high],
                    low_moved=low not in unmoved,
                    high_moved=high not in unmoved,
                    state=PairGame.State.HELD if waiting else PairGame.State.RATED,
                    held_for=waiting,
                    created_at=now,
                )
            )
    return games


@transaction.atomic
def settle_held(*, race: str, user_id: int, accept: bool) -> dict[int, RatingChange]:
    """Staff decided on a held player's run in ``race``: accept rates the games that waited for
    it (once no other held player of the game still waits), against the ratings as they are now;
    hide drops them (they never count). Returns the changes made; nothing waiting: ``{}``."""
    waiting = list(
        PairGame.objects.filter(race=race, state=PairGame.State.HELD).order_by("low_id", "high_id")
    )
    waiting = [game for game in waiting if user_id in game.held_for]
    if not waiting:
        return {}
    users = sorted({game.low_id for game in waiting} | {game.high_id for game in waiting})
    key = waiting[0].rules_key
    rows = _lock_rows(key, users)
    games = list(PairGame.objects.select_for_update().filter(pk__in=[g.pk for g in waiting]))
    released: list[PairGame] = []
    for game in games:
        if game.state != PairGame.State.HELD or user_id not in game.held_for:
            continue  # settled meanwhile
        game.held_for = [other for other in game.held_for if other != user_id]
        if not accept:
            game.state = PairGame.State.DROPPED
        elif not game.held_for:
            game.state = PairGame.State.RATED
            released.append(game)
    # The released games are a rating period of their own, named for the decision (a player's
    # history has one line per race and decision).
    now = timezone.now()
    changes = _rate_games(key, rows, released, f"{race}+{user_id}"[:RACE_NAME_MAX], now)
    update_rows(games, ["held_for", "state"])
    _flag_feeders(key, changes, now)
    return changes


class FlagError(ValueError):
    """A flag decision that cannot be taken (said to staff, nothing changed)."""


@transaction.atomic
def close_flag(*, flag_id: int, staff_id: int, decision: str, note: str) -> RatingFlag:
    """Staff looked at a flagged rating: ``cleared`` leaves it on the board, ``removed`` takes
    the player's rating on that rule set off the public board (the rating itself stays theirs).
    The flag keeps who decided, when and why; a later boost flags the player again."""
    note = note.strip()
    if decision not in RatingFlag.Decision.values:
        raise FlagError("the decision must be 'cleared' or 'removed'")
    if not note:
        raise FlagError("a decision needs a note saying why")
    flag = RatingFlag.objects.select_for_update().filter(pk=flag_id).first()
    if flag is None:
        raise FlagError("no such flag")
    if flag.reviewed:
        raise FlagError("this flag was closed already")
    flag.reviewed, flag.decision, flag.note = True, decision, note[:200]
    flag.reviewed_by_id, flag.reviewed_at = staff_id, timezone.now()
    flag.save(update_fields=["reviewed", "decision", "note", "reviewed_by", "reviewed_at"])
    Rating.objects.filter(user_id=flag.user_id, rules_key=flag.rules_key).update(
        off_board=decision == RatingFlag.Decision.REMOVED
    )
    return flag


def _lock_rows(key: str, users: list[int]) -> dict[int, Rating]:
    # Every player gets a row (first race: the starting rating), inserted in user-id order: two
    # races inserting the same new players wait for each other in the same order.
    Rating.objects.bulk_create(
        [Rating(user_id=user_id, rules_key=key) for user_id in users], ignore_conflicts=True
    )
    return {
        row.user_id: row
        for row in Rating.objects.select_for_update()
        .filter(rules_key=key, user_id__in=users)
        .order_by("user_id")
    }


def _pair_counts(key: str, users: list[int], now: datetime) -> dict[tuple[int, int], int]:
    """How many rated or held games each pair of ``users`` had on the rule set in the window;
    read under the players' row locks, so two races of one pair at once count each other."""
    counted = (
        PairGame.objects.filter(
            rules_key=key,
            low_id__in=users,
            high_id__in=users,
            created_at__gte=now - PAIR_WINDOW,
            state__in=[PairGame.State.RATED, PairGame.State.HELD],
        )
        .values_list("low_id", "high_id")
        .annotate(n=Count("id"))
    )
    return {(low, high): n for low, high, n in counted}


def _rate_games(
    key: str, rows: dict[int, Rating], games: Sequence[PairGame], race: str, now: datetime
) -> dict[int, RatingChange]:
    """Rate ``games`` as one Glicko-2 period per player, every player against the others'
    ratings from before the period; write the rows and the history."""
    met: dict[int, list[tuple[int, float]]] = {}
    places: dict[int, int] = {}
    for game in games:
        low_score = _score(game.low_place, game.high_place)
        met.setdefault(game.low_id, []).append((game.high_id, low_score))
        met.setdefault(game.high_id, []).append((game.low_id, 1.0 - low_score))
        places[game.low_id], places[game.high_id] = game.low_place, game.high_place
    if not met:
        return {}
    old = {
        user_id: glicko.Glicko(row.rating, row.rd, row.volatility) for user_id, row in rows.items()
    }
    provisional = {user_id: is_provisional(row.races) for user_id, row in rows.items()}
    changes: dict[int, RatingChange] = {}
    for user_id in sorted(met):
        new = _period(old[user_id], provisional[user_id], met[user_id], old, provisional)
        row = rows[user_id]
        row.rating, row.rd, row.volatility = new.rating, new.rd, new.volatility
        row.races += 1
        row.updated_at = now
        changes[user_id] = RatingChange(
            before=old[user_id].rating,
            after=new.rating,
            rd=new.rd,
            provisional=is_provisional(row.races),
            rd_before=old[user_id].rd,
            races=row.races,
            place=places[user_id],
        )
    update_rows(
        [rows[user_id] for user_id in changes],
        ["rating", "rd", "volatility", "races", "updated_at"],
    )
    RatingEvent.objects.bulk_create(
        [
            RatingEvent(
                user_id=user_id,
                rules_key=key,
                race=race,
                place=change.place,
                players=len(met[user_id]) + 1,
                rating_before=change.before,
                rating_after=change.after,
                rd_before=change.rd_before,
                rd_after=change.rd,
            )
            for user_id, change in changes.items()
        ]
    )
    return changes


def _period(
    me: glicko.Glicko,
    me_provisional: bool,
    met: list[tuple[int, float]],
    old: dict[int, glicko.Glicko],
    provisional: dict[int, bool],
) -> glicko.Glicko:
    """One player's new rating. An established player's games against provisional opponents
    count ``PROVISIONAL_WEIGHT`` of their full effect: the new rating (and RD, volatility) is the
    one from the established opponents alone, moved that share of the way to the one from all."""
    every = glicko.rate_period(me, [(old[other], score) for other, score in met])
    if me_provisional or not any(provisional[other] for other, _ in met):
        return every
    established = glicko.rate_period(
        me, [(old[other], score) for other, score in met if not provisional[other]]
    )

    def towards(base: float, full: float) -> float:
        return base + PROVISIONAL_WEIGHT * (full - base)

    return glicko.Glicko(
        rating=towards(established.rating, every.rating),
        rd=towards(established.rd, every.rd),
        volatility=towards(established.volatility, every.volatility),
    )


def _flag_feeders(key: str, changes: dict[int, RatingChange], now: datetime) -> None:
    """Flag, for staff, each player who gained here and has ``FEEDER_GAMES`` rated wins against
    opponents who never moved within ``FEEDER_WINDOW`` (one open flag per player and rule set)."""
    gainers = [user_id for user_id, change in changes.items() if change.after > change.before]
    if not gainers:
        return
    wins = PairGame.objects.filter(
        Q(low_id__in=gainers, low_place__lt=F("high_place"), high_moved=False)
        | Q(high_id__in=gainers, high_place__lt=F("low_place"), low_moved=False),
        rules_key=key,
        state=PairGame.State.RATED,
        created_at__gte=now - FEEDER_WINDOW,
    ).values_list("low_id", "high_id", "low_place", "high_place")
    fed_by: dict[int, int] = {}
    for low, high, low_place, high_place in wins:
        winner = low if low_place < high_place else high
        fed_by[winner] = fed_by.get(winner, 0) + 1
    for user_id in gainers:
        fed = fed_by.get(user_id, 0)
        if fed >= FEEDER_GAMES:
            RatingFlag.objects.bulk_create(
                [
                    RatingFlag(
                        user_id=user_id,
                        rules_key=key,
                        reason=(
                            f"{fed} rated wins in {FEEDER_WINDOW.days} days against opponents"
                            " who never moved (resigned or left at once)"
                        ),
                        created_at=now,
                    )
                ],
                ignore_conflicts=True,
            )


def _recorded(events: Iterable[RatingEvent], rows: dict[int, Rating]) -> dict[int, RatingChange]:
    return {
        event.user_id: RatingChange(
            before=event.rating_before,
            after=event.rating_after,
            rd=event.rd_after,
            provisional=is_provisional(rows[event.user_id].races),
            rd_before=event.rd_before,
            races=rows[event.user_id].races,
            place=event.place,
        )
        for event in events
    }
