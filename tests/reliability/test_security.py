"""Nobody reads or moves in another's game or sees a hidden card by any route (the API, errors,
the admin, the logs); session writes need CSRF; sockets check origin and sign-in; tokens can be
revoked; the production profile sends its security headers.

Also proven elsewhere: tokens revoked (tests/accounts/test_api.py::
test_deleting_the_token_revokes_it), strangers' and anonymous sockets turned away
(tests/play/test_game_socket.py::test_strangers_and_anonymous_sockets_are_turned_away), no view
ever shows a face-down card (tests/play/test_hidden_cards.py), `check --deploy` clean
(tests/foundation/test_settings_production.py::
test_production_profile_passes_check_deploy_without_warnings).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from pathlib import Path
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from tests.play.helpers import client_for, move, start_custom, winnable_code
from tripeaks.config.asgi import application
from tripeaks.config.logging_json import JsonFormatter
from tripeaks.play.models import Deal, Game

pytestmark = pytest.mark.django_db


def make(username: str, **fields: Any) -> Any:
    return get_user_model().objects.create_user(
        username=username, password="a long enough password 1", **fields
    )


def test_nobody_reads_or_moves_in_anothers_game(user: Any) -> None:
    owner, stranger = client_for(user), client_for(make("stranger"))
    code, line = winnable_code()
    game = start_custom(owner, code)
    for response in (
        stranger.get(f"/api/games/{game['id']}"),
        move(stranger, game, **line[0]),
        move(stranger, game, "resign"),
    ):
        assert response.status_code == 404 and response.json()["detail"] == "no such game"
    assert stranger.get("/api/games/current").status_code == 404
    assert owner.get(f"/api/games/{game['id']}").json()["seq"] == 0


def test_the_admin_is_for_staff_only(user: Any) -> None:
    code, _ = winnable_code()
    game = start_custom(client_for(user), code)
    deal = Game.objects.get(pk=game["id"]).deal
    player = Client()
    player.force_login(user)
    for url in (
        "/admin/",
        "/admin/play/deal/",
        f"/admin/play/deal/{deal.pk}/change/",
        f"/admin/play/game/{game['id']}/change/",
        "/admin/leaderboard/result/",
    ):
        response = player.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url
        assert deal.code not in response.content.decode()
    staff = Client()
    staff.force_login(make("boss", is_staff=True, is_superuser=True))
    assert staff.get(f"/admin/play/deal/{deal.pk}/change/").status_code == 200


def _undrawn_and_face_down(game_id: str) -> set[str]:
    """Card tokens the player has not been shown: the undrawn stock and face-down layout cards."""
    game = Game.objects.select_related("deal").get(pk=game_id)
    view = client_for(game.player).get(f"/api/games/{game_id}").json()
    shown = set(json.dumps(view).split('"'))
    tokens = game.deal.code.split()
    return {token for token in tokens if token not in shown}


def test_logs_never_carry_a_hidden_card(user: Any, caplog: Any) -> None:
    caplog.set_level(logging.DEBUG)
    api = client_for(user)
    code, line = winnable_code()
    game = start_custom(api, code)
    for step in [*line[:6], {"action": "undo"}, {"action": "play", "position": 0}]:
        response = move(api, game, **step)
        if response.status_code == 200:
            game = response.json()
    move(api, game, "teleport")
    api.get("/api/games/00000000-0000-0000-0000-000000000000")
    hidden = _undrawn_and_face_down(game["id"])
    assert len(hidden) > 10
    alternatives = "|".join(map(re.escape, hidden))
    pattern = re.compile(rf"(?<![A-Za-z0-9])({alternatives})(?![A-Za-z0-9])")
    formatter = JsonFormatter()
    lines = [formatter.format(record) for record in caplog.records]
    assert len(lines) >= 10
    for text in lines:
        entry = json.loads(text)
        for key, value in entry.items():
            if key in ("ts",):
                continue
            found = pattern.search(json.dumps(value))
            assert found is None, f"log field {key!r} shows a hidden card: {text}"


def test_session_writes_need_csrf(session_client: Any) -> None:
    refused = session_client.post(
        "/api/games", {"mode": "numbered", "number": 3}, content_type="application/json"
    )
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    token = session_client.get("/api/auth/csrf").json()
    token = token.get("csrfToken") or token.get("csrf_token") or next(iter(token.values()))
    allowed = session_client.post(
        "/api/games",
        {"mode": "numbered", "number": 3},
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )
    assert allowed.status_code == 201, allowed.content


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_sockets_from_another_origin_are_refused() -> None:
    from channels.db import database_sync_to_async

    user = await database_sync_to_async(make)("origin")
    code, _ = winnable_code()
    game = await database_sync_to_async(lambda: start_custom(client_for(user), code))()
    for origin in (b"http://evil.example", b"null"):
        socket = WebsocketCommunicator(
            application, f"/ws/games/{game['id']}/", headers=[(b"origin", origin)]
        )
        socket.scope["user"] = user
        connected, _ = await socket.connect()
        assert not connected
        await socket.disconnect()


def test_tokens_can_be_revoked(token_client: Any) -> None:
    assert token_client.get("/api/me").status_code == 200
    assert token_client.delete("/api/auth/token").status_code == 204
    again = token_client.get("/api/me")
    assert again.status_code == 401 and again.json()["detail"]


def test_production_profile_security_headers(client: Any) -> None:
    response = client.get("/api/today")
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


def test_https_settings_of_the_production_profile() -> None:
    import subprocess
    import sys

    env = {
        "PATH": "/usr/bin:/bin",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEAL_SECRET": secrets.token_urlsafe(32),
        "ALLOWED_HOSTS": "tripeaks.example",
    }
    code = (
        "import json; from tripeaks.config import settings as s; print(json.dumps([s.SECURE_SSL_REDIRECT,"
        " s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS,"
        " s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SESSION_COOKIE_HTTPONLY, s.DEBUG]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=str(Path(__file__).resolve().parents[2]),
    )
    assert json.loads(done.stdout) == [True, True, True, 31_536_000, True, True, False]


def test_deal_rows_are_never_serialised_to_players(user: Any) -> None:
    code, line = winnable_code()
    api = client_for(user)
    game = start_custom(api, code)
    texts = [json.dumps(game)]
    for step in line:
        response = move(api, game, **step)
        texts.append(response.content.decode())
        game = response.json()
    deal = Deal.objects.get(games__id=game["id"])
    for text in texts:
        assert deal.code not in text and '"code"' not in text and '"seed"' not in text


def test_the_page_shell_carries_a_content_security_policy(client: Any, settings: Any) -> None:
    first, second = client.get("/"), client.get("/")
    assert first.status_code == 200
    policy = first["Content-Security-Policy"]  # enforced (more in test_csp_enforced.py)
    for part in (
        "default-src 'self'",
        "script-src 'self' 'nonce-",
        "connect-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
    ):
        assert part in policy
    assert policy != second["Content-Security-Policy"]  # a fresh nonce each time
    assert "Content-Security-Policy" not in client.get("/api/today")  # JSON needs none
    settings.CSP_REPORT_ONLY = True
    assert "script-src 'self' 'nonce-" in client.get("/")["Content-Security-Policy-Report-Only"]
