"""One sign-up limit per client address, whoever asks (issue 35).

Before: the ``signup`` rate counted a signed-in request per account, so from one address a
signed-in player, or each guest, signed up the whole rate again, again and again.
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from tests.accounts.helpers import STRONG, Browser, signed_up

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def three_an_hour(settings: Any) -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "signup": "3/hour"},
    }


def sign_up(browser: Browser, username: str) -> int:
    response = browser.post("/api/auth/signup", {"username": username, "password": STRONG})
    return int(response.status_code)


def guest() -> Browser:
    browser = Browser()
    assert browser.post("/api/auth/guest").status_code == 201
    return browser


def test_a_signed_in_player_shares_the_addresss_sign_up_limit() -> None:
    player = signed_up("first")  # one of the address's three
    assert [sign_up(Browser(), name) for name in ("second", "third")] == [201, 201]

    assert sign_up(player, "fourth") == 429
    assert not User.objects.filter(username="fourth").exists()


def test_a_signed_in_player_cannot_sign_up_accounts_past_the_limit() -> None:
    player = signed_up("maker")

    answers = [sign_up(player, f"made{n}") for n in range(4)]

    assert answers == [201, 201, 429, 429]
    assert User.objects.filter(username__startswith="made").count() == 2


def test_guests_becoming_accounts_share_the_addresss_limit() -> None:
    guests = [guest() for _ in range(4)]

    answers = [sign_up(browser, f"former{n}") for n, browser in enumerate(guests)]

    assert answers == [201, 201, 201, 429]
    assert User.objects.filter(is_guest=True).count() == 1


def test_the_sign_up_page_of_a_guest_counts_against_the_api_sign_ups() -> None:
    assert [sign_up(Browser(), name) for name in ("one", "two", "three")] == [201] * 3
    browser = guest()
    fields = {"username": "pagename", "password1": STRONG, "password2": STRONG}

    response = browser.client.post(
        "/accounts/signup/", {**fields, "csrfmiddlewaretoken": browser.csrf()}
    )

    assert response.status_code == 429
    assert not User.objects.filter(username="pagename").exists()


def test_other_addresses_keep_their_own_limit() -> None:
    assert [sign_up(Browser(), name) for name in ("aa1", "aa2", "aa3")] == [201] * 3
    elsewhere = Browser()

    response = elsewhere.post(
        "/api/auth/signup", {"username": "bb1", "password": STRONG}, REMOTE_ADDR="10.1.2.3"
    )

    assert response.status_code == 201
