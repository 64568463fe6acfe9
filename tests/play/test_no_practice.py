"""Issue 34, item 6: no practice on a ranked deal. A custom deal with the cards of a deal that
still ranks (today's and yesterday's dailies, numbered deals, any deal a game is still being
played on) is refused with a clear 400, however the cards are written and whatever the layout,
start or rules; the lookup is by digest. Played over the API as the tester did."""

from __future__ import annotations

import importlib
from datetime import timedelta
from typing import Any

import pytest
from celery.signals import worker_ready
from channels.db import database_sync_to_async
from django.db import connection, transaction
from rest_framework.test import APIClient

from tests.accounts.helpers import Browser
from tests.play.helpers import client_for, connect, move, solution, start_custom, winnable_code
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.infra.devices import DEVICE_COOKIE
from tripeaks.play import deals
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Deal, Source

REFUSAL = "this deal is on a board that still ranks: play it there"


def guest_browser(address: str, device: str) -> Browser:
    browser = Browser()
    browser.client.defaults["REMOTE_ADDR"] = address
    browser.client.cookies[DEVICE_COOKIE] = device
    assert browser.post("/api/auth/guest").status_code == 201
    return browser


def step(browser: Browser, view: dict[str, Any], action: str, position: int | None = None) -> Any:
    body: dict[str, Any] = {"seq": view["seq"], "action": action}
    if position is not None:
        body["position"] = position
    response = browser.post(f"/api/games/{view['id']}/moves", body)
    assert response.status_code == 200, response.content
    return response.json()


def scout(browser: Browser, body: dict[str, Any], line: list[dict[str, Any]]) -> list[str]:
    """The deal's 52 cards as a player learns them: draw the whole stock (the waste card and every
    stock card in order), start again, then play to a win (the tester searched with undo; here
    the solver's line stands in for the search), noting each layout card once it is face up."""
    response = browser.post("/api/games", body)
    assert response.status_code == 201, response.content
    view = response.json()
    off_layout = [view["waste"]]
    while view["stock_left"]:
        view = step(browser, view, "draw")
        off_layout.append(view["waste"])
    view = step(browser, view, "restart")
    layout: dict[int, str] = {}
    for move_ in line:
        for spot in view["positions"]:
            if spot["card"]:
                layout[spot["position"]] = spot["card"]
        view = step(browser, view, move_["action"], move_.get("position"))
    assert view["status"] == "won"
    assert sorted(layout) == list(range(len(layout)))
    return [layout[p] for p in sorted(layout)] + off_layout


def custom(api: APIClient, cards: list[str], **body: Any) -> Any:
    return api.post("/api/games", {"mode": "custom", "deal": " ".join(cards)} | body, format="json")


def assert_refused(response: Any) -> None:
    assert response.status_code == 400, response.content
    assert response.json() == {"detail": REFUSAL, "code": "ranked_deal"}


def mirrored(cards: list[str], layout_name: str = "classic") -> list[str]:
    """The same game on the layout's mirror image: each layout card moved to its mirror slot."""
    slots = get_layout(layout_name).slots
    width = max(s.x for s in slots) + min(s.x for s in slots)
    where = {(s.x, s.y, s.z): p for p, s in enumerate(slots)}
    moved = list(cards)
    for p, s in enumerate(slots):
        moved[where[(width - s.x, s.y, s.z)]] = cards[p]
    return moved


@pytest.mark.django_db
def test_a_guest_scouts_the_daily_and_another_account_cannot_practise_its_cards(
    make_player: Any,
) -> None:
    """The tester's attack: a guest learns all 52 cards of today's deal; another account, from
    another address and cookie jar, makes a custom deal of them to practise: refused, in every
    spelling, rule set, start and layout, and the mirrored table too. Nothing is stored."""
    daily = deals.daily_deal(deal_day(), Rules())
    scouted = scout(guest_browser("81.2.69.10", "g" * 24), {"mode": "daily"}, solution(daily))
    assert " ".join(scouted) == daily.code  # the scout knows every card, in place

    practiser = client_for(make_player("practiser"))
    customs_before = Deal.objects.filter(source=Source.CUSTOM).count()
    assert_refused(custom(practiser, scouted, rules={"wrap": True, "open": True}))
    # The same cards written another way: lower case, tabs and new lines.
    assert_refused(
        practiser.post(
            "/api/games",
            {"mode": "custom", "deal": "\n".join("\t" + c.lower() for c in scouted)},
            format="json",
        )
    )
    for rules in ({"wrap": False}, {"start": "empty"}, {"wrap": False, "open": True}):
        assert_refused(custom(practiser, scouted, rules=rules))
    assert_refused(custom(practiser, scouted, layout="pyramid"))  # the same sequence elsewhere
    flipped = mirrored(scouted)
    assert flipped != scouted
    assert_refused(custom(practiser, flipped))  # the same game, cards in other positions
    assert Deal.objects.filter(source=Source.CUSTOM).count() == customs_before

    # Every rule set's daily is refused, not only the one played.
    for rule_set in (Rules(wrap=False), Rules(open=True)):
        other = deals.daily_deal(deal_day(), rule_set)
        assert_refused(custom(practiser, other.code.split()))


