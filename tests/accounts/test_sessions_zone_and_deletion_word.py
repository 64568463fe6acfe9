"""The sessions page shows its times in the player's zone (the browser's, from the `tp_tz` cookie
the site's pages set), says which, and falls back to UTC for a cookie that names no zone; deleting
an account says so on the page it lands on (issue #38, item 8)."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import formats, translation

from accounts.models import AccessRecord, User
from tests.accounts.helpers import STRONG

pytestmark = pytest.mark.django_db(transaction=True)


def _signed_in(username: str) -> tuple[Client, User]:
    user = User.objects.create_user(username=username, password=STRONG)
    client = Client()
    assert (
        client.post("/accounts/login/", {"username": username, "password": STRONG}).status_code
        == 302
    )
    return client, user


def _times(html: str) -> list[tuple[str, str]]:
    """Each <time> on the page: its machine value and its text."""
    return re.findall(r'<time datetime="([^"]+)">([^<]+)</time>', html)


def _written(user: User, zone: str) -> tuple[str, str]:
    """The sign-in time as the page should write it in `zone`: ISO with the zone's offset, and
    the English short form of the zone's clock."""
    created = AccessRecord.objects.get(user=user).created_at.astimezone(ZoneInfo(zone))
    with translation.override("en"):
        return created.isoformat(), formats.date_format(created, "SHORT_DATETIME_FORMAT")


@pytest.mark.parametrize("zone", ["Asia/Kathmandu", "America/Argentina/Buenos_Aires", "Etc/GMT+5"])
def test_the_sessions_times_are_in_the_browsers_zone_and_named(zone: str) -> None:
    client, user = _signed_in("zoned")
    client.cookies["tp_tz"] = zone
    html = client.get("/accounts/sessions/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Times in your time zone ({zone})." in html
    assert _written(user, zone) in _times(html)
    assert _written(user, zone)[1] != _written(user, "UTC")[1]  # not UTC's clock


@pytest.mark.parametrize(
    "cookie",
    ["", "../../../etc/passwd", "/etc/localtime", "Not/AZone", "Europe/Berlin;x", "A" * 80],
)
def test_a_cookie_that_names_no_zone_shows_utc(cookie: str) -> None:
    client, user = _signed_in("unzoned")
    client.cookies["tp_tz"] = cookie
    response = client.get("/accounts/sessions/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Times in your time zone (UTC)." in html
    assert _written(user, "UTC") in _times(html)


def test_deleting_the_account_says_so_on_the_page_it_lands_on() -> None:
    client, user = _signed_in("leaver")
    response = client.post("/accounts/delete/", {"password": STRONG}, follow=True)
    assert response.redirect_chain[-1][0] == "/"
    html = response.content.decode()
    assert 'data-testid="messages"' in html and "Your account was deleted." in html
    assert not User.objects.get(pk=user.pk).is_active
    # Said once: the next page is quiet.
    assert "Your account was deleted." not in client.get("/").content.decode()


def test_deleting_says_so_in_german_too() -> None:
    client, _ = _signed_in("gone_de")
    response = client.post(
        "/accounts/delete/", {"password": STRONG}, follow=True, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert "Dein Konto wurde gelöscht." in response.content.decode()
