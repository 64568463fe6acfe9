"""Fair play on the finishing path (docs/fair-play.md): what ``record_result`` must know about a
run before it stores it, asked as extra columns of the query that locks the player's statistics
rows (which runs anyway, so none of this costs a round trip):

- ``excluded``: staff took the player off the boards, or the player is a guest (guests never
  rank: their runs are held off the boards like an excluded player's, and stay so after the guest
  signs up);
- ``earlier``: the player already has a result on this deal (this run is practice, not their first
  try; a game counts once its first move is made, and a player has one unfinished game at a time,
  so their first game with a move is the first to finish);
- ``seen_answer``: the player took a hint in a game on this deal (this one included), or opened
  the solver's lines of a game on it (``AnswerSeen``, the review's reveal): they never rank on it
  again;
- ``shared_device`` / ``shared_address``: another account that started a game on this deal today
  from the same device (cookie id) or network address (a possible second account: held);
- ``actions`` / ``ats``: the move log (server times, as microseconds since the epoch), for the
  think-time check;
  ``positions`` with ``actions``: the run's line (``lines``), whose digest a won run keeps
  (read for a won run only).
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import BooleanField, Field
from django.db.models.expressions import Col
from django.utils import timezone

from leaderboard import fairplay_model
from leaderboard.lines import line_of
from tripeaks.play.dealday import day_start, deal_day

if TYPE_CHECKING:
    from tripeaks.play.models import Game


@dataclass(frozen=True)
class Facts:
    excluded: bool = False
    earlier: bool = False
    seen_answer: bool = False
    shared_device: bool = False
    shared_address: bool = False
    flag_reason: str = ""
    line: tuple[int, ...] = ()  # a won run's line (`lines`); () for any other

    @property
    def hold_reason(self) -> str:
        shared = [
            what
            for what, yes in (
                ("device", self.shared_device),
                ("network address", self.shared_address),
            )
            if yes
        ]
        if not shared:
            return ""
        return f"shares a {' and a '.join(shared)} with another account that played this deal today"


class _ArrayField(Field[Any, Any]):
    """A column the database driver already returns as a list (no conversion)."""

    def get_internal_type(self) -> str:
        return "ArrayField"


def columns(game: Game) -> tuple[str, list[Any]]:
    """The SQL of the answers (see the module's docstring) and their parameters."""
    from tripeaks.play.models import Game

    game_id = Game._meta.pk.get_db_prep_value(game.pk, connections[DEFAULT_DB_ALIAS])
    today = day_start(deal_day())
    params = [
        game.player_id,
        game.player_id,  # excluded (staff, guest)
        game.player_id,
        game.deal_id,  # earlier
        game.player_id,
        game.deal_id,
        game.player_id,
        game.deal_id,  # seen_answer (a hint, the solver's lines)
        game.deal_id,
        game.player_id,
        today,
        game.device or None,  # shared_device
        game.deal_id,
        game.player_id,
        today,
        shared_address(game.address),
        game_id,
        game_id,  # actions, ats
        game.status == "won",  # only a won run's line is kept (`facts`)
        game_id,  # positions
    ]
    return _sql(), params


def shared_address(address: str | None) -> str | None:
    """The address to match other accounts' games by: a public one only. Behind a reverse proxy
    that ``NUM_PROXIES`` does not describe, every client would seem to come from the proxy's
    private address, and every run would be held."""
    if not address:
        return None
    try:
        return address if ipaddress.ip_address(address).is_global else None
    except ValueError:
        return None


@functools.cache
def answer_types() -> tuple[Col, ...]:
    """What each answer column holds, for converting them as the ORM would."""
    return (
        *(Col("x", BooleanField()) for _ in range(5)),
        Col("x", _ArrayField()),
        Col("x", _ArrayField()),
        Col("x", _ArrayField()),
    )


@functools.cache
def _sql() -> str:
    from leaderboard.models import AnswerSeen, BoardExclusion, Result
    from tripeaks.play.models import Game, Move

    quote = connection.ops.quote_name
    games, results, moves = (quote(model._meta.db_table) for model in (Game, Result, Move))
    answers = quote(AnswerSeen._meta.db_table)
    exclusions = quote(BoardExclusion._meta.db_table)
    shared = (
        f"EXISTS (SELECT 1 FROM {games} g WHERE g.deal_id = %s AND g.player_id <> %s"
        " AND g.started_at IS NOT NULL AND g.started_at >= %s AND g.{column} = %s)"
    )
    log = f"FROM {moves} m WHERE m.game_id = %s"
    return ", ".join(
        [
            f"(EXISTS (SELECT 1 FROM {exclusions} x WHERE x.player_id = %s) OR {_guest_sql()})"
            " AS excluded",
            f"EXISTS (SELECT 1 FROM {results} r WHERE r.player_id = %s AND r.deal_id = %s)"
            " AS earlier",
            f"(EXISTS (SELECT 1 FROM {games} g WHERE g.player_id = %s AND g.deal_id = %s"
            f" AND g.hints > 0) OR EXISTS (SELECT 1 FROM {answers} a WHERE a.player_id = %s"
            " AND a.deal_id = %s)) AS seen_answer",
            shared.replace("{column}", "device") + " AS shared_device",
            shared.replace("{column}", "address") + " AS shared_address",
            f"(SELECT array_agg(m.action ORDER BY m.seq) {log}) AS actions",
            # As whole microseconds since the epoch: PostgreSQL's times loaded as datetimes
            # cost the finish 5-10 us of CPU each (Django's loader, in Python), twice a move.
            f"(SELECT array_agg((extract(epoch FROM m.at) * 1000000)::bigint ORDER BY m.seq)"
            f" {log}) AS ats",
            f"CASE WHEN %s THEN (SELECT array_agg(m.position ORDER BY m.seq) {log}) END"
            " AS positions",
        ]
    )


def facts(game: Game, answers: Sequence[Any]) -> Facts:
    """What the answers of `columns` say about the finished `game`."""
    excluded, earlier, seen_answer, shared_device, shared_address, actions, ats, positions = answers
    flag = ""
    if settings.FAIR_PLAY_TIMING_CHECK and actions:
        log = zip(actions, ats, strict=True)
        shown = fairplay_model.microseconds(game.created_at)
        flag = fairplay_model.verdict(fairplay_model.think_times_us(shown, log))
    hold = settings.FAIR_PLAY_HOLD_SHARED
    return Facts(
        excluded=bool(excluded),
        earlier=bool(earlier),
        seen_answer=bool(seen_answer) or game.assisted,
        shared_device=hold and bool(shared_device),
        shared_address=hold and bool(shared_address),
        flag_reason=flag,
        # Only a won run keeps its line's digest (`record_result`): no other's is worked out.
        line=line_of(actions or [], positions or []) if game.status == "won" else (),
    )


def _guest_sql() -> str:
    from django.contrib.auth import get_user_model

    user = get_user_model()
    quote = connection.ops.quote_name
    guest = quote(user._meta.get_field("is_guest").column)
    return (
        f"EXISTS (SELECT 1 FROM {quote(user._meta.db_table)} g"
        f" WHERE g.{quote(user._meta.pk.column)} = %s AND g.{guest})"
    )


# How far back the accounts' games are read for the devices and public addresses they share
# (contests and quick match: docs/fair-play.md, "Contests").
LINK_WINDOW = timedelta(days=30)


def linked_accounts(
    player_ids: Collection[int], *, seen_now: Mapping[int, tuple[str, str | None]] | None = None
) -> dict[int, set[int]]:
    """For each of ``player_ids``: the others among them that started a game in the last
    ``LINK_WINDOW`` from a device or a public address it also played from (the second-account
    rule's facts, across games: one query of their distinct devices and addresses).
    ``seen_now``: a device and address some of them use now, counted like a game's."""
    from tripeaks.play.models import Game

    linked: dict[int, set[int]] = {player: set() for player in player_ids}
    if len(linked) < 2:
        return linked
    seen = list(
        Game.objects.filter(
            player_id__in=list(linked), created_at__gte=timezone.now() - LINK_WINDOW
        )
        .values_list("player_id", "device", "address")
        .distinct()
    )
    seen += [(player, *where) for player, where in (seen_now or {}).items() if player in linked]
    users_of: dict[str, set[int]] = {}
    for player, device, address in seen:
        for mark in (f"d:{device}" if device else "", f"a:{shared_address(address) or ''}"):
            if mark and mark != "a:":
                users_of.setdefault(mark, set()).add(player)
    for players in users_of.values():
        for player in players:
            linked[player] |= players - {player}
    return linked


def linked_reason(player_id: int, linked: Collection[int]) -> str:
    if not linked or not settings.FAIR_PLAY_HOLD_SHARED:
        return ""
    return (
        f"shares a device or network address with another account in this contest ({len(linked)})"
    )


def contest_hold(game: Game) -> str:
    """Why a contest's game (a race's, an arena's) is held for staff as a possible second
    account: another account in the same contest shares a device or public address with its
    player; "" for none. ``record_result`` asks it for every contest game that finishes."""
    from tripeaks.play.models import Game

    if not game.contest or not settings.FAIR_PLAY_HOLD_SHARED:
        return ""
    players = set(
        Game.objects.filter(contest=game.contest).values_list("player_id", flat=True).distinct()
    )
    return linked_reason(
        game.player_id, linked_accounts(players | {game.player_id})[game.player_id]
    )


def contest_holds(games: Sequence[Game]) -> dict[UUID, str]:
    """Why each game of one contest (a race's games) waits for staff, by game id ("" for none):
    the timing check on its move log and the second-account rule among the contest's players,
    the facts ``record_result`` stores on each game's result when it finishes, asked here at once
    for all of them, for a race that must decide before every game has ended."""
    from tripeaks.play.models import Move

    logs: dict[UUID, list[tuple[str, datetime]]] = {game.pk: [] for game in games}
    if settings.FAIR_PLAY_TIMING_CHECK:
        rows = Move.objects.filter(game_id__in=list(logs)).order_by("game_id", "seq")
        for game_id, action, at in rows.values_list("game_id", "action", "at"):
            logs[game_id].append((action, at))
    linked = (
        linked_accounts({game.player_id for game in games})
        if settings.FAIR_PLAY_HOLD_SHARED
        else {}
    )
    reasons: dict[UUID, str] = {}
    for game in games:
        why = [linked_reason(game.player_id, linked.get(game.player_id, set()))]
        if logs[game.pk]:
            times = fairplay_model.think_times(game.created_at, logs[game.pk])
            why.append(fairplay_model.verdict(times))
        reasons[game.pk] = "; ".join(reason for reason in why if reason)
    return reasons
