"""The walk of the language tests (test_e2e_language_walk_de.py, test_e2e_language_walk_ne.py, a file
each so that two workers walk at once). Issue #38, item 7: German and Nepali are complete. A player with a deal in progress, a finished
game, an arena and a race walks every page of the site in English, German and Nepali; every text
the page shows (text nodes, the options of every select, and the names a screen reader reads:
aria-label, title, placeholder, alt) is collected.

- Nepali: no Latin word and no ASCII digit may show, but for the few proper names below.
- German: no text may be the same as on the English page (a string the catalog missed is shown
  in English in both), but for names and words that are German too.

A miss names the page and the text, so a new untranslated string fails here at once.
"""

from __future__ import annotations

import re
from typing import Any

from tests.frontend.conftest import DESKTOP, api_post, init_script, sign_up
from tests.frontend.helpers import an_arena, open_game

PLAYER = "walker_wanda"
ARENA = "Hourly arena"  # the default schedule's name: the page shows it in the language
# Proper names and words every language writes alike (the site's name, the languages' own names,
# a rating system's name), the player's own name, and the cards' faces (a rank as the card shows it).
ALLOWED = {
    "TriPeaks Online", "TriPeaks", "English", "Deutsch", "Glicko-2", "API", "JSON", PLAYER,
    # The browser and system of a session, as ua-parser names them ("HeadlessChrome 156 on Linux").
    "HeadlessChrome", "Linux",
    # The sessions page's time zone, by its name (the browser's: UTC here).
    "UTC",
}  # fmt: skip
# Machine text: an address, a link to copy (the numbered deal's challenge link).
MACHINE = re.compile(r"^(\d{1,3}(\.\d{1,3}){3}|https?://\S+)$")
# German words spelt as in English.
SAME_IN_GERMAN = {"live"}

COLLECT = """() => {
  const seen = new Set();
  const add = (t) => { t = (t || '').replace(/\\s+/g, ' ').trim(); if (t) seen.add(t); };
  const visible = (el) => !!el && !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length)
    && getComputedStyle(el).visibility !== 'hidden';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script, style, noscript, svg, template')) continue;
    if (el.closest('select')) continue;
    if (visible(el) || el.closest('.sr-only')) add(n.textContent);
  }
  for (const o of document.querySelectorAll('select option')) if (visible(o.closest('select'))) add(o.textContent);
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    if (el.closest('svg') && !el.matches('svg')) continue;
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) if (el.hasAttribute(a)) add(el.getAttribute(a));
  }
  add(document.title);
  return [...seen];
}"""


def _setup(page: Any) -> dict[str, str]:
    """A player with a finished game (statistics, boards), a deal in progress, a running arena and
    an open race; returns the pages' paths that need their ids."""
    sign_up(page, PLAYER)
    body = {"mode": "random", "rules": {"wrap": True}}
    started = api_post(page, "/api/games", body).json()
    move = {"seq": started["seq"], "action": "draw"}
    assert api_post(page, f"/api/games/{started['id']}/moves", move).ok
    assert api_post(page, "/api/games", body).status == 201  # the first one counts as lost
    arena = an_arena(ARENA)
    race = api_post(page, "/api/races", {"rules": {"wrap": True}}).json()
    return {"arena": str(arena.id), "race": str(race.get("id", ""))}


def _pages(ids: dict[str, str]) -> list[str]:
    return [
        "/", "/#/play", "/#/layouts", "/#/numbered", "/#/numbered/42/wrap-closed",
        "/#/boards/today", "/#/boards/past", "/#/boards/numbered", "/#/boards/alltime",
        "/#/stats", "/#/help", "/#/custom", "/#/arenas", f"/#/arenas/{ids['arena']}",
        "/#/races", f"/#/races/{ids['race']}", "/ratings/", "/accounts/", "/accounts/sessions/",
        "/accounts/email/", "/accounts/password/", "/fair-play/",
    ]  # fmt: skip


# The page's reads in flight, counted from inside it (an init script, before the page's own):
# a fetch from its call until its body is read, a socket from its opening until its first message
# (a race's or an arena's state) or its end. An answer's count ends a task after it is read, so
# that a read the answer starts (a page's second read: standings after the arena...) is counted
# before the first one's ends.
COUNT_READS = """(() => {
  let reads = 0;
  const done = () => setTimeout(() => { reads -= 1; }, 0);
  const counted = (promise) => { reads += 1; return promise.finally(done); };
  const fetched = window.fetch;
  window.fetch = function (...args) {
    return counted(fetched.apply(this, args)).then((res) => {
      for (const body of ['json', 'text']) {
        const read = res[body].bind(res);
        res[body] = () => counted(read());
      }
      return res;
    });
  };
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      reads += 1;
      let waiting = true;
      const heard = () => { if (waiting) { waiting = false; done(); } };
      for (const event of ['message', 'close', 'error']) this.addEventListener(event, heard);
    }
  };
  window.__tpReads = () => reads;
})()"""
# The page has nothing left to read, at two animation frames in a row (the polls of
# wait_for_function): what it draws from its reads is drawn.
QUIET = """() => {
  const quiet = window.__tpReads() === 0;
  const twice = quiet && window.__tpQuiet === true;
  window.__tpQuiet = quiet;
  return twice;
}"""


