"""Fair play: ranked deals cannot be rebuilt from anything a player sees; runs faster than a human
are held off the boards and flagged; staff take a player off every board (and every cached board)
at once.

Undo is a move and boards show moves (tests/play/test_moves_api.py, the engine's `moves`); hints
mark a run assisted and unranked: tests/leaderboard/test_ranking.py::
test_assisted_runs_count_in_statistics_but_never_rank and tests/leaderboard/test_game_over.py::
test_a_hinted_win_counts_in_statistics_but_does_not_rank.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from leaderboard import cache, fairplay_model
from leaderboard.models import DealBest, PlayerStats, Result
from tests.leaderboard.helpers import daily, finish, numbered
from tests.leaderboard.test_game_over import winnable_numbered
from tests.play.helpers import client_for, move
from tripeaks.engine.deal import from_seed
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.play import deals
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Game, Move

pytestmark = pytest.mark.django_db


def make(username: str, **fields: Any) -> Any:
    return get_user_model().objects.create_user(
        username=username, password="long password 12", **fields
    )


# --------------------------------------------------------------------------- secret seeds


def _public_guesses(parts: tuple[object, ...]) -> list[int]:
    """Seeds anyone could derive from the public parts of a deal (its kind, day or number,
    rules, layout): plain hashes, HMACs under guessable keys, the numbers themselves."""
    message = ":".join(str(part) for part in parts).encode()
    guesses = []
    for digest in (
        hashlib.sha256(message).digest(),
        hashlib.sha1(message).digest() + b"\0" * 12,
        hashlib.md5(message).digest() + b"\0" * 16,
        *(
            hmac.new(key, message, hashlib.sha256).digest()
            for key in (b"", b"tripeaks", b"secret", b"dev-deal-secret", b"DEAL_SECRET")
        ),
    ):
        guesses += [int.from_bytes(digest[:8], "big") >> 1, int.from_bytes(digest[:8], "big")]
    guesses += [int(p) for p in parts if isinstance(p, int)]
    return guesses


def test_ranked_seeds_cannot_be_rebuilt_from_public_parts() -> None:
    rules = Rules()
    today = deal_day()
    cases = [("daily", today.isoformat(), rules.key, "classic", attempt) for attempt in range(3)]
    cases += [("numbered", "classic", rules.key, n) for n in (1, 2, 777, 50_000)]
    layout = get_layout("classic")
    for parts in cases:
        seed = deals.secret_seed(*parts)
        real = from_seed(seed, layout, rules.start).code
        for guess in _public_guesses(parts):
            assert guess != seed
            assert from_seed(guess, layout, rules.start).code != real


def _texts_a_player_sees(api: Any, game: dict[str, Any], deal: Any) -> list[str]:
    """Every answer a player gets around a ranked game: views, refusals, errors, boards, stats."""
    seen = [json.dumps(game)]
    for step in (
        {"action": "play", "position": 0},  # face down: refused with a message
        {"action": "teleport"},
        {"action": "draw", "seq": 999},
    ):
        seen.append(move(api, game, **step).content.decode())
    for url in (
        f"/api/games/{game['id']}",
        "/api/games/current",
        "/api/today",
        "/api/layouts",
        f"/api/leaderboards/numbered/{deal.number}",
        "/api/me/stats",
        "/api/games/00000000-0000-0000-0000-000000000000",
        "/api/leaderboards/numbered/abc",
    ):
        seen.append(api.get(url).content.decode())
    for body in ({"mode": "numbered", "number": 0}, {"mode": "custom", "deal": "7H 7H"}):
        seen.append(api.post("/api/games", body, format="json").content.decode())
    return seen


def test_no_view_or_error_contains_a_ranked_deals_seed_or_code(settings: Any) -> None:
    api = client_for(make("curious"))
    deal, line = winnable_numbered()
    game = api.post("/api/games", {"mode": "numbered", "number": deal.number}, format="json").json()
    seen = _texts_a_player_sees(api, game, deal)
    for step in line:
        game = move(api, game, step["action"], step.get("position")).json()
        seen.append(json.dumps(game))
    seen += _texts_a_player_sees(api, game, deal)
    stock = " ".join(deal.code.split()[-10:])  # the last undrawn cards, in order
    for text in seen:
        assert str(deal.seed) not in text
        assert format(deal.seed, "x") not in text
        assert deal.code not in text
        assert stock not in text
    assert game["status"] == "won"


# --------------------------------------------------------------------------- timing


def _play_numbered(user: Any, *, human_pace: bool) -> dict[str, Any]:
    api = client_for(user)
    deal, line = winnable_numbered()
    game = api.post("/api/games", {"mode": "numbered", "number": deal.number}, format="json").json()
    for step in line[:-1]:
        game = move(api, game, step["action"], step.get("position")).json()
    if human_pace:  # as if each move had come after a human's think time (the honest model)
        thinks = fairplay_model.honest_run(random.Random(7), moves=len(line))
        at = timezone.now() - timedelta(milliseconds=sum(thinks))
        Game.objects.filter(pk=game["id"]).update(created_at=at, running_since=at)
        for logged, think in zip(Move.objects.filter(game_id=game["id"]), thinks, strict=False):
            at += timedelta(milliseconds=think)
            logged.at = at
            logged.save(update_fields=["at"])
    game = move(api, game, line[-1]["action"], line[-1].get("position")).json()
    assert game["status"] == "won"
    return game


def test_a_whole_deal_faster_than_a_human_is_held_off_the_boards_and_flagged(
    settings: Any,
) -> None:
    settings.FAIR_PLAY_TIMING_CHECK = True
    bot = make("bot")
    game = _play_numbered(bot, human_pace=False)
    result = Result.objects.get(game_id=game["id"])
    assert result.flagged and result.hidden and "median think time" in result.flag_reason
    assert not DealBest.objects.filter(player=bot).exists()
    assert PlayerStats.objects.get(player=bot, rules_key="all").won == 1  # statistics keep it
    board = client_for(bot).get(f"/api/leaderboards/numbered/{result.number}").json()
    assert board["lines"] == [] and board["me"] is None
    staff = client_for(make("referee", is_staff=True))
    listed = staff.get("/api/staff/flagged-runs").json()["results"]
    assert [r["game"] for r in listed] == [game["id"]] and listed[0]["reason"]
    assert client_for(bot).get("/api/staff/flagged-runs").status_code == 403


def test_a_run_at_a_human_pace_ranks(settings: Any) -> None:
    settings.FAIR_PLAY_TIMING_CHECK = True
    human = make("human")
    game = _play_numbered(human, human_pace=True)
    result = Result.objects.get(game_id=game["id"])
    assert not result.flagged and not result.hidden
    assert DealBest.objects.filter(player=human).exists()


# --------------------------------------------------------------------------- staff removal


def test_staff_remove_a_player_from_every_board_and_every_cached_board_at_once(
    django_capture_on_commit_callbacks: Any,
) -> None:
    cheat, honest, referee = make("cheat"), make("honest"), make("ref", is_staff=True)
    boards = [daily(deal_day() - timedelta(days=d)) for d in range(3)] + [numbered(), numbered()]
    for deal in boards:
        finish(cheat, deal, time_ms=1_000, moves=30)
        finish(honest, deal, time_ms=90_000, moves=50)
    redis = cache.client()
    assert redis is not None
    for deal in boards:
        cache.rebuild(deal.pk)
        assert redis.hexists(cache.keys(deal.pk)[1], cheat.pk)

    assert client_for(cheat).post("/api/staff/players/honest/remove-from-boards").status_code == 403
    with django_capture_on_commit_callbacks(execute=True) as after_commit:
        response = client_for(referee).post(
            "/api/staff/players/cheat/remove-from-boards", {"reason": "bot"}, format="json"
        )
    assert len(after_commit) == len(boards)  # one cache drop per board, all at the one commit
    assert response.status_code == 200, response.content
    assert sorted(response.json()["deals"]) == sorted(deal.pk for deal in boards)

    for deal in boards:
        assert not any(redis.exists(key) for key in cache.keys(deal.pk))
        assert list(DealBest.objects.filter(deal=deal).values_list("player", flat=True)) == [
            honest.pk
        ]
    day_board = client_for(honest).get("/api/leaderboards/daily").json()
    assert [line["player"]["username"] for line in day_board["lines"]] == ["honest"]
    assert day_board["me"]["rank"] == 1
    wins = client_for(honest).get("/api/leaderboards/alltime/daily-wins").json()
    assert [line["player"]["username"] for line in wins["lines"]] == ["honest"]
    # Their statistics stay; their next run stays off the boards too.
    assert PlayerStats.objects.get(player=cheat, rules_key="all").played == len(boards)
    later = numbered()
    finish(cheat, later, time_ms=1_000)
    assert not DealBest.objects.filter(player=cheat).exists()
    assert (
        client_for(referee).post("/api/staff/players/nobody/remove-from-boards").status_code == 404
    )
