"""A service's refusal says the same over the game socket as over REST: the socket's `error` frame
is made by the one converter of a refusal (`api_errors.refusal_frame`, beside
`refusal_response`), with the same `detail`, `code`, `game` and `retry_after` (REST's
`Retry-After`). Before, the socket built its own body in two places of its consumer."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tests.play.helpers import client_for, connect, move, start_custom, winnable_code
from tripeaks.infra.api_errors import refusal_frame, refusal_response
from tripeaks.play import errors
from tripeaks.play.deals import PoolEmpty, RankedDealCopy
from tripeaks.play.move_writer import StoreUnavailable
from tripeaks.play.solver_guard import SolverBusy, SolverThrottled
from tripeaks.races.errors import RaceOver

# Every PlayError a game socket's move or new game can be refused with (the arenas' own are
# refused by their REST views only).
SOCKET_REFUSALS: list[errors.PlayError] = [
    errors.GameNotFound("no such game"),
    errors.MoveRefused("that card is face down"),
    errors.TimeUp("the race is over"),
    errors.SeqConflict("seq 9 is not the game's; it is at 1", view={"seq": 1, "id": "g"}),
    errors.BadRequest("unknown action"),
    RankedDealCopy("a ranked deal cannot be copied"),
    PoolEmpty("no deal is ready"),
    SolverBusy("every solver is busy"),
    SolverThrottled("too many hints: try again in 7 seconds", retry_after=7),
    StoreUnavailable("the moves cannot be stored"),
    RaceOver("the race is over"),
]


def _every_subclass(kind: type) -> set[type]:
    found: set[type] = set()
    for sub in kind.__subclasses__():
        found |= {sub, *_every_subclass(sub)}
    return found


def test_every_play_refusal_is_listed() -> None:
    arenas = {"tripeaks.arenas.errors"}
    listed = {type(error) for error in SOCKET_REFUSALS}
    unlisted = {
        kind
        for kind in _every_subclass(errors.PlayError)
        if kind.__module__ not in arenas and kind.__module__.startswith("tripeaks.")
    }
    assert unlisted <= listed, unlisted - listed


@pytest.mark.parametrize("error", SOCKET_REFUSALS, ids=lambda error: type(error).__name__)
def test_a_socket_refusal_says_what_the_rest_refusal_says(error: errors.PlayError) -> None:
    rest = refusal_response(error)
    frame = refusal_frame(error)
    assert frame.pop("type") == "error"
    retry_after = frame.pop("retry_after", None)
    assert frame == rest.data
    header = rest.headers.get("Retry-After")
    assert retry_after == (None if header is None else int(header))
    assert retry_after == error.retry_after


@pytest.fixture
def started(make_player: Any) -> tuple[Any, Any, dict[str, Any]]:
    user = make_player("refused")
    api = client_for(user)
    code, _line = winnable_code()
    return user, api, start_custom(api, code)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_refused_socket_move_gets_the_rest_answer(started: Any) -> None:
    user, api, game = started
    socket = await connect(user, game["id"])
    connected, _ = await socket.connect()
    assert connected
    await socket.receive_json_from()  # the game as it stands
    for frame in ({"seq": 9, "action": "draw"}, {"seq": 0, "action": "play", "position": 0}):
        refused = await sync_to_async(move)(
            api, game, frame["action"], frame.get("position"), frame["seq"]
        )
        await socket.send_json_to(frame)
        said = await socket.receive_json_from()
        rest = refused.json()
        assert said["type"] == "error"
        assert (said["code"], said["detail"]) == (rest["code"], rest["detail"]), (said, rest)
        assert ("game" in said) == ("game" in rest)
    await socket.disconnect()
