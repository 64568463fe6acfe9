"""Every rule of who may see a finished game's replay and analysis, attacked: as the owner, a
second account, a guest, signed out, too early, by guessed ids and tokens. A game that may not
be seen is a 404 on the replay AND the analysis, exactly as a game that does not exist."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from tests.review.helpers import DRAWS, client_for, deal, move, played, replay_status
from tripeaks.arenas.models import Arena, Entry
from tripeaks.play.dealday import day_start, deal_day
from tripeaks.play.models import Game
from tripeaks.races.models import Race, Seat
from tripeaks.races.models import State as RaceState
from tripeaks.review.visibility import may_view

pytestmark = pytest.mark.django_db

HIDDEN = (404, 404)


def _at(monkeypatch: pytest.MonkeyPatch, moment: Any) -> None:
    """The server's clock reads `moment` (the deal day is worked out from it)."""
    monkeypatch.setattr(timezone, "now", lambda: moment)


def test_the_player_sees_their_own_finished_game_at_once(alice: Any) -> None:
    game = played(alice, deal("random"))
    assert replay_status(client_for(alice), game) == (200, 202)


def test_an_unfinished_game_is_seen_by_nobody_not_even_its_player(alice: Any, bob: Any) -> None:
    game = played(alice, deal("custom"), finish=False)
    assert replay_status(client_for(alice), game) == HIDDEN
    assert replay_status(client_for(bob), game) == HIDDEN
    assert not may_view(alice, game)


def test_another_players_random_game_is_never_seen(alice: Any, bob: Any) -> None:
    game = played(alice, deal("random"))
    assert replay_status(client_for(bob), game) == HIDDEN
    assert replay_status(client_for(None), game) == HIDDEN


def test_a_guest_sees_their_own_game_and_nobody_elses(alice: Any, make_user: Any) -> None:
    guest = make_user("guest.0123abcd", is_guest=True)
    own, others = played(guest, deal("random")), played(alice, deal("random"))
    assert replay_status(client_for(guest), own) == (200, 202)
    assert replay_status(client_for(guest), others) == HIDDEN


