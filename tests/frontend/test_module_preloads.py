"""The home page asks at once for every module its route needs (frontend/modules.py,
``{% module_preloads %}``), and the numbers the server writes are in the page's digits
(``{% load locale_digits %}``)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import translation

from frontend.modules import closure, route_modules
from frontend.templatetags.locale_digits import in_locale_digits


def test_a_route_gets_its_page_module_and_every_module_below_it() -> None:
    modules = route_modules()
    urls = modules["urls"]
    play = [urls[i] for i in modules["routes"]["play"]]
    app = [urls[i] for i in modules["app"]]
    assert play[0] == "pages/play.js"
    # Deep in the graph: play.js -> table.js -> geometry.js; the first card needs no more
    assert {"pages/play/screen.js", "table.js", "geometry.js"} <= set(play)
    assert {"api.js", "i18n.js", "cards.js"} <= set(app)
    assert not set(app) & set(play)  # app.js's own imports are asked for once, for every route
    # The page's own parts it loads on demand come after (play.js -> play/live.js ->
    # play/assemble.js -> play/game.js), never the first card's modules again
    later = [urls[i] for i in modules["later"]["play"]]
    assert {"pages/play/live.js", "pages/play/assemble.js", "pages/play/game.js"} <= set(later)
    assert not set(later) & (set(play) | set(app))
    # A module loaded on demand elsewhere (a dynamic import()) is not asked for ahead: another
    # page's module, the dialogs, the welcome table (a deal in progress is the usual case)
    assert "pages/race.js" not in [urls[i] for i in modules["routes"]["races"]]
    assert "races" not in modules["later"]
    assert not {"pages/play/dialogs.js", "sound.js", "welcome.js"} & {*play, *later, *app}
    assert set(modules["routes"]) >= {"start", "play", "layouts", "boards", "stats", "races"}


def test_a_module_is_listed_once_even_when_imported_from_many() -> None:
    found = closure("frontend/js/pages/play.js")
    assert len(found) == len(set(found)) and "frontend/js/i18n.js" in found


@pytest.mark.django_db
def test_the_home_page_preloads_with_the_pages_nonce_before_its_stylesheet() -> None:
    response = Client().get("/")
    page = response.content.decode()
    script = re.search(r'<script nonce="([^"]+)">\(\(\)=>\{const m=(\{.*?\}),r=', page)
    assert script, "no preload script"
    assert f"'nonce-{script.group(1)}'" in response["Content-Security-Policy"]
    assert json.loads(script.group(2)) == route_modules()
    assert page.index("modulepreload") < page.index("site.css")


@pytest.mark.parametrize(
    ("language", "text", "said"),
    [
        ("ne", "2026-12-05 08:36", "२०२६-१२-०५ ०८:३६"),
        ("ne", '<li data-n="8">at least 8</li>', '<li data-n="8">at least ८</li>'),
        ("de", "2026-12-05", "2026-12-05"),
        ("en", "8", "8"),
    ],
)
def test_server_numbers_in_the_languages_digits_never_inside_a_tag(
    language: str, text: str, said: str
) -> None:
    assert in_locale_digits(text, language) == said
    with translation.override(language):
        from frontend.templatetags.locale_digits import digits

        assert digits(text) == said
