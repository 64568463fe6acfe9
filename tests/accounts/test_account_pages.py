"""The account pages (server-rendered): guest, account, email, password change and reset,
sessions, deletion. Forms post with CSRF like a browser; Chromium drives them in
tests/frontend/test_e2e_account.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import AccessRecord, User
from tests.accounts.helpers import OTHER_STRONG, STRONG, Browser

pytestmark = pytest.mark.django_db(transaction=True)  # mail and hooks run on commit

PAGES = [
    "/accounts/",
    "/accounts/email/",
    "/accounts/password/",
    "/accounts/sessions/",
    "/accounts/delete/",
]


def signed_in(username: str = "pager", **fields: Any) -> tuple[Client, User]:
    user = User.objects.create_user(username=username, password=STRONG, **fields)
    client = Client()
    assert (
        client.post("/accounts/login/", {"username": username, "password": STRONG}).status_code
        == 302
    )
    return client, user


@pytest.mark.parametrize("path", PAGES)
def test_account_pages_need_a_signed_in_player(path: str) -> None:
    response = Client().get(path)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("path", PAGES)
def test_account_pages_render_for_a_player(path: str) -> None:
    client, _ = signed_in()
    response = client.get(path)
    assert response.status_code == 200
    assert b"csrfmiddlewaretoken" in response.content or path == "/accounts/"


def test_the_nav_links_to_the_account_page_and_to_playing_as_a_guest() -> None:
    assert b'href="/accounts/guest/"' in Client().get("/").content
    client, _ = signed_in()
    assert b'href="/accounts/"' in client.get("/").content


def test_play_as_guest_page_signs_a_guest_in_and_sign_up_keeps_it() -> None:
    client = Client()
    assert client.get("/accounts/guest/").status_code == 200

    response = client.post("/accounts/guest/")

    # Issue 38: to the game page, which deals at once (not "No deal in progress").
    assert response.status_code == 302 and response["Location"] == "/#/play/deal"
    guest = User.objects.get(is_guest=True)
    assert b"Guest" in client.get("/").content
    signup = client.post(
        "/accounts/signup/",
        {"username": "from_guest", "password1": STRONG, "password2": STRONG},
    )
    assert signup.status_code == 302
    assert User.objects.get(pk=guest.pk).username == "from_guest"
    assert User.objects.count() == 1


def test_the_guest_page_is_limited_per_address(settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = {**settings.PLAY_THROTTLE_RATES, "guest_address": "1/hour"}
    assert Client().post("/accounts/guest/").status_code == 302
    refused = Client().post("/accounts/guest/")
    assert refused.status_code == 429 and refused["Retry-After"]
    assert User.objects.count() == 1


def test_password_change_page_ends_the_other_sessions() -> None:
    client, user = signed_in()
    other = Client()
    other.post("/accounts/login/", {"username": "pager", "password": STRONG})

    wrong = client.post(
        "/accounts/password/",
        {"old_password": "nope", "new_password1": OTHER_STRONG, "new_password2": OTHER_STRONG},
    )
    right = client.post(
        "/accounts/password/",
        {"old_password": STRONG, "new_password1": OTHER_STRONG, "new_password2": OTHER_STRONG},
    )

    assert wrong.status_code == 200 and right.status_code == 302
    assert client.get("/api/me").status_code == 200
    assert other.get("/api/me").status_code in (401, 403)
    assert User.objects.get(pk=user.pk).check_password(OTHER_STRONG)


def test_password_reset_pages_through_the_real_smtp_server(smtp: Any) -> None:
    User.objects.create_user(username="resetter", password=STRONG, email="r@example.com")
    client = Client()

    sent = client.post("/accounts/password/reset/", {"email": "r@example.com"})
    unknown = Client().post("/accounts/password/reset/", {"email": "who@example.com"})

    assert sent.status_code == unknown.status_code == 302
    assert sent["Location"] == unknown["Location"] == "/accounts/password/reset/done/"
    link = smtp.link("r@example.com", "/accounts/reset/")
    path = link.split("://", 1)[1].split("/", 1)[1]
    form_page = client.get(f"/{path}", follow=True)
    assert form_page.status_code == 200 and b"new_password1" in form_page.content
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": OTHER_STRONG, "new_password2": OTHER_STRONG},
    )
    assert done.status_code == 302 and done["Location"] == "/accounts/reset/done/"
    assert User.objects.get(username="resetter").check_password(OTHER_STRONG)
    replay = Client().get(f"/{path}", follow=True)
    assert b"invalid, used already, or expired" in replay.content


def test_email_page_mails_a_link_whose_page_verifies_the_address(smtp: Any) -> None:
    client, user = signed_in()

    response = client.post("/accounts/email/", {"action": "send", "email": "p@example.com"})

    assert response.status_code == 302
    link = smtp.link("p@example.com", "/accounts/email/verify/")
    path = "/" + link.split("://", 1)[1].split("/", 1)[1]
    assert Client().get(path).status_code == 200  # a page with a button: GET changes nothing
    assert User.objects.get(pk=user.pk).email == ""
    assert Client().post(path).status_code == 200
    assert User.objects.get(pk=user.pk).email == "p@example.com"
    assert Client().post(path).status_code == 400  # once


def test_sessions_page_lists_and_ends_sessions() -> None:
    client, user = signed_in()
    other = Client(
        HTTP_USER_AGENT="Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/141.0 Safari/537.36"
    )
    other.post("/accounts/login/", {"username": "pager", "password": STRONG})
    client.get("/accounts/")

    page = client.get("/accounts/sessions/").content.decode()
    assert page.count('data-testid="session-row"') == 2 and "Chrome 141 on Windows" in page

    record = AccessRecord.objects.get(user=user, user_agent__contains="Windows")
    assert client.post(f"/accounts/sessions/{record.pk}/end/").status_code == 302
    assert other.get("/api/me").status_code in (401, 403)
    assert client.post("/accounts/sessions/end-others/").status_code == 302


def test_delete_page_needs_the_password_then_deletes() -> None:
    client, user = signed_in()

    wrong = client.post("/accounts/delete/", {"password": "nope"})
    right = client.post("/accounts/delete/", {"password": STRONG})

    assert wrong.status_code == 400 and right.status_code == 302
    assert not User.objects.get(pk=user.pk).is_active
    assert (
        Client().post("/accounts/login/", {"username": "pager", "password": STRONG}).status_code
        == 200
    )


def test_account_page_shows_the_guest_what_signing_up_keeps() -> None:
    browser = Browser()
    browser.post("/api/auth/guest")
    html = browser.get("/accounts/").content.decode()
    assert 'data-testid="guest-signup"' in html
