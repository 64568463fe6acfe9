"""A player's data as JSON (GET /api/me/export): account, statistics, and every game with its move log and result.

Built page by page: ``EXPORT_GAMES_PER_PAGE`` games (oldest first) a document, three queries a
page whatever its size (games with their deals and results, their moves, and on the first page
the statistics). A player with more games follows ``next`` (a cursor) for the rest. Nothing
secret is exported: no deal codes or seeds, no game state (a game in progress has face-down
cards), no password hash, no session keys.
"""

from __future__ import annotations

import base64
import binascii
from collections import defaultdict
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import timezone

from leaderboard.models import PlayerStats, Result
from leaderboard.selectors import result_payload, stats_payload
from tripeaks.play.models import Game, Move

FORMAT = "tripeaks-export/1"
EXPORT_GAMES_PER_PAGE = 1000


class BadCursor(ValueError):
    pass


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _encode(created_at: Any, game_id: Any) -> str:
    raw = f"{created_at.isoformat()}|{game_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode(cursor: str) -> tuple[Any, str]:
    from datetime import datetime
    from uuid import UUID

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
        "date_joined": _iso(user.date_joined),
    }


def _statistics(user: AbstractBaseUser) -> list[dict[str, Any]]:
    rows = PlayerStats.objects.filter(player_id=user.pk).order_by("rules_key")
    return [{"rules": row.rules_key, **stats_payload(row)} for row in rows]


def _result(result: Any) -> dict[str, Any] | None:
    if result is None:
        return None
    return result_payload(result) | {
        "hidden": result.hidden,
        "first_win": result.first_win,
        "new_record": result.new_record,
        "personal_best": result.personal_best,
    }


def export_page(*, user: AbstractBaseUser, cursor: str | None = None) -> dict[str, Any]:
    """One page of the player's export; `next` is the cursor of the next page, or None."""
    games = Game.objects.filter(player_id=user.pk).select_related("deal")
    if cursor:
        at, game_id = _decode(cursor)
        games = games.filter(Q(created_at__gt=at) | Q(created_at=at, id__gt=game_id))
    page = list(games.order_by("created_at", "id")[: EXPORT_GAMES_PER_PAGE + 1])
    more = len(page) > EXPORT_GAMES_PER_PAGE
    page = page[:EXPORT_GAMES_PER_PAGE]
    ids = [game.pk for game in page]
    moves: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for move in Move.objects.filter(game_id__in=ids).order_by("game_id", "seq"):
        moves[move.game_id].append(
            {
                "seq": move.seq,
                "action": move.action,
                "position": move.position,
                "at": _iso(move.at),
                "elapsed_ms": move.elapsed_ms,
            }
        )
    results = {r.game_id: r for r in Result.objects.filter(game_id__in=ids)}
    document: dict[str, Any] = {"format": FORMAT, "exported_at": _iso(timezone.now())}
    if not cursor:
        document["account"] = _account(user)
        document["statistics"] = _statistics(user)
    document["games"] = [
        {
            "id": str(game.pk),
            "deal": {
                "mode": game.deal.source,
                "rules": game.deal.rules_key,
                "layout": game.deal.layout,
                "day": _iso(game.deal.day),
                "number": game.deal.number,
            },
            "status": game.status,
            "moves": game.moves,
            "cards_left": game.cards_left,
            "score": game.score,
            "hints": game.hints,
            "assisted": game.assisted,
            "elapsed_ms": game.elapsed_ms,
            "created_at": _iso(game.created_at),
            "started_at": _iso(game.started_at),
            "finished_at": _iso(game.finished_at),
            "move_log": moves.get(game.pk, []),
            "result": _result(results.get(game.pk)),
        }
        for game in page
    ]
    document["next"] = _encode(page[-1].created_at, page[-1].pk) if more else None
    return document
