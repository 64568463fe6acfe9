"""Leave with your data: the export, and deleting the account (boards keep anonymous lines)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User, UsernameHold
from leaderboard import export
from leaderboard.models import DealBest, Result
from tests.accounts.helpers import STRONG, Browser, signed_up
from tests.leaderboard.helpers import T0, daily, finish, numbered
from tripeaks.play.models import Deal, Game

pytestmark = pytest.mark.django_db


def played(username: str) -> tuple[Browser, User]:
    browser = signed_up(username)
    user = User.objects.get(username=username)
    finish(user, daily(T0.date()), at=T0, log=[("play", T0), ("draw", T0)])
    finish(user, numbered(), won=False, at=T0 + timedelta(minutes=5))
    return browser, user


# --------------------------------------------------------------------------- export


def test_the_export_holds_every_game_move_result_and_statistic() -> None:
    browser, user = played("archivist")
    in_progress = browser.post("/api/games", {"mode": "random"})
    assert in_progress.status_code == 201
    other, _ = played("someone_else")

    response = browser.get("/api/me/export")

    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    body = response.json()
    assert body["format"] == "tripeaks-export/1" and body["next"] is None
    assert body["account"]["username"] == "archivist"
    assert len(body["games"]) == 3 == Game.objects.filter(player=user).count()
    first = body["games"][0]
    assert first["deal"]["mode"] == "daily" and first["result"]["won"] is True
    assert [m["action"] for m in first["move_log"]] == ["play", "draw"]
    assert body["games"][1]["result"]["won"] is False
    assert body["games"][2]["status"] == "playing" and body["games"][2]["result"] is None
    overall = next(s for s in body["statistics"] if s["rules"] == "all")
    assert overall["played"] == 2 and overall["won"] == 1


def test_the_export_leaks_no_secret() -> None:
    browser, user = played("careful")
    browser.post("/api/games", {"mode": "random"})

    text = browser.get("/api/me/export").content.decode()

    codes = [code for code in Deal.objects.values_list("code", flat=True) if len(code) > 20]
    assert codes  # the random deal's real code
    for secret in (*codes, User.objects.get(pk=user.pk).password):
        assert secret not in text
    document = json.loads(text)
    assert all("state" not in game and "code" not in game["deal"] for game in document["games"])


def test_a_long_history_comes_in_pages(monkeypatch: Any) -> None:
    monkeypatch.setattr(export, "EXPORT_GAMES_PER_PAGE", 1)
    browser, _ = played("prolific")

    first = browser.get("/api/me/export").json()
    second = browser.get("/api/me/export", data={"cursor": first["next"]}).json()

    assert len(first["games"]) == len(second["games"]) == 1
    assert first["games"][0]["id"] != second["games"][0]["id"]
    assert second["next"] is None and "account" not in second


@pytest.mark.parametrize("cursor", ["nope", "MjAyNi0wMS0wMXx4", "\x00", "a" * 500])
def test_a_bad_export_cursor_is_a_400(cursor: str) -> None:
    browser, _ = played("cursed")
    assert browser.get("/api/me/export", data={"cursor": cursor}).status_code == 400


def test_the_export_needs_a_signed_in_player() -> None:
    assert Browser().get("/api/me/export").status_code in (401, 403)


# --------------------------------------------------------------------------- deletion


def test_deleting_the_account_keeps_board_lines_under_an_anonymous_name() -> None:
    browser, user = played("leaver")
    token = Browser().post("/api/auth/token", {"username": "leaver", "password": STRONG}).json()
    board_before = Browser().get(f"/api/leaderboards/daily?date={T0.date().isoformat()}")
    assert board_before.json()["lines"][0]["player"]["username"] == "leaver"

    response = browser.delete("/api/me", {"password": STRONG})

    assert response.status_code == 204
    line = Browser().get(f"/api/leaderboards/daily?date={T0.date().isoformat()}").json()
    assert line["lines"][0]["player"] == {
        "username": f"deleted.{user.pk}",
        "display_name": "deleted player",
    }
    assert DealBest.objects.filter(player_id=user.pk).count() == 2  # daily and numbered
    assert Result.objects.filter(player_id=user.pk).count() == 2
    stored = User.objects.get(pk=user.pk)
    assert not stored.is_active and not stored.has_usable_password() and stored.email == ""
    # Every way in is closed.
    assert browser.get("/api/me").status_code in (401, 403)
    assert Browser().get("/api/me", HTTP_AUTHORIZATION=f"Token {token['token']}").status_code == 401
    login = Browser().post("/api/auth/login", {"username": "leaver", "password": STRONG})
    assert login.status_code == 400


def test_deletion_needs_the_password_and_guessing_it_is_limited(settings: Any) -> None:
    settings.SIGNIN_THROTTLE = {**settings.SIGNIN_THROTTLE, "per_username": 2}
    browser, user = played("stays")

    answers = [browser.delete("/api/me", {"password": f"guess{i}"}).status_code for i in range(3)]
    missing = browser.delete("/api/me")

    assert answers == [400, 400, 429] and missing.status_code == 400
    assert User.objects.get(pk=user.pk).is_active


def test_the_username_is_held_for_the_grace_period_then_released() -> None:
    browser, _ = played("famous")
    browser.delete("/api/me", {"password": STRONG})

    early = Browser().post("/api/auth/signup", {"username": "FAMOUS", "password": STRONG})
    assert early.status_code == 400
    hold = UsernameHold.objects.get()
    assert hold.until > timezone.now() + timedelta(days=29)

    from accounts.tasks import release_usernames

    assert release_usernames.delay().get() == 0
    UsernameHold.objects.update(until=timezone.now() - timedelta(seconds=1))
    assert release_usernames.delay().get() == 1
    later = Browser().post("/api/auth/signup", {"username": "famous", "password": STRONG})
    assert later.status_code == 201


def test_a_guest_deletes_itself_without_a_password() -> None:
    browser = Browser()
    assert browser.post("/api/auth/guest").status_code == 201
    browser.post("/api/games", {"mode": "random"})

    assert browser.delete("/api/me").status_code == 204
    assert not User.objects.exists() and not Game.objects.exists()
