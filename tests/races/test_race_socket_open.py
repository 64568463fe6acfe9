"""What a race socket's opening costs the database (issue #37 item 3: at a race's start its
players' sockets open in a burst, every one a hop or more to a worker thread of the server).

Its session and user are read with its race, in one hop, once it is in its session's group (so
that one read is also the check against a sign-out meanwhile): before, its user was read in the
handshake, the session looked up again after the group joins, and the race read in a third hop.
Counted over the real application, with a real session cookie."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async as db
from channels.testing import WebsocketCommunicator
from django.test import Client

from tests.play.test_socket_open_hops import database_work
from tests.races.helpers import join, open_race, until
from tripeaks.config.asgi import application
from tripeaks.infra import contest_feed
from tripeaks.infra.socket_sessions import close_sockets_of_session
from tripeaks.races.consumers import CLOSE_UNAUTHORIZED
from tripeaks.races.models import contest_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def signed_in(user: Any) -> str:
    """The session key of a browser signed in as `user`."""
    browser = Client()
    browser.force_login(user)
    return str(browser.cookies["sessionid"].value)


def socket_of(race_id: str, session: str, query: str = "") -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application,
        f"/ws/races/{race_id}/{query}",
        headers=[(b"origin", b"http://localhost"), (b"cookie", f"sessionid={session}".encode())],
    )


def listening(race_id: str) -> int:
    """How many of this event loop's sockets listen to the race's feed."""
    subscriber = contest_feed._subscriber(contest_of(race_id))
    return len(subscriber.handlers.get(contest_feed.channel_of(contest_of(race_id)), ()))


def tables(statements: list[str]) -> list[str]:
    return [sql.split(" FROM ", 1)[1].split()[0].strip('"') for sql in statements]


async def test_an_opening_reads_the_session_the_user_and_the_race_in_one_hop(
    make_player: Any,
) -> None:
    ann, bob = await db(make_player)("h1"), await db(make_player)("h2")
    race = await db(open_race)(ann)
    session = await db(signed_in)(ann)
    with database_work() as work:
        socket = socket_of(race["id"], session)
        assert (await socket.connect())[0]
        first = await socket.receive_json_from(timeout=5)
    assert first["type"] == "race" and first["race"]["state"] == "open"
    # (Before: three hops and five statements, the session read twice.)
    assert work.hops == 1, work.statements
    assert tables(work.statements) == [
        "django_session",
        "accounts_user",
        "races_race",
        "races_seat",
    ]
    # Still a live socket of the race: it hears the race change.
    assert (await db(join)(bob, race)).status_code == 200
    await until(socket, lambda r: len(r["players"]) == 2)
    await socket.disconnect()


async def test_a_socket_of_an_ended_session_is_refused_and_listens_to_nothing(
    make_player: Any,
) -> None:
    ann = await db(make_player)("h3")
    race = await db(open_race)(ann)
    socket = socket_of(race["id"], "no-such-session-key-at-all")
    connected, code = await socket.connect()
    assert not connected and code == CLOSE_UNAUTHORIZED
    assert listening(race["id"]) == 0
    await socket.disconnect()


async def test_signing_out_closes_an_open_race_socket(make_player: Any) -> None:
    ann = await db(make_player)("h4")
    race = await db(open_race)(ann)
    session = await db(signed_in)(ann)
    socket = socket_of(race["id"], session)
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from(timeout=5))["type"] == "race"
    await db(close_sockets_of_session)(session)  # as signing out does
    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": CLOSE_UNAUTHORIZED}
    await socket.disconnect()
    assert listening(race["id"]) == 0


async def test_a_private_race_is_refused_to_a_stranger_and_shown_with_its_code(
    make_player: Any,
) -> None:
    ann, eve = await db(make_player)("h5"), await db(make_player)("h6")
    race = await db(open_race)(ann, public=False)
    session = await db(signed_in)(eve)
    refused = socket_of(race["id"], session)
    connected, code = await refused.connect()
    assert not connected and code == 4404
    assert listening(race["id"]) == 0
    shown = socket_of(race["id"], session, f"?code={race['code']}")
    assert (await shown.connect())[0]
    assert (await shown.receive_json_from(timeout=5))["race"]["id"] == race["id"]
    await shown.disconnect()
