"""A player's data as JSON (GET /api/me/export): account, statistics, ratings, races, arenas,
and every game with its move log and result.

Built page by page: ``EXPORT_GAMES_PER_PAGE`` games (oldest first) a document, three queries a
page whatever its size (games with their deals, their results, their moves). The first page also
holds the account, the statistics, the ratings with their history (two queries: ratings are a
leaf any app may read) and the sections the contests contribute through play's
``export_sections`` (races: one query; arenas: two), each a fixed number of queries however much
the player played. A player with more games follows ``next`` (a cursor) for the rest. Nothing
secret is exported: no deal codes or seeds, no game state (a game in progress has face-down
cards), no password hash, no session keys, nothing of other players.
"""

from __future__ import annotations

import base64
import binascii
from collections import defaultdict
from datetime import datetime
from typing import Any
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import timezone

from leaderboard.models import PlayerStats, Result
from leaderboard.selectors import result_payload, stats_payload
from tripeaks.play import export_sections
from tripeaks.play.export_sections import iso
from tripeaks.play.models import Game, Move
from tripeaks.ratings.models import Rating, RatingEvent
from tripeaks.ratings.services import is_provisional

FORMAT = "tripeaks-export/1"
EXPORT_GAMES_PER_PAGE = 1000


class BadCursor(ValueError):
    pass


def _encode(created_at: datetime, game_id: UUID) -> str:
    raw = f"{created_at.isoformat()}|{game_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode(cursor: str) -> tuple[datetime, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        when, game_id = raw.split("|")
        at = datetime.fromisoformat(when)
        if at.tzinfo is None:
            raise BadCursor(cursor)
        return at, str(UUID(game_id))
    except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
        raise BadCursor(cursor) from exc


def _account(user: Any) -> dict[str, Any]:
    return {
        "username": user.username,
        "display_name": user.display_name,
        "email": user.email,
        "guest": user.is_guest,
        "date_joined": iso(user.date_joined),
    }


def _statistics(user: AbstractBaseUser) -> list[dict[str, object]]:
    rows = PlayerStats.objects.filter(player_id=user.pk).order_by("rules_key")
    return [{"rules": row.rules_key, **stats_payload(row)} for row in rows]


def _ratings(user: AbstractBaseUser) -> list[dict[str, object]]:
    rows = Rating.objects.filter(user_id=user.pk).order_by("rules_key")
    return [
        {
            "rules": row.rules_key,
            "rating": row.rating,
            "rd": row.rd,
            "volatility": row.volatility,
            "races": row.races,
            "provisional": is_provisional(row.races),
            "updated_at": iso(row.updated_at),
        }
        for row in rows
    ]


def _rating_history(user: AbstractBaseUser) -> list[dict[str, object]]:
    events = RatingEvent.objects.filter(user_id=user.pk).order_by("created_at", "id")
    return [
        {
            "race": event.race,
            "rules": event.rules_key,
            "place": event.place,
            "players": event.players,
            "rating_before": event.rating_before,
            "rating_after": event.rating_after,
            "rd_before": event.rd_before,
            "rd_after": event.rd_after,
            "at": iso(event.created_at),
        }
        for event in events
    ]


def _result(result: Result | None) -> dict[str, object] | None:
    if result is None:
        return None
    return {
        **result_payload(result),
        "hidden": result.hidden,
        "first_win": result.first_win,
        "new_record": result.new_record,
        "personal_best": result.personal_best,
    }


def export_page(*, user: AbstractBaseUser, cursor: str | None = None) -> dict[str, object]:
    """One page of the player's export; `next` is the cursor of the next page, or None."""
    games = Game.objects.filter(player_id=user.pk).select_related("deal")
    if cursor:
        at, game_id = _decode(cursor)
        games = games.filter(Q(created_at__gt=at) | Q(created_at=at, id__gt=game_id))
    page = list(games.order_by("created_at", "id")[: EXPORT_GAMES_PER_PAGE + 1])
    more = len(page) > EXPORT_GAMES_PER_PAGE
    page = page[:EXPORT_GAMES_PER_PAGE]
    ids = [game.pk for game in page]
    moves: dict[UUID, list[dict[str, object]]] = defaultdict(list)
    for move in Move.objects.filter(game_id__in=ids).order_by("game_id", "seq"):
        moves[move.game_id].append(
            {
                "seq": move.seq,
                "action": move.action,
                "position": move.position,
                "at": iso(move.at),
                "elapsed_ms": move.elapsed_ms,
            }
        )
    results = {r.game_id: r for r in Result.objects.filter(game_id__in=ids)}
    document: dict[str, object] = {"format": FORMAT, "exported_at": iso(timezone.now())}
    if not cursor:
        document["account"] = _account(user)
        document["statistics"] = _statistics(user)
        document["ratings"] = _ratings(user)
        document["rating_history"] = _rating_history(user)
        for name, section in export_sections.sections().items():
            document[name] = section(user.pk)
    document["games"] = [
        {
            "id": str(game.pk),
            "deal": {
                "mode": game.deal.source,
                "rules": game.deal.rules_key,
                "layout": game.deal.layout,
                "day": iso(game.deal.day),
                "number": game.deal.number,
            },
            "status": game.status,
            "moves": game.moves,
            "cards_left": game.cards_left,
            "score": game.score,
            "hints": game.hints,
            "assisted": game.assisted,
            "elapsed_ms": game.elapsed_ms,
            "created_at": iso(game.created_at),
            "started_at": iso(game.started_at),
            "finished_at": iso(game.finished_at),
            "move_log": moves.get(game.pk, []),
            "result": _result(results.get(game.pk)),
        }
        for game in page
    ]
    document["next"] = _encode(page[-1].created_at, page[-1].pk) if more else None
    return document
