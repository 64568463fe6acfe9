"""Play is rate-limited per player and per address, over REST and the game socket alike, in Redis
(shared by every server process), with 429 + Retry-After; a cache outage lets play through."""

from __future__ import annotations

import time
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from tests.play.helpers import client_for, move, start_custom, winnable_code
from tripeaks.config.asgi import application

pytestmark = pytest.mark.django_db

PRODUCTION_RATES = {
    "move": "20/s",
    "move_address": "100/s",
    "game_start": "30/min",
    "game_start_address": "300/min",
    "guest_address": "10/hour",
    "board": "60/min",
    "board_address": "120/min",
    "solver": "20/min",  # hints: one every 3 s on average (tripeaks/play/solver_guard.py)
    "solver_address": "60/min",  # a network address's share, whoever asks
    # The front gate, per address and credential: above a household (tripeaks/infra/front_gate.py)
    "socket_open_address": "10/10s",
    "api_address": "60/s",
    "api_address_minute": "3000/min",
    "api_credential": "30/s",
    "api_credential_minute": "1800/min",
}


def make(username: str) -> Any:
    return get_user_model().objects.create_user(username=username, password="long password 12")


@pytest.fixture
def rates(settings: Any) -> dict[str, str | None]:
    """Small per-minute limits: deterministic within one window of a minute (a burst that must
    meet the limit starts with time left in the window: `in_one_minute_window`)."""
    settings.PLAY_THROTTLE_RATES = {
        "move": "5/min",
        "move_address": "8/min",
        "game_start": "3/min",
        "game_start_address": "5/min",
    }
    return settings.PLAY_THROTTLE_RATES


def test_production_rates_are_far_above_a_human_and_far_below_a_flood() -> None:
    from tripeaks.config import settings as production

    assert production.PLAY_THROTTLE_RATES == PRODUCTION_RATES
    assert production.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] == [
        "tripeaks.infra.throttling.FailOpenAnonRateThrottle",
        "tripeaks.infra.throttling.FailOpenUserRateThrottle",
    ]


def in_one_minute_window(seconds: float = 10) -> None:
    """Returns when at least `seconds` are left in the current minute, the limits' window: a burst that
    straddled two windows was counted afresh in the second (3 starts at :59, 2 more at :00, all
    201 in a make test run)."""
    while 60 - time.time() % 60 < seconds:
        time.sleep(0.1)


def test_moves_over_the_limit_get_429_with_retry_after(rates: Any) -> None:
    player = make("fast")
    api = client_for(player)
    code, line = winnable_code()
    game = start_custom(api, code)
    in_one_minute_window()
    statuses = []
    for step in line[:7]:
        response = move(api, game, **step)
        statuses.append(response.status_code)
        if response.status_code == 200:
            game = response.json()
    assert statuses[:5] == [200] * 5
    assert 429 in statuses[5:]
    refused = move(api, game, **line[len([s for s in statuses if s == 200])])
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "detail" in refused.json() and "throttled" in refused.json()["detail"].lower()


def test_the_address_limit_holds_across_players(rates: Any) -> None:
    # Two players behind one address: 5 each would pass the per-player limit, not the address's 8.
    statuses = []
    for name in ("nat1", "nat2"):
        api = client_for(make(name))
        code, line = winnable_code()
        game = start_custom(api, code)
        for _ in range(5):
            statuses.append(move(api, game, "draw", seq=0).status_code)  # stale after the first
    assert statuses.count(429) >= 1
    assert statuses.count(429) <= 2 or time.localtime().tm_sec < 2


def test_game_starts_over_the_limit_get_429(rates: Any) -> None:
    api = client_for(make("starter"))
    code, _ = winnable_code()
    in_one_minute_window()
    codes = [
        api.post("/api/games", {"mode": "custom", "deal": code}, format="json").status_code
        for _ in range(5)
    ]
    assert codes[:3] == [201] * 3
    assert codes[3:] == [429, 429]


