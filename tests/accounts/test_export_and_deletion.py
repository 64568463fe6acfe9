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


# --------------------------------------------------------------------------- deletion: contests


@pytest.fixture
def racing(settings: Any, a_proven_deal_ready: None) -> None:
    """Races deal from the pool, after a countdown short enough to wait for."""
    settings.RACE_COUNTDOWN_S = 0.3


def deleted(browser: Browser) -> None:
    assert browser.delete("/api/me", {"password": STRONG}).status_code == 204


def test_deleting_the_account_frees_its_seat_in_an_open_race_and_passes_the_host_on(
    racing: None,
) -> None:
    from tests.races.helpers import join, open_race
    from tripeaks.races.models import Race, Seat

    browser = signed_up("host")
    host = User.objects.get(username="host")
    other = User.objects.create_user(username="guest_of_host", password=STRONG)
    race = open_race(host, seats=3)
    assert join(other, race).status_code == 200

    deleted(browser)

    stored = Race.objects.get(pk=race["id"])
    assert stored.state == "open" and stored.host_id == other.pk
    assert not Seat.objects.get(race_id=race["id"], user=host).active
    assert list(stored.entries.filter(active=True).values_list("user_id", flat=True)) == [other.pk]


def test_deleting_the_account_in_a_running_race_is_a_give_up_and_the_other_wins(
    racing: None,
) -> None:
    from tests.races.helpers import begun, join, open_race
    from tripeaks.races.models import Race, Seat

    browser = signed_up("quitter")
    quitter = User.objects.get(username="quitter")
    other = User.objects.create_user(username="stayer", password=STRONG)
    race = open_race(quitter, seats=2)
    assert join(other, race).status_code == 200
    begun(race["id"])

    deleted(browser)

    assert Race.objects.get(pk=race["id"]).state == "finished"
    stayer = Seat.objects.get(race_id=race["id"], user=other)
    gone = Seat.objects.get(race_id=race["id"], user=quitter)
    assert (stayer.place, stayer.status, gone.place, gone.status) == (1, "finished", 2, "left")
    assert stayer.rating_after is not None and stayer.rating_before is not None
    assert stayer.rating_after > stayer.rating_before
    assert not Seat.objects.filter(user=quitter, active=True).exists()


def test_deleting_the_account_leaves_the_quick_match_queue(racing: None) -> None:
    from tests.races.helpers import api
    from tripeaks.races.models import Race

    browser = signed_up("waiter")
    assert browser.post("/api/quickmatch", {}).json()["state"] == "waiting"

    deleted(browser)

    other = User.objects.create_user(username="newcomer", password=STRONG)
    answer = api(other).post("/api/quickmatch", {}, format="json").json()
    assert answer["state"] == "waiting" and answer["others_waiting"] == 0
    assert not Race.objects.exists()


def test_deleting_the_account_leaves_the_arenas_it_joined(a_proven_deal_ready: None) -> None:
    from tests.arenas.helpers import running_arena
    from tripeaks.arenas.models import Entry

    browser = signed_up("arena_player")
    arenas = [running_arena(), running_arena()]
    for arena in arenas:
        assert browser.post(f"/api/arenas/{arena.pk}/join").status_code in (200, 201)

    deleted(browser)

    entries = Entry.objects.filter(player__username__startswith="deleted.")
    assert entries.count() == 2 and not entries.filter(active=True).exists()


def test_a_guest_host_deleted_mid_race_leaves_the_race_and_its_results_to_the_other(
    racing: None,
) -> None:
    from tests.races.helpers import begun, join, open_race
    from tripeaks.races.models import Race, Seat

    browser = Browser()
    assert browser.post("/api/auth/guest").status_code == 201
    guest = User.objects.get(is_guest=True)
    other = User.objects.create_user(username="stayer", password=STRONG)
    race = open_race(guest, seats=2)
    assert join(other, race).status_code == 200
    begun(race["id"])

    assert browser.delete("/api/me").status_code == 204

    stored = Race.objects.get(pk=race["id"])  # not deleted with the guest who opened it
    assert stored.state == "finished" and stored.host_id == other.pk
    stayer = Seat.objects.get(race_id=race["id"], user=other)
    assert (stayer.place, stayer.status) == (1, "finished")
