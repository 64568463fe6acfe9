"""An ended arena links its players' games to their replays, as a race's results do: the arena's
`replays` (username -> games in the order played), to its players only, once it has ended (the
review's `may_view` opens an arena's games to its players then, and to nobody else)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.arenas.helpers import join, lose_game, running_arena, win_game
from tests.play.helpers import client_for
from tripeaks.arenas.models import Arena

pytestmark = pytest.mark.django_db


def test_an_ended_arena_links_each_players_games_to_their_replays_for_its_players(
    make_player: Any,
) -> None:
    arena = running_arena()
    alice, bob, carol = (client_for(make_player(name)) for name in ("alice", "bob", "carol"))
    join(alice, arena)
    join(bob, arena)
    won, lost = win_game(alice, arena), lose_game(alice, arena)
    bobs = lose_game(bob, arena)
    assert alice.get(f"/api/arenas/{arena.pk}").json()["replays"] is None  # still running

    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now() - timedelta(seconds=1))

    body = bob.get(f"/api/arenas/{arena.pk}").json()
    assert body["replays"] == {
        "alice": [
            {"game": won["id"], "won": True, "points": body["scoring"]["win"]},
            {"game": lost["id"], "won": False, "points": 0},
        ],
        "bob": [{"game": bobs["id"], "won": False, "points": 0}],
    }
    for games in body["replays"].values():  # every link opens for a player of the arena
        for game in games:
            assert bob.get(f"/api/games/{game['game']}/replay").status_code == 200
    # Nobody else is given links the review would refuse them.
    assert carol.get(f"/api/arenas/{arena.pk}").json()["replays"] is None
    assert APIClient().get(f"/api/arenas/{arena.pk}").json()["replays"] is None
    assert carol.get(f"/api/games/{won['id']}/replay").status_code == 404
