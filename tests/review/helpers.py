"""Finished games for the review's tests, played through play's own services (so the finish
goes through the one recorder and sends `game_finished`), on deals made here."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import date
from typing import Any

from rest_framework.test import APIClient

from tests.play.helpers import winnable_code
from tripeaks.engine.rules import Rules
from tripeaks.play import services
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Deal, Game

# Moves as (action, position): a few plays and draws that any classic deal allows.
DRAWS = (("draw", None), ("draw", None), ("draw", None))


@functools.cache
def _code() -> str:
    return winnable_code()[0]


def deal(source: str, *, day: date | None = None, number: int | None = None) -> Deal:
    """A stored deal with real cards (the solver wins it), of the given source."""
    code = _code()
    fields: dict[str, Any] = {"day": day or deal_day()} if source == "daily" else {}
    if source == "numbered":
        fields["number"] = number or 1
    # Its verdict known, as a proven deal's is: a start queues no solver work for it (its par is
    # left unknown: the analysis searches it).
    return Deal.objects.create(
        source=source,
        rules_key=Rules().key,
        layout="classic",
        code=code,
        winnable=True,
        **fields,
    )


def start(player: Any, on: Deal, contest: str = "") -> Game:
    return services.start_game(
        user=player, mode=on.source, rules=Rules.from_key(on.rules_key), deal=on, contest=contest
    )


def move(player: Any, game: Game, action: str, position: int | None = None) -> Game:
    current = Game.objects.get(pk=game.pk)
    services.apply_move(
        game_id=game.pk, user=player, seq=current.seq, action=action, position=position
    )
    return Game.objects.get(pk=game.pk)


def played(
    player: Any,
    on: Deal,
    moves: Sequence[tuple[str, int | None]] = DRAWS,
    *,
    contest: str = "",
    finish: bool = True,
) -> Game:
    """`player`'s game on `on`: `moves` made, then resigned (unless `finish` is False)."""
    game = start(player, on, contest)
    for action, position in moves:
        game = move(player, game, action, position)
    if finish and game.finished_at is None:
        game = move(player, game, "resign")
    return game


def client_for(user: Any | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def replay_status(client: APIClient, game: Game) -> tuple[int, int]:
    """The replay's and the analysis' status codes for `game` as `client` asks."""
    replay = client.get(f"/api/games/{game.pk}/replay")
    analysis = client.get(f"/api/games/{game.pk}/analysis")
    return replay.status_code, analysis.status_code
