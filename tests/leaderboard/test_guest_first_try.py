"""Issue 34, item 6: a guest's play of a deal is its device's and address's first try, as an
account's is. An account that then plays the deal from the same device or public address is a
possible second account: its run is held for review, as after another account's play."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leaderboard.models import Result
from tests.accounts.helpers import Browser
from tests.leaderboard.test_first_try import LOSS, board, lines, start
from tests.play.helpers import solution
from tripeaks.engine.rules import Rules
from tripeaks.infra.devices import DEVICE_COOKIE
from tripeaks.play import deals
from tripeaks.play.dealday import deal_day

pytestmark = pytest.mark.django_db

DEVICE = "g" * 24


@pytest.fixture(autouse=True)
def holds_on(settings: Any) -> None:
    settings.FAIR_PLAY_HOLD_SHARED = True


def browser(address: str, device: str) -> Browser:
    client = Browser()
    client.client.defaults["REMOTE_ADDR"] = address
    client.client.cookies[DEVICE_COOKIE] = device
    return client


def as_guest(address: str, device: str) -> Browser:
    guest = browser(address, device)
    assert guest.post("/api/auth/guest").status_code == 201
    return guest


def account(make_user: Any, name: str, address: str, device: str) -> APIClient:
    api = APIClient(REMOTE_ADDR=address)
    api.force_login(make_user(name))
    api.cookies[DEVICE_COOKIE] = device
    return api


def play(client: Browser | APIClient, steps: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    if isinstance(client, APIClient):
        view = start(client, **body)
    else:
        response = client.post("/api/games", {"mode": "daily"} | body)
        assert response.status_code == 201, response.content
        view = response.json()
    for seq, step in enumerate(steps):
        response = (
            client.post(f"/api/games/{view['id']}/moves", {"seq": seq, **step}, format="json")
            if isinstance(client, APIClient)
            else client.post(f"/api/games/{view['id']}/moves", {"seq": seq, **step})
        )
        assert response.status_code == 200, response.content
        view = response.json()
    return view


@pytest.mark.parametrize(
    ("guest_at", "account_at"),
    [
        (("81.2.69.20", DEVICE), ("81.2.69.99", DEVICE)),  # the same browser, another network
        (("81.2.69.20", "h" * 24), ("81.2.69.20", "i" * 24)),  # the same line, another browser
    ],
    ids=["same-device", "same-address"],
)
def test_an_account_after_a_guest_on_the_same_device_or_address_is_not_a_ranked_first_try(
    make_user: Any, guest_at: tuple[str, str], account_at: tuple[str, str]
) -> None:
    """The guest scouts today's deal (a loss after drawing); an account from the same device or
    address then plays the line: its run is held, off every board, until staff accept it."""
    winning = solution(deals.daily_deal(deal_day(), Rules()))
    scouted = play(as_guest(*guest_at), LOSS)
    assert scouted["result"]["board"] is None  # guests never rank

    api = account(make_user, "second", *account_at)
    run = play(api, winning)["result"]
    assert run["held"] is True and run["board"] is None, run
    held = Result.objects.get(player__username="second")
    assert held.held and "another account that played this deal today" in held.hold_reason
    for which in ("first", "best"):
        assert lines(board(APIClient(), which)) == []


def test_an_account_on_another_device_and_network_still_ranks(make_user: Any) -> None:
    play(as_guest("81.2.69.20", DEVICE), LOSS)
    api = account(make_user, "stranger", "81.2.69.99", "j" * 24)
    run = play(api, solution(deals.daily_deal(deal_day(), Rules())))["result"]
    assert run["held"] is False and run["attempt"] == "first-try"
    assert lines(board(APIClient())) == [("stranger", True, run["moves"])]
