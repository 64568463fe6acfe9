"""Sockets end with their session: signing out closes that session's game and board sockets (and
no one else's); a password change closes the other sessions' sockets (`close_sockets_of_user`
closes a player's sockets but one session's); a session ended while a socket was opening cannot
keep it open."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from tests.play.helpers import client_for, start_custom, winnable_code
from tripeaks.config.asgi import application
from tripeaks.infra.socket_sessions import CLOSE_SESSION_ENDED, close_sockets_of_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

BOARD = "/ws/leaderboards/daily/wrap-closed/"


def signed_in_browser(user: Any) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


async def open_socket(path: str, browser: Client) -> WebsocketCommunicator:
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    socket = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)]
    )
    connected, _ = await socket.connect()
    assert connected
    await socket.receive_json_from(timeout=5)  # the game's view or the board
    return socket


async def closed_with(socket: WebsocketCommunicator) -> int | None:
    output = await socket.receive_output()
    assert output["type"] == "websocket.close", output
    return output.get("code")


@pytest.fixture
def player_and_game() -> tuple[Any, str]:
    user = get_user_model().objects.create_user(username="sessy", password="long password 12")
    code, _ = winnable_code()
    return user, start_custom(client_for(user), code)["id"]


async def test_signing_out_closes_that_sessions_sockets_only(player_and_game: Any) -> None:
    user, game_id = player_and_game
    laptop = await sync_to_async(signed_in_browser)(user)
    phone = await sync_to_async(signed_in_browser)(user)
    game_socket = await open_socket(f"/ws/games/{game_id}/", laptop)
    board_socket = await open_socket(BOARD, laptop)
    phone_socket = await open_socket(BOARD, phone)

    response = await sync_to_async(laptop.post)("/api/auth/logout")
    assert response.status_code == 204

    assert await closed_with(game_socket) == CLOSE_SESSION_ENDED
    assert await closed_with(board_socket) == CLOSE_SESSION_ENDED
    assert await phone_socket.receive_nothing(timeout=0.3)
    await phone_socket.send_json_to({"type": "sync"})
    assert (await phone_socket.receive_json_from(timeout=5))["type"] == "board"
    await phone_socket.disconnect()


async def test_the_sign_out_page_closes_them_too(player_and_game: Any) -> None:
    user, game_id = player_and_game
    browser = await sync_to_async(signed_in_browser)(user)
    socket = await open_socket(f"/ws/games/{game_id}/", browser)
    response = await sync_to_async(browser.post)("/accounts/logout/")
    assert response.status_code == 302
    assert await closed_with(socket) == CLOSE_SESSION_ENDED


async def test_close_sockets_of_user_spares_one_session(player_and_game: Any) -> None:
    user, game_id = player_and_game
    kept = await sync_to_async(signed_in_browser)(user)
    ended = await sync_to_async(signed_in_browser)(user)
    kept_socket = await open_socket(f"/ws/games/{game_id}/", kept)
    ended_socket = await open_socket(BOARD, ended)

    await sync_to_async(close_sockets_of_user)(
        user.pk, except_session=kept.cookies["sessionid"].value
    )

    assert await closed_with(ended_socket) == CLOSE_SESSION_ENDED
    assert await kept_socket.receive_nothing(timeout=0.3)
    await kept_socket.send_json_to({"type": "sync"})
    assert (await kept_socket.receive_json_from(timeout=5))["type"] == "view"
    await kept_socket.disconnect()


async def test_a_socket_of_an_ended_session_is_turned_away(player_and_game: Any) -> None:
    user, game_id = player_and_game
    browser = await sync_to_async(signed_in_browser)(user)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    await sync_to_async(browser.post)("/api/auth/logout")
    socket = WebsocketCommunicator(
        application,
        f"/ws/games/{game_id}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
    )
    connected, code = await socket.connect()
    assert not connected


async def test_a_password_change_closes_the_other_sessions_sockets(player_and_game: Any) -> None:
    user, game_id = player_and_game
    laptop = await sync_to_async(signed_in_browser)(user)
    phone = await sync_to_async(signed_in_browser)(user)
    phone_socket = await open_socket(f"/ws/games/{game_id}/", phone)
    laptop_socket = await open_socket(BOARD, laptop)

    response = await sync_to_async(laptop.post)(
        "/api/me/password",
        {"old_password": "long password 12", "new_password": "another long one 34"},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content

    assert await closed_with(phone_socket) == CLOSE_SESSION_ENDED
    assert await laptop_socket.receive_nothing(timeout=0.3)
    await laptop_socket.disconnect()