@pytest.mark.django_db
def test_a_near_copy_with_a_few_cards_moved_is_refused_too(make_player: Any) -> None:
    """The cheapest way around an exact match: swap two cards the line does not need (the last two
    of the stock), or two layout cards. Each such copy still shares 13 cards in place."""
    cards = deals.daily_deal(deal_day(), Rules()).code.split()
    practiser = client_for(make_player("practiser"))
    for i, j in ((50, 51), (0, 27), (5, 40), (12, 13)):
        moved = list(cards)
        moved[i], moved[j] = moved[j], moved[i]
        assert_refused(custom(practiser, moved))
    two_swaps = list(cards)
    for i, j in ((0, 20), (30, 35)):  # four positions in three bands: the fourth is intact
        two_swaps[i], two_swaps[j] = two_swaps[j], two_swaps[i]
    assert_refused(custom(practiser, two_swaps))


@pytest.mark.django_db
def test_a_near_copy_with_cards_moved_in_every_part_of_the_deal_is_refused(
    make_player: Any,
) -> None:
    """Before, two swaps that touched all four bands of 13 (0<->20, 30<->45) made a deal the
    digests called new: a copy of today's daily with four cards moved could be practised. Now up
    to five swaps anywhere are refused; a deal that only shares cards by chance is not."""
    cards = deals.daily_deal(deal_day(), Rules()).code.split()
    practiser = client_for(make_player("practiser"))
    for swaps in (((0, 20), (30, 45)), ((1, 50), (9, 40), (14, 27), (22, 33), (5, 47))):
        moved = list(cards)
        for i, j in swaps:
            moved[i], moved[j] = moved[j], moved[i]
        assert_refused(custom(practiser, moved))
    reversed_cards = list(reversed(cards))  # every card in another place: another deal
    assert custom(practiser, reversed_cards).status_code == 201


def test_two_unrelated_deals_are_never_copies_by_chance() -> None:
    """One shared band (4 cards in 4 places) happens by chance among many deals; it takes two."""
    from tripeaks.engine.deal import from_seed
    from tripeaks.play.deal_digests import copies, digests

    layout = get_layout("classic")
    made = [digests(from_seed(seed, layout)) for seed in range(400)]
    one_band = 0
    for index, first in enumerate(made):
        for second in made[index + 1 :]:
            assert not copies(first.bands, first.game, second.bands, second.game)
            one_band += bool(set(first.bands) & set(second.bands))
    assert one_band < 5  # about 0.16 expected among 79,800 pairs


@pytest.mark.django_db
def test_a_numbered_deal_cannot_be_copied_into_a_custom_deal(make_player: Any) -> None:
    scout_api = client_for(make_player("scout"))
    deal = deals.numbered_deal(17, Rules())
    scouted_code = deal.code.split()
    response = scout_api.post("/api/games", {"mode": "numbered", "number": 17}, format="json")
    game = response.json()
    for _ in range(3):
        game = move(scout_api, game, "draw").json()
    move(scout_api, game, "resign")

    practiser = client_for(make_player("practiser"))
    assert_refused(custom(practiser, scouted_code))
    assert_refused(custom(practiser, [c.lower() for c in scouted_code], rules={"wrap": False}))


