"""The page shell at / and its static CSS."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_home_page_shell_renders_for_anonymous_visitors(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>TriPeaks Online</title>" in html
    assert '<main id="main"' in html
    assert 'href="/static/frontend/css/site.css"' in html
    assert 'href="/accounts/login/"' in html
    assert "csrftoken" in response.cookies


def test_home_page_greets_a_signed_in_player(client: Client, user: User) -> None:
    client.force_login(user)

    html = client.get("/").content.decode()

    assert f"Signed in as <strong>{user.public_name}</strong>" in html


def test_site_sends_security_headers(client: Client) -> None:
    response = client.get("/")

    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_unknown_page_is_an_html_404(client: Client) -> None:
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