def test_production_move_rate_stops_a_flood_but_not_a_burst(settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = PRODUCTION_RATES
    api = client_for(make("flood"))
    code, _ = winnable_code()
    game = start_custom(api, code)
    started = time.time()
    statuses = [move(api, game, "draw", seq=99).status_code for _ in range(120)]
    windows = int(time.time()) - int(started) + 1
    assert statuses[:20] == [409] * 20 or windows > 1  # a burst of 20 is never refused
    assert statuses.count(429) >= 120 - 20 * windows
    assert set(statuses) <= {409, 429}


def test_a_cache_outage_lets_play_through(rates: Any, monkeypatch: Any) -> None:
    import redis
    from django.core.cache import cache

    from tripeaks.infra import redis_client

    api = client_for(make("outage"))
    code, line = winnable_code()
    game = start_custom(api, code)

    def down(*args: Any, **kwargs: Any) -> Any:
        raise redis.exceptions.ConnectionError("Redis is down")

    # Every Redis call (the cache's, and the limiter's through redis_client) finds Redis gone.
    monkeypatch.setattr(cache._cache, "get_client", down)
    monkeypatch.setattr(redis_client, "client", down)
    for step in line[:8]:  # over the 5/min limit: nothing counts while Redis is away
        response = move(api, game, **step)
        assert response.status_code == 200, response.content
        game = response.json()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_flood_gets_throttle_errors_then_is_closed(settings: Any) -> None:
    from channels.db import database_sync_to_async

    from tripeaks.play import consumers

    settings.PLAY_THROTTLE_RATES = {**PRODUCTION_RATES, "move": "3/min"}
    user = await database_sync_to_async(make)("sockflood")
    code, _ = winnable_code()
    game = await database_sync_to_async(lambda: start_custom(client_for(user), code))()
    socket = WebsocketCommunicator(
        application, f"/ws/games/{game['id']}/", headers=[(b"origin", b"http://localhost")]
    )
    socket.scope["user"] = user
    assert (await socket.connect())[0]
    await socket.receive_json_from()
    for _ in range(3):
        await socket.send_json_to({"type": "sync"})
        assert (await socket.receive_json_from())["type"] == "view"
    await socket.send_json_to({"seq": 0, "action": "draw"})
    refused = await socket.receive_json_from()
    assert refused["type"] == "error" and refused["code"] == "throttled"
    assert 1 <= refused["retry_after"] <= 60 and "Try again" in refused["detail"]
    for _ in range(consumers.MAX_THROTTLED_IN_A_ROW - 1):
        await socket.send_to(text_data="junk")
        assert (await socket.receive_json_from())["code"] == "throttled"
    await socket.send_to(text_data="junk")
    closed = await socket.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": consumers.CLOSE_FLOOD}
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_next_games_on_the_socket_count_against_the_game_start_rate(rates: Any) -> None:
    from channels.db import database_sync_to_async

    from tests.play.helpers import connect

    user = await database_sync_to_async(make)("socketstarts")
    code, _ = winnable_code()
    game = await database_sync_to_async(lambda: start_custom(client_for(user), code))()
    socket = await connect(user, game["id"])
    assert (await socket.connect())[0]
    await socket.receive_json_from()
    answers: list[dict[str, Any]] = []
    # 3 a minute: the REST start and two on the socket, then a refusal (one more window's worth
    # if the minute turns meanwhile).
    while len(answers) < 7 and (not answers or answers[-1]["type"] == "started"):
        await socket.send_json_to({"type": "new", "mode": "custom", "deal": code})
        answers.append(await socket.receive_json_from())
    *started, refused = answers
    assert len(started) >= 2 and all(answer["type"] == "started" for answer in started)
    assert refused["code"] == "throttled" and 1 <= refused["retry_after"] <= 60
    assert "game" not in refused
    await socket.send_json_to({"type": "sync"})
    assert (await socket.receive_json_from())["game"]["id"] == started[-1]["game"]["id"]
    await socket.disconnect()


def test_one_rate_parser_reads_drfs_rates_and_the_play_limits_alike() -> None:
    from tripeaks.infra import limiter
    from tripeaks.infra.throttling import FailOpenUserRateThrottle

    for rate, parsed in (("20/s", (20, 1)), ("30/min", (30, 60)), ("10/hour", (10, 3600))):
        assert limiter.parse_rate(rate) == parsed
        assert FailOpenUserRateThrottle().parse_rate(rate) == parsed
    assert limiter.parse_rate("5/minute") == (5, 60) and limiter.parse_rate(None) is None