@pytest.mark.django_db
def test_deals_that_no_longer_rank_and_other_codes_can_still_be_played_as_custom_deals(
    make_player: Any,
) -> None:
    """An old daily nobody is still playing is a fine practice deal; so is any other code."""
    api = client_for(make_player("learner"))
    old = deals.daily_deal(deal_day() - timedelta(days=3), Rules())
    assert custom(api, old.code.split()).status_code == 201
    yesterday = deals.daily_deal(deal_day() - timedelta(days=1), Rules())
    assert_refused(custom(api, yesterday.code.split()))  # a game begun before midnight counts
    fresh = deals.make_random_deal(Rules(), "classic", claimed=False)
    assert custom(api, fresh.code.split()).status_code == 201


@pytest.mark.django_db
def test_a_deal_with_a_game_still_in_play_cannot_be_copied(make_player: Any) -> None:
    """A random deal (or a race's) ranks while its game is unfinished: its player could scout it,
    pause, practise a copy on another account, then undo back and play the line."""
    owner = client_for(make_player("owner"))
    game = owner.post("/api/games", {"mode": "random"}, format="json").json()
    deal = Deal.objects.get(games__id=game["id"])
    practiser = client_for(make_player("practiser"))
    assert_refused(custom(practiser, deal.code.split()))
    move(owner, game, "resign")
    assert custom(practiser, deal.code.split()).status_code == 201


@pytest.mark.django_db
@pytest.mark.parametrize("bands", [[], ["0:0123456789abcdef", "1:0123456789abcdef"]])
def test_deals_made_before_the_digests_get_them_once_filled(
    make_player: Any, bands: list[str]
) -> None:
    """Deals with no digests, or with bands cut by the older scheme (four of 13 cards)."""
    deal = deals.numbered_deal(5, Rules())
    Deal.objects.filter(pk=deal.pk).update(card_bands=bands, game_digest="")
    api = client_for(make_player("early"))
    assert custom(api, deal.code.split()).status_code == 201  # not yet known
    assert deals.fill_missing_digests() == 1
    assert_refused(custom(api, deal.code.split()))
    assert deals.fill_missing_digests() == 0


@pytest.mark.django_db
def test_a_worker_that_starts_gives_older_deals_their_digests(settings: Any) -> None:
    settings.RANDOM_POOL_LAYOUTS = []  # the pools are not what this test is about
    # A worker imports its tasks (which connect the receiver) before it is ready; so does this
    # test, which otherwise depends on another test having imported them (it failed alone).
    importlib.import_module("tripeaks.play.tasks")
    deal = deals.numbered_deal(6, Rules())
    Deal.objects.filter(pk=deal.pk).update(card_bands=[], game_digest="")
    worker_ready.send(sender=None)  # the suite runs tasks eagerly: as a worker would, at once
    deal.refresh_from_db()
    assert deal.card_bands and deal.game_digest


@pytest.mark.django_db
def test_the_copy_check_looks_the_digests_up_by_their_indexes(
    django_assert_num_queries: Any,
) -> None:
    """Not a scan of every deal: one query, which can use both digest indexes (the tables of a
    test are too small for the planner to prefer them, so sequential scans are turned off)."""
    daily = deals.daily_deal(deal_day(), Rules())
    fields = deals.digest_fields(deals.engine_deal(daily))
    with django_assert_num_queries(1):
        assert deals.copies_a_ranking_deal(fields["card_bands"], fields["game_digest"])
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        plan = deals.ranking_copies(fields["card_bands"], fields["game_digest"]).explain()
    assert "deal_card_bands" in plan and "deal_game_digest" in plan, plan


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_game_socket_refuses_the_copy_as_rest_does(make_player: Any) -> None:
    """`new` on a game socket starts games as POST /api/games does: the same refusal, and the
    socket keeps its game."""
    user = await database_sync_to_async(make_player)("socketeer")
    code, _ = winnable_code()
    old = await database_sync_to_async(start_custom)(client_for(user), code)
    daily = await database_sync_to_async(deals.daily_deal)(deal_day(), Rules())
    socket = await connect(user, old["id"])
    await socket.connect()
    await socket.receive_json_from()
    await socket.send_json_to({"type": "new", "mode": "custom", "deal": daily.code})
    assert await socket.receive_json_from() == {
        "type": "error",
        "detail": REFUSAL,
        "code": "ranked_deal",
    }
    await socket.send_json_to({"type": "sync"})
    assert (await socket.receive_json_from())["game"]["id"] == old["id"]
    await socket.disconnect()
