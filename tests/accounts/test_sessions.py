"""Sessions and tokens: recorded on use, listed with device and address, ended one by one or all
but this one; a password change ends the others."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from accounts.models import AccessRecord, User
from accounts.services import access
from accounts.signals import access_ended
from tests.accounts.helpers import OTHER_STRONG, STRONG, Browser, signed_up

pytestmark = pytest.mark.django_db(transaction=True)  # access_ended is sent on commit

PHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15"
    " (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
)


def token_for(username: str, password: str = STRONG) -> str:
    response = Browser().post("/api/auth/token", {"username": username, "password": password})
    assert response.status_code == 200
    return str(response.json()["token"])


def with_token(token: str, path: str = "/api/me") -> int:
    return int(Browser().get(path, HTTP_AUTHORIZATION=f"Token {token}").status_code)


@pytest.fixture
def ended() -> Any:
    """What the access_ended hook is told (the lead wires socket closing to it)."""
    calls: list[dict[str, Any]] = []

    def receiver(sender: Any, **kwargs: Any) -> None:
        calls.append(kwargs)

    access_ended.connect(receiver)
    yield calls
    access_ended.disconnect(receiver)


def three_ways_in() -> tuple[Browser, Browser, str]:
    laptop = signed_up("traveller")
    phone = Browser(user_agent=PHONE)
    phone.post("/api/auth/login", {"username": "traveller", "password": STRONG})
    token = token_for("traveller")
    assert with_token(token) == 200
    return laptop, phone, token


def test_sessions_and_the_token_are_listed_with_device_address_and_last_use() -> None:
    laptop, phone, token = three_ways_in()

    rows = laptop.get("/api/me/sessions").json()

    assert len(rows) == 3
    assert sorted(row["kind"] for row in rows) == ["session", "session", "token"]
    devices = {row["device"] for row in rows}
    assert "Firefox 139 on Linux" in devices and "Mobile Safari 17 on iOS" in devices
    assert all(row["address"] == "127.0.0.1" and row["last_seen"] for row in rows)
    assert [row["current"] for row in rows].count(True) == 1
    current = next(row for row in rows if row["current"])
    assert current["device"] == "Firefox 139 on Linux"


def test_the_list_shows_nobody_elses_sessions_and_no_keys() -> None:
    laptop, _, _ = three_ways_in()
    signed_up("someone_else")

    body = laptop.get("/api/me/sessions")

    assert len(body.json()) == 3
    assert set(body.json()[0]) == {
        "id",
        "kind",
        "device",
        "address",
        "created_at",
        "last_seen",
        "current",
    }
    keys = AccessRecord.objects.values_list("key", flat=True)
    assert not any(key in body.content.decode() for key in keys)


def test_last_use_is_written_at_most_once_a_minute_per_session() -> None:
    laptop = signed_up("busy")
    record = AccessRecord.objects.get(user__username="busy", kind="session")
    seen = record.last_seen

    for _ in range(5):
        laptop.get("/api/me")

    assert AccessRecord.objects.get(pk=record.pk).last_seen == seen


def test_ending_one_session_signs_it_out_and_leaves_the_others(ended: Any) -> None:
    laptop, phone, token = three_ways_in()
    rows = laptop.get("/api/me/sessions").json()
    phone_row = next(r for r in rows if r["device"].startswith("Mobile Safari"))

    response = laptop.delete(f"/api/me/sessions/{phone_row['id']}")

    assert response.status_code == 204
    assert phone.get("/api/me").status_code in (401, 403)
    assert laptop.get("/api/me").status_code == 200 and with_token(token) == 200
    assert len(ended) == 1 and len(ended[0]["session_keys"]) == 1 and ended[0]["token_keys"] == []


def test_ending_the_token_makes_it_refused() -> None:
    laptop, _, token = three_ways_in()
    token_row = next(r for r in laptop.get("/api/me/sessions").json() if r["kind"] == "token")

    assert laptop.delete(f"/api/me/sessions/{token_row['id']}").status_code == 204
    assert with_token(token) == 401


def test_someone_elses_session_cannot_be_ended() -> None:
    _, phone, _ = three_ways_in()
    victim_rows = AccessRecord.objects.filter(user__username="traveller")
    attacker = signed_up("attacker")

    answers = [attacker.delete(f"/api/me/sessions/{row.pk}").status_code for row in victim_rows]

    assert set(answers) == {404}
    assert phone.get("/api/me").status_code == 200
    assert attacker.delete("/api/me/sessions/999999").status_code == 404


def test_end_all_others_keeps_only_this_session(ended: Any) -> None:
    laptop, phone, token = three_ways_in()

    response = laptop.post("/api/me/sessions/end-others")

    assert response.status_code == 200 and response.json() == {"ended": 2}
    assert phone.get("/api/me").status_code in (401, 403) and with_token(token) == 401
    assert laptop.get("/api/me").status_code == 200
    assert [r["current"] for r in laptop.get("/api/me/sessions").json()] == [True]
    assert len(ended[0]["session_keys"]) == 1 and ended[0]["token_keys"] == [token]


def test_end_all_others_from_the_token_keeps_the_token() -> None:
    laptop, phone, token = three_ways_in()

    response = Browser().post("/api/me/sessions/end-others", HTTP_AUTHORIZATION=f"Token {token}")

    assert response.status_code == 200 and response.json() == {"ended": 2}
    assert with_token(token) == 200
    assert laptop.get("/api/me").status_code in (401, 403)


# --------------------------------------------------------------------------- password change


def change(browser: Browser, old: str, new: str) -> Any:
    return browser.post("/api/me/password", {"old_password": old, "new_password": new})


def test_a_password_change_ends_the_other_sessions_and_tokens(ended: Any) -> None:
    laptop, phone, token = three_ways_in()

    response = change(laptop, STRONG, OTHER_STRONG)

    assert response.status_code == 200 and response.json() == {"ended": 2}
    assert laptop.get("/api/me").status_code == 200  # this session stays
    assert phone.get("/api/me").status_code in (401, 403)
    assert with_token(token) == 401
    assert User.objects.get(username="traveller").check_password(OTHER_STRONG)
    assert ended and ended[-1]["token_keys"] == [token]


def test_a_password_change_needs_the_old_password_and_a_good_new_one() -> None:
    laptop, phone, _ = three_ways_in()

    wrong = change(laptop, "not-my-password", OTHER_STRONG)
    weak = change(laptop, STRONG, "12345678")

    assert wrong.status_code == 400 and "old_password" in wrong.json()["errors"]
    assert weak.status_code == 400 and "new_password" in weak.json()["errors"]
    assert User.objects.get(username="traveller").check_password(STRONG)
    assert phone.get("/api/me").status_code == 200


def test_guessing_the_old_password_is_limited_like_sign_in(settings: Any) -> None:
    settings.SIGNIN_THROTTLE = {**settings.SIGNIN_THROTTLE, "per_username": 3}
    laptop = signed_up("guessed")

    answers = [change(laptop, f"guess-{i}", OTHER_STRONG).status_code for i in range(4)]
    right = change(laptop, STRONG, OTHER_STRONG)

    assert answers == [400, 400, 400, 429] and right.status_code == 429
    assert User.objects.get(username="guessed").check_password(STRONG)


def test_password_change_from_a_token_keeps_that_token() -> None:
    laptop, _, token = three_ways_in()

    response = Browser().post(
        "/api/me/password",
        {"old_password": STRONG, "new_password": OTHER_STRONG},
        HTTP_AUTHORIZATION=f"Token {token}",
    )

    assert response.status_code == 200
    assert with_token(token) == 200 and laptop.get("/api/me").status_code in (401, 403)


def test_records_of_ended_sessions_are_forgotten_by_the_hourly_task() -> None:
    laptop, phone, token = three_ways_in()
    phone.post("/api/auth/logout")

    from accounts.tasks import forget_ended_access

    assert forget_ended_access.delay().get() == 1
    assert AccessRecord.objects.filter(user__username="traveller").count() == 2


def test_a_guests_session_is_renewed_as_it_plays() -> None:
    from django.contrib.sessions.models import Session
    from django.core.cache import cache

    browser = Browser()
    browser.post("/api/auth/guest")
    first_expiry = Session.objects.get().expire_date
    Session.objects.update(expire_date=first_expiry - timedelta(days=10))  # as if days went by
    cache.clear()  # the once-a-minute gates: as if a minute went by
    access.forget_gates()

    browser.get("/api/me")

    assert Session.objects.get().expire_date >= first_expiry


def test_a_token_is_listed_as_soon_as_it_is_issued() -> None:
    laptop = signed_up("scripter")
    token_for("scripter")

    rows = laptop.get("/api/me/sessions").json()

    assert sorted(row["kind"] for row in rows) == ["session", "token"]
    token_row = next(row for row in rows if row["kind"] == "token")
    assert token_row["device"] == "Unknown device" and token_row["address"] is None


def test_a_request_whose_guest_is_deleted_meanwhile_keeps_its_answer() -> None:
    """A guest is deleted outright (accounts.services.deletion): from another tab, say, while this tab's
    request runs. The note of this request's session, written after the answer, has no player
    left to belong to: it is not written, and the answer stands (it was a 500)."""
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.cache import cache
    from django.http import HttpRequest, HttpResponse
    from django.test import RequestFactory

    from accounts.middleware import RecordAccess

    Browser().post("/api/auth/guest")
    guest = User.objects.get(is_guest=True)
    cache.clear()  # the once-a-minute gates: as if a minute went by
    access.forget_gates()
    request = RequestFactory().get("/api/me/stats")
    request.user = guest
    request.session = SessionStore()
    request.session.create()

    def meanwhile_deleted(request: HttpRequest) -> HttpResponse:
        User.objects.filter(pk=guest.pk).delete()
        return HttpResponse("the stats")

    response = RecordAccess(meanwhile_deleted)(request)

    assert response.status_code == 200 and response.content == b"the stats"
    assert not AccessRecord.objects.filter(user_id=guest.pk).exists()
