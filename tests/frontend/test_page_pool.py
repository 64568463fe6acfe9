"""The browser tests' kept pages (`PagePool`, tests/frontend/conftest.py): a page comes back to the
next test as a new context's would be, and one with what a reset cannot take back is closed; an init
script added by `init_script` is taken back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import (
    DESKTOP,
    PHONE,
    PagePool,
    Pages,
    init_script,
    listen,
    needs_chromium,
    not_reused,
)

pytestmark = [pytest.mark.e2e, needs_chromium]

CLIPBOARD = "() => navigator.permissions.query({name: 'clipboard-read'}).then(p => p.state)"


def test_a_kept_page_comes_back_without_the_last_tests_state(
    browser: Any, server_url: str, transactional_db: Any, _page_pool: PagePool
) -> None:
    first = Pages(browser, server_url, _page_pool)
    page = first.new(viewport=PHONE, dark=True, reduced_motion=True)
    page.goto("/")
    page.evaluate(
        "() => { localStorage.setItem('tp.sound', 'on'); sessionStorage.setItem('a', 'b') }"
    )
    page.context.add_cookies([{"name": "left", "value": "over", "url": server_url}])
    page.context.grant_permissions(["clipboard-read"])
    assert page.evaluate(CLIPBOARD) == "granted"
    first.close()

    second = Pages(browser, server_url, _page_pool)
    again = second.new(viewport=DESKTOP)
    assert again is page  # the same page, so the same renderer process
    assert again.context.cookies() == []
    again.goto("/")
    assert again.evaluate("() => [localStorage.length, sessionStorage.length]") == [0, 0]
    assert again.viewport_size == DESKTOP
    assert again.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches") is False
    assert again.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches") is False
    assert again.evaluate(CLIPBOARD) == "prompt"
    again.evaluate("() => console.error('heard by the second test only')")
    second.close()
    assert first.errors == []
    assert second.errors == ["heard by the second test only"]


@pytest.mark.parametrize("left", ["route", "listener", "init script"])
def test_a_page_left_with_what_a_reset_cannot_take_back_is_closed(
    browser: Any, server_url: str, transactional_db: Any, _page_pool: PagePool, left: str
) -> None:
    made = Pages(browser, server_url, _page_pool)
    page = made.new()
    if left == "route":
        page.route("**/favicon.ico", lambda route: route.abort())
    elif left == "listener":
        page.on("request", lambda request: None)
    else:
        not_reused(page).add_init_script("window.seen = true")
    made.close()
    assert page.is_closed()
    assert all(page not in kept for kept in _page_pool.free.values())


def test_a_page_comes_back_without_the_init_script_of_init_script(
    browser: Any, server_url: str, transactional_db: Any, _page_pool: PagePool
) -> None:
    first = Pages(browser, server_url, _page_pool)
    page = init_script(first.new(), "window.seen = (window.seen || 0) + 1")
    page.goto("/")
    assert page.evaluate("() => window.seen") == 1
    first.close()

    second = Pages(browser, server_url, _page_pool)
    again = second.new()
    assert again is page  # kept, where a page with an init script was closed
    again.goto("/")
    assert again.evaluate("() => window.seen") is None
    second.close()


def test_a_page_comes_back_without_the_listener_of_listen(
    browser: Any, server_url: str, transactional_db: Any, _page_pool: PagePool
) -> None:
    first = Pages(browser, server_url, _page_pool)
    heard: list[str] = []
    page = listen(first.new(), "request", lambda request: heard.append(request.url))
    page.goto("/")
    assert heard
    first.close()

    heard.clear()
    second = Pages(browser, server_url, _page_pool)
    again = second.new()
    assert again is page  # kept, where a page with a listener of the test's was closed
    again.goto("/")
    assert heard == []
    second.close()
