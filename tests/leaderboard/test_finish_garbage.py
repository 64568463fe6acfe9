"""A finished game (its row and its engine state) is freed when its last reference goes, not at the
cyclic collector's next pass: its result does not hold it in a cycle. The server collects its
youngest generation seldom (tripeaks/config/asgi.py), so every finish's game would wait for that."""

from __future__ import annotations

import gc
import weakref
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from leaderboard.services import record_result
from tests.leaderboard.helpers import daily
from tripeaks.play.models import Game

pytestmark = pytest.mark.django_db


def _finished(player: Any) -> Game:
    now = timezone.now()
    return Game.objects.create(
        player=player,
        deal=daily(now.date()),
        state={"history": [[0, 0, "9S"]]},
        status="won",
        moves=40,
        cards_left=0,
        elapsed_ms=60_000,
        started_at=now - timedelta(minutes=1),
        finished_at=now,
    )


def test_a_finished_game_is_freed_without_the_cyclic_collector(
    django_user_model: Any,
) -> None:
    game = _finished(django_user_model.objects.create(username="p"))
    gc.collect()
    gc.disable()
    try:
        with transaction.atomic():
            result = record_result(game=game)
        freed = weakref.ref(game)
        del game
        assert freed() is None
        del result
    finally:
        gc.enable()
