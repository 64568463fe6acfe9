"""axe-core on a set of screens in English, German and Nepali, light and dark (issue #38, item
10): each screen seen by the player it belongs to, each language loaded afresh (the language is
the page's: its cookie) at a page's first screen in it, its next screens there reached by their
route (the same query: a jump by hash, not a load of ~0.2 s of CPU with axe's first run in the
new document, some three later ones); each theme the system's (prefers-color-scheme), with every
finite animation ended before axe reads the colours. Players are signed in by a session made
here, not through the sign-up form (a form each was most of a file's time)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from tests.frontend.axe import THEMES, in_each_theme
from tests.frontend.conftest import DESKTOP, Pages, init_script, sign_in
from tests.frontend.language_walk import QUIET, counting_reads

LANGUAGES = ("en", "de", "ne")
COUNT_LOADS = "sessionStorage.tpLoads = String(Number(sessionStorage.tpLoads || 0) + 1)"


def player(name: str) -> Any:
    return get_user_model().objects.create_user(
        username=name, password="x" * 20, display_name=name.title()
    )


def signed_in(pages: Pages, user: Any, viewport: dict[str, int] = DESKTOP) -> Any:
    """A page whose browser holds a session of `user` (as signing in makes one)."""
    return sign_in(pages.new(viewport=viewport), user)


@dataclass
class Screen:
    name: str
    page: Any  # the browser page of the player it belongs to
    route: str  # the hash, "#/races"
    ready: str  # a selector that shows the screen is drawn
    then: Callable[[Any], None] = lambda page: None  # what brings it to its state after that


def axe_every_way(pages: Pages, screens: list[Screen]) -> dict[str, int]:
    """axe on each screen in each language and theme; every violation found is said, then the
    test fails. Returns the count of checks by screen."""
    found: dict[str, list[dict[str, Any]]] = {}
    for page in {id(screen.page): screen.page for screen in screens}.values():
        init_script(counting_reads(page), COUNT_LOADS)
    for language in LANGUAGES:
        for screen in screens:
            page = screen.page
            page.context.add_cookies(
                [{"name": "django_language", "value": language, "url": pages.base_url}]
            )
            # A new query loads the page afresh; the same one jumps to the route.
            page.goto(f"/?{language}{screen.route}")
            page.wait_for_selector(screen.ready)
            assert page.locator("html").get_attribute("lang") == language
            page.wait_for_function(QUIET)  # lists come after the page's frame: all read
            screen.then(page)
            for theme, on in in_each_theme(page).items():
                found[f"{screen.name}, {language}, {theme}"] = on
    said = [f"{where}: {v['id']} {v['nodes']}" for where, vs in found.items() for v in vs]
    assert said == [], "\n".join(said)
    assert len(found) == len(screens) * len(LANGUAGES) * len(THEMES)
    return {screen.name: len(LANGUAGES) * len(THEMES) for screen in screens}


def documents_loaded(page: Any) -> int:
    """How many documents the page loaded in `axe_every_way` (its walk and after)."""
    return int(page.evaluate("() => sessionStorage.tpLoads || 0"))
