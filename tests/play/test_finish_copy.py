"""A game-ending move worked out on a copy of the game (the game socket's) is stored with its
result only while the game row is still at the copy's seq."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from leaderboard.models import Result
from tests.play.helpers import solution
from tripeaks.engine.rules import Rules
from tripeaks.play import deals, services, steps
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Game, Move
from tripeaks.play.payloads import game_payload
from tripeaks.play.replay import matches_log

pytestmark = pytest.mark.django_db(transaction=True)  # the board's Redis set changes on commit


def _copy_before_the_last_move(user: Any) -> tuple[Game, Any, dict[str, Any]]:
    """A daily game played over the locked path up to its winning move: the game as a socket
    holds it (row and state, read once), and that move."""
    deal = deals.daily_deal(deal_day(), Rules())
    *line, last = solution(deal)
    game = services.start_game(user=user, mode="daily", rules=Rules())
    for seq, step in enumerate(line):
        services.apply_move(game_id=game.pk, user=user, seq=seq, **step)
    copy = Game.objects.select_related("deal", "player").get(pk=game.pk)
    return copy, services.load_game_state(copy), last


def _advance(copy: Game, state: Any, last: dict[str, Any]) -> tuple[int, Any, Any]:
    seq, now = copy.seq, timezone.now()
    step = steps.advance(copy, state, action=last["action"], position=last.get("position"), now=now)
    assert step.state.over
    return seq, step, now


def test_the_ending_move_from_a_copy_is_stored_with_its_result(make_player: Any) -> None:
    user = make_player("copyist")
    copy, state, last = _copy_before_the_last_move(user)
    seq, step, now = _advance(copy, state, last)

    outcome = services.finish_copy(game=copy, step=step, now=now)

    assert outcome is not None and outcome.view["status"] == "won"
    stored = Game.objects.select_related("deal").get(pk=copy.pk)
    assert stored.finished and stored.seq == seq + 1 and matches_log(stored)
    result = Result.objects.get(game=stored)
    assert result.won and result.moves == stored.moves and outcome.view["result"]["board"]
    # What the finish learnt is what reading the finished game again says.
    again = game_payload(stored, services.load_game_state(stored), now)
    assert outcome.view["result"] == again["result"]


def test_a_copy_behind_the_stored_game_stores_nothing(make_player: Any) -> None:
    user = make_player("stale")
    copy, state, last = _copy_before_the_last_move(user)
    # Another tab pauses and resumes the game: the row moves on, the copy does not know.
    for offset, action in enumerate(("pause", "resume")):
        services.apply_move(game_id=copy.pk, user=user, seq=copy.seq + offset, action=action)
    moves_before = Move.objects.filter(game_id=copy.pk).count()
    seq, step, now = _advance(copy, state, last)

    assert services.finish_copy(game=copy, step=step, now=now) is None

    stored = Game.objects.get(pk=copy.pk)
    assert not stored.finished and stored.seq == seq + 2
    assert Move.objects.filter(game_id=copy.pk).count() == moves_before
    assert not Result.objects.filter(game_id=copy.pk).exists()
