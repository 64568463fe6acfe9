"""The review's reads: a finished game's replay, its stored analysis, a player's recent games,
and the game behind an id or a share token. They neither write nor queue (the views do that
through `queue` and `services`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, cast
from uuid import UUID

from django.core.cache import cache
from django.utils.translation import gettext

from tripeaks.engine import game as engine
from tripeaks.engine.deal import Deal as EngineDeal
from tripeaks.engine.rules import Rules
from tripeaks.engine.view import layout_view, player_view
from tripeaks.play.deals import engine_deal
from tripeaks.play.models import Deal, Game, Move, Source
from tripeaks.play.payloads import rules_payload
from tripeaks.play.replay import engine_move
from tripeaks.review.models import ShareLink, StoredAnalysis
from tripeaks.review.payloads import (
    AnalysisPayload,
    DealSummary,
    GameSummary,
    RecentGame,
    RecentReview,
    ReplayMove,
    ReplayPayload,
)
from tripeaks.review.queue import analysis_key
from tripeaks.review.visibility import still_counts

# The engine moves a replay steps through. Hints, pauses and resumes move no card; a resignation
# ends the game where it stands (the game's status says so), so it is no step of its own.
REPLAYED_ACTIONS = frozenset({"play", "draw", "undo", "restart"})
ReplayedAction = Literal["play", "draw", "undo", "restart"]


def game_by_id(game_id: UUID | str) -> Game | None:
    """The game with its deal and player, finished or not (`visibility.may_view` decides)."""
    return Game.objects.select_related("deal", "player").filter(pk=game_id).first()


def game_by_token(token: str) -> Game | None:
    """The game a live share link points to (None for an unknown or revoked token)."""
    link = (
        ShareLink.objects.select_related("game__deal", "game__player")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )
    return None if link is None else link.game


def live_link(game: Game) -> ShareLink | None:
    return ShareLink.objects.filter(game=game, revoked_at__isnull=True).first()


def deal_label(deal: Deal) -> str:
    if deal.source == Source.DAILY and deal.day is not None:
        return gettext("Daily deal %(day)s") % {"day": deal.day.isoformat()}
    if deal.source == Source.NUMBERED:
        return gettext("Deal #%(n)s") % {"n": deal.number}
    if deal.source == Source.CUSTOM:
        return gettext("Custom deal")
    return gettext("Random deal")


def deal_summary(deal: Deal) -> DealSummary:
    return {
        "source": deal.source,
        "layout": deal.layout,
        "rules_key": deal.rules_key,
        "number": deal.number,
        "day": deal.day.isoformat() if deal.day else None,
        "label": deal_label(deal),
    }


def _player_name(game: Game) -> str:
    player = game.player
    return str(getattr(player, "display_name", "") or player.get_username())


def game_summary(game: Game) -> GameSummary:
    return {
        "id": str(game.pk),
        "player": {"name": _player_name(game)},
        "status": game.status,
        "score": game.score,
        "moves": game.moves,
        "elapsed_ms": game.elapsed_ms,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "deal": deal_summary(game.deal),
    }


@dataclass(frozen=True, slots=True)
class EngineGame:
    """What the analysis needs of a game: its deal, rules and engine moves as played."""

    deal: EngineDeal
    rules: Rules
    moves: tuple[engine.Move, ...]


def _replayed_log(game: Game) -> list[Move]:
    return [logged for logged in game.log.order_by("seq") if logged.action in REPLAYED_ACTIONS]


def engine_game(game: Game, log: Sequence[Move] | None = None) -> EngineGame:
    logged = _replayed_log(game) if log is None else log
    return EngineGame(
        engine_deal(game.deal),
        Rules.from_key(game.deal.rules_key),
        tuple(engine_move(move) for move in logged),
    )


def replay_of(game: Game) -> ReplayPayload:
    """Every position of the game as its player saw it (engine.view.player_view: never a face-down
    card nor the stock ahead), the deal first, then after each move."""
    log = _replayed_log(game)
    played = engine_game(game, log)
    state = engine.new_game(played.deal, played.rules)
    positions = [player_view(state)]
    for move in played.moves:
        state = engine.apply(state, move)
        positions.append(player_view(state))
    moves: list[ReplayMove] = [
        {
            "seq": logged.seq,
            "action": cast(ReplayedAction, logged.action),
            "position": logged.position,
            "elapsed_ms": logged.elapsed_ms,
        }
        for logged in log
    ]
    return {
        "game": game_summary(game),
        "rules": rules_payload(played.rules),
        "layout": layout_view(played.deal.layout),
        "moves": moves,
        "positions": positions,
    }


def stored_analysis(game: Game) -> AnalysisPayload | None:
    stored = StoredAnalysis.objects.filter(game=game).only("payload").first()
    return None if stored is None else cast(AnalysisPayload, stored.payload)


MAX_RECENT = 50


def recent_games(player_id: int, limit: int) -> list[RecentGame]:
    """The player's latest finished games, newest first, each with its review's state: `ready`
    (stored), `later` (stored, held while the deal still counts), `pending` (asked of the
    solver's worker) or `none`."""
    games = list(
        Game.objects.select_related("deal")
        .filter(player_id=player_id, finished_at__isnull=False)
        .order_by("-created_at")[:limit]
    )
    analysed = dict(
        StoredAnalysis.objects.filter(game__in=games).values_list("game_id", "losing_move")
    )
    queued = cache.get_many([analysis_key(game.pk) for game in games])
    return [_recent(game, analysed, queued) for game in games]


def _recent(game: Game, analysed: dict[UUID, int | None], queued: dict[str, object]) -> RecentGame:
    review: RecentReview = {"state": "none", "losing_move": False}
    if game.pk in analysed and still_counts(game):  # the analysis route says analysis_later
        review = {"state": "later", "losing_move": False}
    elif game.pk in analysed:
        review = {"state": "ready", "losing_move": analysed[game.pk] is not None}
    elif analysis_key(game.pk) in queued:
        review = {"state": "pending", "losing_move": False}
    return {
        "id": str(game.pk),
        "deal": deal_summary(game.deal),
        "layout": game.deal.layout,
        "status": game.status,
        "score": game.score,
        "moves": game.moves,
        "elapsed_ms": game.elapsed_ms,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "review": review,
    }
