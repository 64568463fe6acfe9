"""An ended arena's standings link each player's games to their replays, for its players (as a
race's results link each racer's game): the links are there at phone and laptop sizes, the page
does not scroll sideways, and a link opens the game's review."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.frontend.conftest import PHONE, needs_chromium, shot
from tests.frontend.helpers import an_arena
from tests.frontend.test_e2e_review import in_thread, signed_up
from tests.review.helpers import deal, played
from tripeaks.arenas import services
from tripeaks.arenas.models import Arena, Phase
from tripeaks.play.models import Game

pytestmark = [pytest.mark.e2e, needs_chromium]

LAPTOP = {"width": 1366, "height": 800}


def ended_arena(players: list[Any]) -> tuple[Arena, dict[str, list[Game]]]:
    """An arena its players joined and played in (two games each), then ended."""

    def make() -> tuple[Arena, dict[str, list[Game]]]:
        arena = an_arena("Replayed arena", -timedelta(minutes=5), timedelta(minutes=5))
        games: dict[str, list[Game]] = {}
        for player in players:
            services.join(arena_id=arena.pk, user=player)
            games[player.username] = [
                played(player, deal("random"), contest=arena.group) for _ in range(2)
            ]
        Arena.objects.filter(pk=arena.pk).update(
            ends_at=timezone.now() - timedelta(seconds=1), state=Phase.FINISHED
        )
        return arena, games

    return in_thread(make)


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_an_ended_arenas_standings_link_its_players_games_to_their_replays(
    pages: Any, size: dict[str, int]
) -> None:
    page = pages.new(viewport=size)
    ann = signed_up(page, "replay_ann")
    bob = in_thread(lambda: get_user_model().objects.create_user(username="replay_bob"))
    arena, games = ended_arena([ann, bob])

    page.goto(f"/#/arenas/{arena.pk}")
    standings = page.locator("[data-testid=standings]")
    row = standings.locator("tbody tr:has-text('replay_bob')")
    links = row.locator("[data-testid=arena-replays] a")
    links.first.wait_for()
    assert links.count() == 2
    hrefs = [links.nth(i).get_attribute("href") for i in range(2)]
    assert hrefs == [f"#/review/{game.pk}" for game in games["replay_bob"]]
    assert standings.locator("[data-testid=arena-replays] a").count() == 4
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], "the standings scroll sideways"
    shot(page, f"arena-replays-{size['width']}")

    links.first.click()
    page.wait_for_url(f"**/#/review/{games['replay_bob'][0].pk}")
    page.locator(".review-list").wait_for()
