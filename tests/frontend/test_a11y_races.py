"""Issue #38, item 10: axe-core finds nothing on the race screens (the lobby, a race waiting for
its players, running and finished) in English, German and Nepali, light and dark.

Each screen is seen by the player it belongs to (a seat in the race), each language loaded afresh
(the language is the page's: its cookie), each theme the system's (prefers-color-scheme), with
every finite animation ended before axe reads the colours. The players are signed in by a session
made here, not through the sign-up form: five forms would be most of the file's time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
)
from django.contrib.sessions.backends.db import SessionStore

from tests.frontend.axe import violations
from tests.frontend.conftest import DESKTOP, Pages, api_post, needs_chromium
from tests.play.contests import begun_race
from tripeaks.engine.rules import Rules
from tripeaks.races import services as races

pytestmark = [pytest.mark.e2e, needs_chromium]

LANGUAGES = ("en", "de", "ne")
THEMES = ("light", "dark")
SETTLED = """() => document.getAnimations().every(
    (a) => a.playState !== "running" || a.effect.getComputedTiming().iterations === Infinity)"""


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Races deal from the pool (tests/conftest.py)."""


def player(name: str) -> Any:
    return get_user_model().objects.create_user(
        username=name, password="x" * 20, display_name=name.title()
    )


def signed_in(pages: Pages, user: Any) -> Any:
    """A desktop page whose browser holds a session of `user` (as signing in makes one)."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    page = pages.new(viewport=DESKTOP)
    page.context.add_cookies(
        [
            {
                "name": django_settings.SESSION_COOKIE_NAME,
                "value": session.session_key,
                "url": pages.base_url,
            }
        ]
    )
    return page


Screen = tuple[str, Any, str, str]  # name, page, route, what shows it is ready


def axe_every_way(pages: Pages, screens: list[Screen], before: Callable[[Any], None]) -> None:
    """axe on each screen in each language and theme; every violation found, then asserted."""
    found: dict[str, list[dict[str, Any]]] = {}
    for language in LANGUAGES:
        for name, page, route, ready in screens:
            page.context.add_cookies(
                [{"name": "django_language", "value": language, "url": pages.base_url}]
            )
            page.goto(f"/?{language}{route}")  # a new query: the page is loaded afresh
            page.wait_for_selector(ready)
            assert page.locator("html").get_attribute("lang") == language
            before(page)
            for theme in THEMES:
                page.emulate_media(color_scheme=theme)
                page.wait_for_function(SETTLED)
                found[f"{name}, {language}, {theme}"] = violations(page)
    said = [f"{where}: {v['id']} {v['nodes']}" for where, vs in found.items() for v in vs]
    assert said == [], "\n".join(said)
    assert len(found) == len(screens) * len(LANGUAGES) * len(THEMES)


def test_axe_finds_nothing_on_the_race_screens_in_three_languages_light_and_dark(
    pages: Pages, settings: Any
) -> None:
    ann, bob, cat, dan, eve = (player(f"axr_{n}") for n in ("ann", "bob", "cat", "dan", "eve"))
    waiting = races.create_race(host=ann, rules=Rules(), seats=2)
    running = begun_race(bob, cat, settings)
    finished = begun_race(dan, eve, settings)
    quitter = signed_in(pages, eve)  # leaves through the server: it tells the race's sockets
    quitter.goto("/")
    assert api_post(quitter, f"/api/races/{finished.pk}/leave", {}).status == 200
    state = "[data-testid=race-state][data-state={}]".format
    screens: list[Screen] = [
        ("lobby", signed_in(pages, ann), "#/races", "[data-testid=race-form]"),
        ("race waiting", signed_in(pages, ann), f"#/races/{waiting.pk}", state("open")),
        ("race running", signed_in(pages, bob), f"#/races/{running.pk}", state("running")),
        ("race finished", signed_in(pages, dan), f"#/races/{finished.pk}", state("finished")),
    ]

    def settled(page: Any) -> None:
        # The lobby's lists come after the form; a running race's table after its first frame.
        page.wait_for_load_state("networkidle")
        if page.locator(state("running")).count():
            page.wait_for_function("() => window.__tpGame && window.__tpGame.view()")

    axe_every_way(pages, screens, settled)