def test_a_daily_run_is_hidden_until_the_day_ends_in_kathmandu(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    today = deal_day()
    game = played(alice, deal("daily", day=today))
    next_day = day_start(today + timedelta(days=1))
    _at(monkeypatch, next_day - timedelta(seconds=1))
    for viewer in (bob, None):
        assert replay_status(client_for(viewer), game) == HIDDEN
    # The player sees their replay at once; its analysis (the answer) waits for the day's end.
    assert replay_status(client_for(alice), game) == (200, 404)
    later = client_for(alice).get(f"/api/games/{game.pk}/analysis").json()
    assert later["code"] == "analysis_later"
    _at(monkeypatch, next_day + timedelta(seconds=1))
    for viewer in (bob, None, alice):
        assert replay_status(client_for(viewer), game) == (200, 202)


def test_a_daily_board_names_its_games_only_once_the_day_has_ended(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    today = deal_day()
    daily = deal("daily", day=today)
    game = played(alice, daily)
    board = f"/api/leaderboards/daily?date={today.isoformat()}&rules={daily.rules_key}"
    for which in ("first", "best"):
        lines = client_for(bob).get(f"{board}&board={which}").json()["lines"]
        assert len(lines) == 1 and "game" not in lines[0]
    mine = client_for(alice).get(board).json()
    assert "game" not in mine["lines"][0]
    _at(monkeypatch, day_start(today + timedelta(days=1)))
    for which in ("first", "best"):
        lines = client_for(None).get(f"{board}&board={which}").json()["lines"]
        assert [line["game"] for line in lines] == [str(game.pk)]
    assert client_for(None).get(f"/api/games/{lines[0]['game']}/replay").status_code == 200


def _race(players: list[Any], on: Any) -> tuple[Race, list[Any]]:
    race = Race.objects.create(
        code=uuid.uuid4().hex[:8],
        host=players[0],
        seats=len(players),
        rules_key=on.rules_key,
        state=RaceState.RUNNING,
        deal=on,
        countdown_s=0,
        cap_s=600,
        starts_at=timezone.now(),
        ends_at=timezone.now() + timedelta(minutes=10),
    )
    games = []
    for player in players:
        game = played(player, on, (), contest=race.group, finish=False)
        Seat.objects.create(race=race, user=player, game=game, status="playing")
        games.append(game)
    return race, games


def test_a_race_is_seen_by_its_players_once_it_has_ended(
    alice: Any, bob: Any, carol: Any, make_user: Any
) -> None:
    dave = make_user("dave")
    race, (first, bobs, daves) = _race([alice, bob, dave], deal("random"))
    for action, position in (*DRAWS, ("resign", None)):
        first = move(alice, first, action, position)
    assert first.finished_at is not None
    assert replay_status(client_for(bob), first) == HIDDEN  # the race goes on for bob and dave
    # Her own replay at once; its analysis (a winning line for the racers still playing) waits.
    assert replay_status(client_for(alice), first) == (200, 404)
    move(bob, bobs, "resign")
    move(dave, daves, "resign")  # nobody left playing: the race ends
    race.refresh_from_db()
    assert race.state == RaceState.FINISHED
    assert replay_status(client_for(bob), first) == (200, 202)
    assert replay_status(client_for(alice), Game.objects.get(pk=bobs.pk)) == (200, 202)
    assert replay_status(client_for(carol), first) == HIDDEN  # not one of its players
    assert replay_status(client_for(None), first) == HIDDEN


def test_an_arena_is_seen_by_its_players_once_it_has_ended(
    alice: Any, bob: Any, carol: Any
) -> None:
    now = timezone.now()
    arena = Arena.objects.create(
        name="test",
        rules_key="wrap-closed",
        starts_at=now - timedelta(minutes=5),
        ends_at=now + timedelta(minutes=5),
        state="running",
    )
    for player in (alice, bob):
        Entry.objects.create(arena=arena, player=player, joined_at=now)
    game = played(alice, deal("random"), contest=arena.group)
    assert replay_status(client_for(bob), game) == HIDDEN
    assert replay_status(client_for(alice), game) == (200, 404)
    Arena.objects.filter(pk=arena.pk).update(ends_at=now - timedelta(seconds=1))
    assert replay_status(client_for(bob), game) == (200, 202)
    assert replay_status(client_for(alice), game) == (200, 202)
    assert replay_status(client_for(carol), game) == HIDDEN
    assert replay_status(client_for(None), game) == HIDDEN


def test_those_who_may_not_see_the_replay_are_not_told_the_analysis_waits(
    alice: Any, bob: Any
) -> None:
    game = played(alice, deal("daily"))
    for viewer in (bob, None):
        body = client_for(viewer).get(f"/api/games/{game.pk}/analysis").json()
        assert body["code"] == "not_found"


def test_guessed_game_ids_are_404_like_hidden_ones(alice: Any) -> None:
    client = client_for(alice)
    for path in ("replay", "analysis"):
        response = client.get(f"/api/games/{uuid.uuid4()}/{path}")
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    hidden = played(alice, deal("custom"), finish=False)
    body = client.get(f"/api/games/{hidden.pk}/replay").json()
    assert body == client.get(f"/api/games/{uuid.uuid4()}/replay").json()


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/not-a-uuid/replay",
        "/api/games/%00/analysis",
        "/api/games/12345678-1234-1234-1234-1234567890123/replay",
        "/api/games/١٢٣/replay",
        "/api/replays/short",
        "/api/replays/" + "a" * 65,
        "/api/replays/abcdefghijklmnop%00",
        "/api/replays/abcdefghijklmnop/analysis/more",
        "/api/replays/ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐ",
    ],
)
def test_hostile_ids_and_tokens_are_404_never_500(alice: Any, path: str) -> None:
    response = client_for(alice).get(path)
    assert response.status_code in (400, 404)
    assert response.json()["detail"]


def test_may_view_takes_no_token_of_another_game(alice: Any, bob: Any) -> None:
    from tripeaks.review.services import create_share_link

    mine, theirs = played(alice, deal("custom")), played(alice, deal("custom"))
    token = create_share_link(game=mine).token
    assert may_view(bob, mine, token) and may_view(AnonymousUser(), mine, token)
    assert not may_view(bob, theirs, token)
    assert not may_view(AnonymousUser(), theirs, token)


def test_before_the_day_ends_no_card_of_a_daily_run_reaches_another_account(
    alice: Any, bob: Any
) -> None:
    """Every route that takes a game id or lists games, asked by a second account while the day
    counts: none answers with a card of alice's run (nor its id, but on her own routes)."""
    from tripeaks.play.services import load_game_state

    daily = deal("daily")
    game = played(alice, daily, [("draw", None)] * 6)
    seen = set(_face_up(load_game_state(game)))
    assert seen
    client = client_for(bob)
    bodies = [
        client.get(f"/api/games/{game.pk}").content,
        client.get(f"/api/games/{game.pk}/replay").content,
        client.get(f"/api/games/{game.pk}/analysis").content,
        client.post(f"/api/games/{game.pk}/share").content,
        client.get("/api/me/games").content,
        client.get(f"/api/leaderboards/daily?rules={daily.rules_key}").content,
        client.get(f"/api/leaderboards/daily?rules={daily.rules_key}&board=best").content,
        client_for(None).get(f"/api/leaderboards/daily?rules={daily.rules_key}").content,
    ]
    for body in bodies:
        text = body.decode()
        assert str(game.pk) not in text
        assert not [card for card in seen if f'"{card}"' in text], text[:200]


def _face_up(state: Any) -> list[str]:
    from tripeaks.engine.view import player_view

    view = player_view(state)
    cards = [slot["card"] for slot in view["positions"] if slot["card"]]
    return [*cards, *([view["waste"]] if view["waste"] else [])]