def counting_reads(page: Any) -> Any:
    """`page`, its reads counted from its next navigation on (`QUIET` waits for them)."""
    return init_script(page, COUNT_READS)


def _load_afresh(page: Any, path: str, load: str) -> None:
    """`path` loaded as a new document, never a jump within the last one (a route of the app is a
    hash): its query is this load's own. Not by way of about:blank: the way back from there to
    the site starts a new renderer process, a load each (0.1-0.2 s of CPU, and the walks' main
    cost)."""
    base, hash_, route = path.partition("#")
    page.goto(f"{base}?walk={load}{hash_}{route}")


# A route of the app drawn by a jump from the last one (its hash set, as the site's own links do):
# the page drawn before is marked so that the wait is for the new route's own, and the reads' quiet
# is counted afresh.
JUMP = """(hash) => {
  const p = document.querySelector('#app > .page');
  if (p) p.tpWalkLeft = true;
  window.__tpQuiet = false;
  location.hash = hash;
}"""
DRAWN = """() => {
  const p = document.querySelector('#app > .page');
  return p && !p.tpWalkLeft && p.children.length;
}"""


def _texts(page: Any, path: str, load: str, jump: bool = False) -> set[str]:
    """The texts `path` shows: loaded afresh, or with `jump` reached from the app's page open
    (in the walk's language) by its hash, as a player goes from page to page."""
    if jump:
        page.evaluate(JUMP, path.partition("#")[2])
    else:
        _load_afresh(page, path, load)
    if path == "/" or "#/" in path:  # the app's page drawn, and its second read (standings...)
        page.wait_for_function(DRAWN)
        page.wait_for_function(QUIET)
    if path != "/#/play":
        return set(page.evaluate(COLLECT))
    # The pause menu (open already when the last walk left the game paused), then New deal.
    page.wait_for_function("() => window.__tpGame && window.__tpGame.view()")
    if not page.locator("dialog[open]").count():
        page.keyboard.press("p")
    page.wait_for_selector("dialog[open]")
    found = set(page.evaluate(COLLECT))
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[open]", state="detached")
    page.keyboard.press("n")
    page.wait_for_selector("dialog[data-testid=new-deal][open]")
    return found | set(page.evaluate(COLLECT))


def _app_route(path: str) -> bool:
    return path == "/" or path.startswith("/#/")


# Signed out: the start page and the account pages a newcomer sees.
SIGNED_OUT = [
    "/", "/accounts/login/", "/accounts/signup/", "/accounts/guest/", "/accounts/password/reset/",
]  # fmt: skip


def walk(pages: Any, page: Any, language: str, paths: list[str]) -> dict[str, set[str]]:
    cookie = {"name": "django_language", "value": language, "url": pages.base_url}
    page.context.add_cookies([cookie])
    # The language is the document's (its cookie, read at a load): the walk's first page is loaded
    # afresh, and each route of the app after it is a jump from the one before (a load each was
    # most of the walk's CPU); the server's pages are loads.
    found: dict[str, set[str]] = {}
    for i, path in enumerate(paths):
        jump = path.startswith("/#/") and i > 0 and _app_route(paths[i - 1])
        found[path] = _texts(page, path, f"{language}-{i}", jump)
    stranger = counting_reads(pages.new(viewport=DESKTOP))
    stranger.context.add_cookies([cookie])
    found |= {
        f"{path} (signed out)": _texts(stranger, path, f"{language}-out-{i}")
        for i, path in enumerate(SIGNED_OUT)
    }
    return found


LATIN_WORD = re.compile(r"[A-Za-z]{2,}|[0-9]")
# A card's name keeps the rank its face shows ("हुकुमको 9": the accessible name holds the visible
# text, format.js cardName); the suits are the catalog's.
NEPALI_CARD = re.compile(r"(ईंटको|पानको|चिडीको|हुकुमको) ([2-9]|10)\b")


def _without_names(text: str) -> str:
    for name in sorted(ALLOWED, key=len, reverse=True):
        text = text.replace(name, " ")
    return NEPALI_CARD.sub(" ", text)


def nepali_misses(texts: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{path}: {text!r}"
        for path, found in texts.items()
        for text in found
        if LATIN_WORD.search(_without_names(text)) and not MACHINE.match(text)
    )


def german_misses(english: dict[str, set[str]], german: dict[str, set[str]]) -> list[str]:
    misses = []
    for path, found in german.items():
        for text in found & english[path]:
            if (
                not MACHINE.match(text)
                and set(re.findall(r"[A-Za-z]{2,}", _without_names(text))) - SAME_IN_GERMAN
            ):
                misses.append(f"{path}: {text!r}")
    return sorted(misses)


def walker(pages: Any) -> tuple[Any, list[str]]:
    page = counting_reads(pages.new(viewport=DESKTOP))
    paths = _pages(_setup(page))
    open_game(page)
    return page, paths
