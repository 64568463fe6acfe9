"""Every attack of issue 15's table, played against the server as a cheater would (REST through
the full middleware stack, the game socket through the ASGI application with WebsocketCommunicator,
real PostgreSQL and Redis), the fair-play check and second-account holds switched on as in
production. Each must fail to rank. The attackers' waits between moves are the server's clock
moved on rather than slept (`ServerClock`, still: the work in between takes none of the server's
time, so a loaded machine's slow answers do not pace the attacker): the server stamps every move at
the time it would have had, and the suite does not wait 40 s for it.

| attack | where | outcome |
|---|---|---|
| A wins with a hint before every move; B replays A's line at 300 ms (another device, network) | REST | B flagged (machine-steady), hidden |
| the same account replays the hint line unassisted | REST | unranked (seen the answer) |
| resume, play, pause for every move, thinking while paused | socket | flagged (median think time from the resumes), hidden |
| one long pause, then a burst at 83-88 ms | socket | flagged (median), hidden |
| a bot at a steady 175 ms | REST | flagged (median), hidden |
| close the socket between moves, move 58 ms after reopening | socket | flagged (median), hidden; clock = time on screen |
| retry the daily until a better run replaces the line | socket (`new`) | practice: the first-try board keeps the first run |
| hinted daily wins to top the all-time boards; a hidden run counting on daily-wins | tests/leaderboard/test_first_try.py::test_all_time_boards_count_clean_first_tries_only | nothing added |
| a second account on the same browser replays the line | tests/leaderboard/test_second_accounts.py | held, seen by its owner only |
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from leaderboard.models import FirstTry, Result
from tests.play.helpers import connect, solution
from tests.play.server_clock import ServerClock, patch_server_clock
from tripeaks.engine.rules import Rules
from tripeaks.infra.devices import DEVICE_COOKIE
from tripeaks.play import deals
from tripeaks.play.dealday import deal_day

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture(autouse=True)
def production_fair_play(settings: Any) -> None:
    settings.FAIR_PLAY_TIMING_CHECK = True
    settings.FAIR_PLAY_HOLD_SHARED = True


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> ServerClock:
    return patch_server_clock(monkeypatch, still=True)


def make(username: str) -> Any:
    return get_user_model().objects.create_user(username=username, password="long password 12")


def rest_player(user: Any, *, device: str, address: str) -> APIClient:
    api = APIClient(REMOTE_ADDR=address)
    api.force_login(user)
    api.cookies[DEVICE_COOKIE] = device
    return api


def today_line() -> list[dict[str, Any]]:
    return solution(deals.daily_deal(deal_day(), Rules()))


def rest_play(
    api: APIClient,
    steps: list[dict[str, Any]],
    *,
    paced: tuple[ServerClock, float] | None = None,
    hints: bool = False,
) -> dict[str, Any]:
    """Play `steps` on today's deal; `paced` (clock, gap): one move every `gap` seconds on that
    clock, as a bot paces itself (a metronome: the server's answer time does not add up)."""
    response = api.post("/api/games", {"mode": "daily"}, format="json")
    assert response.status_code == 201, response.content
    game = response.json()
    beat = paced[0].monotonic() if paced else 0.0
    for step in steps:
        for action in (["hint"] if hints else []) + [step["action"]]:
            if paced:
                clock, gap = paced
                beat += gap
                clock.wait(beat - clock.monotonic())
            body = {"seq": game["seq"], "action": action}
            if action == "play":
                body["position"] = step["position"]
            response = api.post(f"/api/games/{game['id']}/moves", body, format="json")
            assert response.status_code == 200, response.content
            game = response.json()
    return game


def first_try_board() -> list[str]:
    body = APIClient().get("/api/leaderboards/daily").json()
    return [line["player"]["username"] for line in body["lines"]]


def result_of(game: dict[str, Any]) -> Result:
    return Result.objects.get(game_id=game["id"])


def test_a_hinted_line_replayed_at_300_ms_by_another_account_does_not_rank(
    clock: ServerClock,
) -> None:
    line = today_line()
    a = rest_player(make("hinter"), device="a" * 22, address="81.2.69.1")
    won = rest_play(a, line, hints=True)
    assert won["status"] == "won" and won["result"]["attempt"] == "unranked"
    # B on another device and network: only the timing can tell.
    b = rest_player(make("replayer"), device="b" * 22, address="81.2.69.2")
    replay = rest_play(b, line, paced=(clock, 0.3))
    result = result_of(replay)
    assert replay["status"] == "won" and result.flagged and result.hidden, result.flag_reason
    print(f"replay at 300 ms: {result.flag_reason}")
    assert replay["result"]["board"] is None and first_try_board() == []


def test_the_hint_line_replayed_by_the_same_account_does_not_rank() -> None:
    line = today_line()
    a = rest_player(make("peeker"), device="c" * 22, address="81.2.69.3")
    rest_play(a, line, hints=True)
    again = a.post("/api/games", {"mode": "daily"}, format="json").json()
    assert again["ranking"] == "unranked"  # said before the first move
    replay = rest_play(a, line)
    assert replay["status"] == "won" and replay["result"]["attempt"] == "unranked"
    assert replay["result"]["board"] is None and first_try_board() == []
    board = APIClient().get("/api/leaderboards/daily", {"board": "best"}).json()
    assert board["lines"] == []


def test_a_steady_175_ms_bot_does_not_rank(clock: ServerClock) -> None:
    bot = rest_player(make("metronome"), device="d" * 22, address="81.2.69.4")
    game = rest_play(bot, today_line(), paced=(clock, 0.175))
    result = result_of(game)
    assert game["status"] == "won" and result.flagged and result.hidden, result.flag_reason
    assert first_try_board() == []
    print(f"bot at 175 ms: {result.flag_reason}")


# --------------------------------------------------------------------------- over the socket


async def _send(socket: Any, frame: dict[str, Any]) -> dict[str, Any]:
    await socket.send_json_to(frame)
    reply = await socket.receive_json_from(timeout=10)
    assert reply["type"] in ("view", "started"), reply
    return reply["game"]


def _frame(game: dict[str, Any], step: dict[str, Any]) -> dict[str, Any]:
    return {"seq": game["seq"], **step}


async def _socket_game(username: str) -> tuple[Any, Any, dict[str, Any]]:
    user = await database_sync_to_async(make)(username)
    api = APIClient()
    api.force_authenticate(user)
    started = await database_sync_to_async(api.post)("/api/games", {"mode": "daily"}, "json")
    socket = await connect(user, started.json()["id"])
    assert (await socket.connect())[0]
    hello = await socket.receive_json_from()
    assert hello["game"]["ranking"] == "first-try"  # said before the first move
    return user, socket, hello["game"]


@pytest.mark.asyncio
async def test_pausing_between_every_move_and_thinking_while_paused_does_not_rank(
    clock: ServerClock,
) -> None:
    line = await database_sync_to_async(today_line)()
    _, socket, game = await _socket_game("pauser")
    game = await _send(socket, _frame(game, {"action": "pause"}))
    began = clock.monotonic()
    for i, step in enumerate(line):
        clock.wait(0.06)  # thinking, cards hidden
        game = await _send(socket, _frame(game, {"action": "resume"}))
        game = await _send(socket, _frame(game, step))
        if i < len(line) - 1:
            game = await _send(socket, _frame(game, {"action": "pause"}))
    wall_ms = (clock.monotonic() - began) * 1000
    await socket.disconnect()
    assert game["status"] == "won" and game["result"]["board"] is None
    result = await database_sync_to_async(result_of)(game)
    # The clock only ran with the cards shown, so the time is tiny; the check sees why.
    assert result.time_ms < wall_ms / 2
    assert result.flagged and result.hidden and "median think time" in result.flag_reason
    print(
        f"pause per move: ranked clock {result.time_ms} ms over {wall_ms:.0f} ms of wall time;"
        f" {result.flag_reason}"
    )
    assert await database_sync_to_async(first_try_board)() == []


@pytest.mark.asyncio
async def test_one_long_pause_then_a_burst_does_not_rank(clock: ServerClock) -> None:
    line = await database_sync_to_async(today_line)()
    _, socket, game = await _socket_game("burster")
    game = await _send(socket, _frame(game, {"action": "pause"}))
    clock.wait(1.5)  # working the deal out, cards hidden
    game = await _send(socket, _frame(game, {"action": "resume"}))
    for step in line:
        clock.wait(0.085)
        game = await _send(socket, _frame(game, step))
    await socket.disconnect()
    assert game["status"] == "won" and game["result"]["board"] is None
    result = await database_sync_to_async(result_of)(game)
    assert result.flagged and result.hidden and "median think time" in result.flag_reason
    assert await database_sync_to_async(first_try_board)() == []
    print(f"pause, then a burst: {result.flag_reason}")


@pytest.mark.asyncio
async def test_a_bot_closing_its_socket_between_moves_is_flagged_and_timed_on_screen(
    clock: ServerClock,
) -> None:
    """The bot works each move out with its socket closed (the clock stopped: nobody is looking),
    opens it, moves 58 ms later and closes it again. Its clock is its time on screen, and its
    think times are timed from the same moments (the reopening logs a resume), so they stay 58 ms:
    flagged. Before, the clock ran all along and the think times were the bot's 5 s each."""
    line = await database_sync_to_async(today_line)()
    began = clock.monotonic()
    user, socket, game = await _socket_game("closer")
    # The clock runs within [open, closed] of each visit and over [shown, about to close].
    on_screen_most = on_screen_least = 0.0
    opened, shown = began, clock.monotonic()
    for i, step in enumerate(line):
        clock.wait(0.058)
        game = await _send(socket, _frame(game, step))
        if i == len(line) - 1:
            on_screen_least += clock.monotonic() - shown
            on_screen_most += clock.monotonic() - opened
            break
        on_screen_least += clock.monotonic() - shown
        await socket.disconnect(timeout=10)
        on_screen_most += clock.monotonic() - opened
        clock.wait(5)  # working the next move out, nobody looking
        opened = clock.monotonic()
        socket = await connect(user, game["id"])
        assert (await socket.connect())[0]
        game = (await socket.receive_json_from(timeout=10))["game"]
        shown = clock.monotonic()
    await socket.disconnect(timeout=10)
    assert game["status"] == "won" and game["result"]["board"] is None
    result = await database_sync_to_async(result_of)(game)
    # whole milliseconds: the clock keeps its time in them
    assert math.floor(on_screen_least * 1000) <= result.time_ms <= math.ceil(on_screen_most * 1000)
    assert result.flagged and result.hidden and "median think time" in result.flag_reason
    wall_ms = (clock.monotonic() - began) * 1000
    print(
        f"socket closed between moves: ranked clock {result.time_ms} ms (on screen"
        f" {on_screen_least * 1000:.0f}-{on_screen_most * 1000:.0f} ms) over {wall_ms:.0f} ms"
        f" of wall time; {result.flag_reason}"
    )
    assert await database_sync_to_async(first_try_board)() == []


@pytest.mark.asyncio
async def test_retrying_the_daily_until_a_better_run_never_replaces_the_first_try(
    settings: Any,
) -> None:
    settings.FAIR_PLAY_TIMING_CHECK = False  # the retries are at machine speed: not the point here
    line = await database_sync_to_async(today_line)()
    _, socket, game = await _socket_game("retrier")
    game = await _send(socket, _frame(game, {"action": "draw"}))
    for attempt in range(3):  # new deals over the socket: each resigns the one before
        game = await _send(socket, {"type": "new", "mode": "daily"})
        assert game["ranking"] == "practice", attempt
    for step in line:
        game = await _send(socket, _frame(game, step))
    await socket.disconnect()
    assert game["status"] == "won" and game["result"]["attempt"] == "practice"

    def boards() -> tuple[list[Any], list[Any]]:
        first = APIClient().get("/api/leaderboards/daily").json()["lines"]
        best = APIClient().get("/api/leaderboards/daily", {"board": "best"}).json()["lines"]
        return [(x["won"], x["moves"]) for x in first], [(x["won"], x["moves"]) for x in best]

    first, best = await database_sync_to_async(boards)()
    assert first == [(False, 1)]  # the first try: one draw, then resigned by the next start
    assert best == [(True, len(line))]
    assert await database_sync_to_async(FirstTry.objects.count)() == 1
