"""The page shell serves the app: boot data, the module script, and weight."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def boot(html: str) -> Any:
    match = re.search(r'<script id="boot" type="application/json">(.*?)</script>', html, re.S)
    assert match
    return json.loads(match.group(1))


def test_anonymous_visitor_gets_the_app_without_a_player(client: Client) -> None:
    html = client.get("/").content.decode()

    assert boot(html) == {"user": None, "layout": boot(html)["layout"]}
    assert boot(html)["layout"]["name"] == "classic"  # the face-down table's, drawn at once
    assert 'type="module" src="/static/frontend/js/app.js"' in html
    assert 'id="page-title"' in html


def test_signed_in_player_is_named_in_boot_data(client: Client, user: Any) -> None:
    client.force_login(user)

    data = boot(client.get("/").content.decode())

    assert data["user"]["username"] == user.username
    assert data["has_game"] is False


def test_boot_data_says_when_a_deal_is_waiting(client: Client, user: Any) -> None:
    from tests.play.helpers import client_for, start_custom, winnable_code

    start_custom(client_for(user), winnable_code()[0])
    client.force_login(user)

    assert boot(client.get("/").content.decode())["has_game"] is True
