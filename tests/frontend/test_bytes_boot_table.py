"""Issue #38, item 9: the page's boot data carries the first table, so that the first card is drawn
with no request after the page's files: the deal in progress as `GET /api/games/current` gives it
and its layout's outline; signed out, the face-down table's layout. Only the player's own game,
never a card the view hides, and a page no cache keeps (its view would be an old one)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import UserFactory
from tests.play.helpers import client_for, start_custom, winnable_code
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.view import layout_outline

pytestmark = pytest.mark.django_db


def boot(client: Client) -> Any:
    html = client.get("/").content.decode()
    match = re.search(r'<script id="boot" type="application/json">(.*?)</script>', html, re.S)
    assert match
    return json.loads(match.group(1))


def test_the_deal_in_progress_and_its_layout_come_with_the_page(client: Client, user: Any) -> None:
    started = start_custom(client_for(user), winnable_code()[0])
    client.force_login(user)

    data = boot(client)
    current = client.get("/api/games/current").json()

    assert data["has_game"] is True
    assert data["game"]["id"] == started["id"] == current["id"]
    drop = {"elapsed_ms", "server_time"}  # the time it is asked
    assert {k: v for k, v in data["game"].items() if k not in drop} == {
        k: v for k, v in current.items() if k not in drop
    }
    assert data["layout"] == json.loads(json.dumps(layout_outline(get_layout("classic"))))


def test_the_boot_view_hides_what_the_game_view_hides(client: Client, user: Any) -> None:
    code, _ = winnable_code()
    start_custom(client_for(user), code)
    client.force_login(user)

    positions = boot(client)["game"]["positions"]

    covered = [p for p in positions if not p["free"] and not p["removed"]]
    assert covered and all(p["card"] is None for p in covered)  # closed peaks: face down
    page = json.dumps(boot(client))
    stock = code.split()[len(positions) + 1 :]  # after the layout's cards and the waste's
    assert stock and not [card for card in stock if f'"{card}"' in page]


def test_signed_out_the_page_brings_the_face_down_tables_layout_only(client: Client) -> None:
    data = boot(client)

    assert data == {
        "user": None,
        "layout": json.loads(json.dumps(layout_outline(get_layout("classic")))),
    }


def test_no_deal_no_table_and_never_another_players_deal(client: Client, user: Any) -> None:
    other = UserFactory()
    start_custom(client_for(other), winnable_code()[0])  # a second account's deal in progress
    client.force_login(user)

    data = boot(client)

    assert data["has_game"] is False
    assert "game" not in data and "layout" not in data


def test_the_page_is_never_kept_by_a_cache(client: Client, user: Any) -> None:
    start_custom(client_for(user), winnable_code()[0])
    client.force_login(user)

    cache = client.get("/")["Cache-Control"]

    assert "no-store" in cache and "max-age=0" in cache


def test_the_first_table_costs_the_page_no_query_more(client: Client, user: Any) -> None:
    client.force_login(user)
    client.get("/")
    with CaptureQueriesContext(connection) as without:
        client.get("/")
    start_custom(client_for(user), winnable_code()[0])
    with CaptureQueriesContext(connection) as with_a_deal:
        client.get("/")

    assert len(with_a_deal) == len(without)  # the game's row read where its presence was probed
