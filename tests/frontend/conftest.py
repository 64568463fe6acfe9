"""Browser tests against a real ASGI server (Uvicorn with the options of `tripeaks.stack.serve`: HTTP
and WebSockets) on loopback.

The server runs in a forked process against this test process's own test database and Redis
prefix, so it works under xdist; tests use ``transactional_db`` so the
server sees what they write and everything is flushed after. The browser is Debian's Chromium
in its headless build, /usr/bin/chromium-headless-shell (package chromium-headless-shell, built
from the same sources and version as the package chromium): the build Playwright itself runs
for headless tests. It has no browser window layer to drive, and the browser tests cost 101 s of
Chromium CPU in it against 165 s in /usr/bin/chromium (tests/frontend alone, measured here).
The full browser still runs the home page's test (tests/foundation/test_e2e_home.py).
Playwright never downloads a browser.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import shutil
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CONNECTION_SLOT_WAIT_S
from tests.ports import free_port

CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SERVER_HOST = "127.0.0.1"  # the test servers' (cookies are the host's, whatever the port)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "frontend"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "tri-peaks-Solitaire-42"
# The table's animations play at this multiple of their speed (DevTools' own animation speed
# control): they still run and finish, in a tenth of the time. At their real speed a test waited
# for them as a player watches them: a deal flies in for 0.8 s before its cards take a click, a
# win's cascade plays 2.5 s before the results. The browser tests took 130 s against 159 s in one
# process here, and 143 s of the machine's CPU against 148 s.
ANIMATION_RATE = 10
# How long a browser test waits for what it waits on (Playwright's default for a page's actions
# and waits, and for `expect`): a page that answers is taken as soon as it answers, so the cap only
# decides how soon one that never comes fails the test. At 10 s (5 s for `expect`) tests failed on
# two cores at load 14-20, their page there a moment later (a fresh server's first page, a sign-up).
WAIT_MS = 30_000
# axe-core (tests/frontend/axe.py) among the test servers' static files, for a page to load as a
# script of its own origin (which the pages' CSP allows): the browser's HTTP cache and V8's code
# cache keep it between documents, where its 650 kB evaluated through DevTools were sent and
# compiled afresh in each document.
AXE_PATH = "tripeaks-tests/axe.min.js"

needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="needs Debian's chromium-headless-shell"
)


def _in_the_server_process() -> None:
    """Set up the forked server: the test database, and its own copies of what this process may
    already have made before the fork, when an in-process socket test ran first:

    - asgiref's one thread for thread-sensitive calls: the fork copies the executor, not its
      thread, so every socket's session lookup would wait forever;
    - the channel layer: it carries this process's client prefix, and the two processes would pop
      each other's socket messages off the same Redis list;
    - its database connections' name (`_connections_of`), for the end of the tests to wait for;
    - its connections from a pool, as production's (tests/settings.py leaves the test process
      without one): a connection for each request and each socket's database call, opened and
      closed, was ~19 connections a browser test, each ~2.4 ms of a PostgreSQL backend's start
      and ~1 ms of the client's.

    The server outlives each test's emptied database, so it keeps no daily deal in memory, nor the
    ones this process read before the fork: the fork comes before a test's fresh start forgets
    them, and a server that kept one started games on a deal an emptied database had lost (a 500
    from the foreign key, when an in-process test that read a daily deal ran just before)."""
    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from channels.testing.live import set_database_connection
    from django.conf import settings

    from tripeaks.play import deals

    set_database_connection()
    settings.DATABASES["default"]["OPTIONS"]["application_name"] = _connections_of(os.getpid())
    pool = getattr(settings, "SERVER_DB_POOL", None)  # (tests/settings.py)
    if pool:
        # A request waits for a connection as long as a plain one waits for a free slot on the
        # shared PostgreSQL (the pool tries again meanwhile), not production's 3 s.
        wait = {"timeout": CONNECTION_SLOT_WAIT_S}
        settings.DATABASES["default"]["OPTIONS"]["pool"] = {**pool, **wait}
        settings.DATABASES["default"]["CONN_MAX_AGE"] = 0  # a pool's, as in production
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    channel_layers.backends = {}
    deals.KNOWN_DAILY_MAX = 0
    deals.forget_daily_deals()


def _connections_of(server_pid: int) -> str:
    """The application_name of a test server's database connections."""
    return f"tripeaks-test-server-{server_pid}"


def _collect_static(root: Path) -> None:
    """Static files as production serves them: collected into a folder of their own, a gzipped
    copy beside each (WhiteNoise's compressor, as ``CompressedManifestStaticFilesStorage`` makes
    them), and served by the WhiteNoise middleware, so the page weights the tests measure are
    the weights on the wire. (Plain copies, without the manifest's hashed names: the test
    settings' storage names files as they are.)"""
    from django.conf import settings
    from django.contrib.staticfiles import finders
    from whitenoise.compress import Compressor

    compressor = Compressor(use_brotli=False, quiet=True)
    for finder in finders.get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            prefix = getattr(storage, "prefix", None) or ""
            target = root / prefix / path
            if target.exists():
                # The first finder's file wins, as collectstatic does; or a server before this
                # one (`_static_root`) collected it.
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(storage.path(path), target)
            if compressor.should_compress(str(target)):
                compressor.compress(str(target))
    axe = root / AXE_PATH
    axe.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(Path(__file__).resolve().parent / "vendor" / "axe.min.js", axe)
    settings.STATIC_ROOT = root


def _serve(port: int, static_root: Path, collect: Callable[[Path], None] = _collect_static) -> None:
    """(The forked server process.) The test application, its static files included, on `port`;
    `collect` puts them in `static_root` and may set up the process as a run of its own needs."""
    import uvicorn
    from channels.testing.live import make_application

    from tripeaks.stack.serve import uvicorn_options

    _in_the_server_process()
    collect(static_root)
    # A handler made before the fork (an in-process socket test imports tripeaks.config.asgi) holds a
    # WhiteNoise that never saw these files: the server's HTTP side gets a fresh one.
    from tripeaks.config import asgi
    from tripeaks.infra.request_threads import ReusedThreadsASGIHandler

    asgi.router.application_mapping["http"] = ReusedThreadsASGIHandler()
    application = make_application(static_wrapper=None)
    config = uvicorn.Config(application, host=SERVER_HOST, port=port, **uvicorn_options())
    uvicorn.Server(config).run()


def _answers(url: str) -> bool:
    """The server answers HTTP (any status: health may say a part is failing, which the tests
    that need that part find out for themselves)."""
    try:
        # Health asks the database, Redis and the broker (and waits for a worker that the tests do
        # not run): on two busy cores a fresh server's first answers take seconds.
        urllib.request.urlopen(f"{url}/api/health", timeout=10).read()
        return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def _static_root() -> Iterator[Path]:
    """The static files of this process's test servers (`_collect_static`): the first server
    collects them, the second finds them there (a collection is a second of CPU)."""
    root = Path(tempfile.mkdtemp(prefix="tripeaks-static-"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def server_url(django_db_setup: Any, django_db_blocker: Any, _static_root: Path) -> Iterator[str]:
    yield from live_server(django_db_blocker, _collect_static, static_root=_static_root)


@pytest.fixture(scope="session")
def limited_url(server_url: str, django_db_blocker: Any, _static_root: Path) -> Iterator[str]:
    """A second test server (the same database and Redis prefix) with the production limits and
    the fair-play timing check on (tests/frontend/refusals.py): one for the process, shared by the
    refusals' test files."""
    from tests.frontend.refusals import GAME_STARTS_A_MINUTE, GUESTS_AN_HOUR, HINTS_A_MINUTE, LIMITS

    assert LIMITS["solver"] == f"{HINTS_A_MINUTE}/min"
    assert LIMITS["game_start"] == f"{GAME_STARTS_A_MINUTE}/min"
    assert LIMITS["guest_address"] == f"{GUESTS_AN_HOUR}/hour"
    limited = {"PLAY_THROTTLE_RATES": LIMITS, "FAIR_PLAY_TIMING_CHECK": True}
    yield from live_server(django_db_blocker, _collect_static, limited, static_root=_static_root)


def live_server(
    django_db_blocker: Any,
    collect: Callable[[Path], None],
    settings_in_server: dict[str, Any] | None = None,
    static_root: Path | None = None,
) -> Iterator[str]:
    """A forked server's URL while it runs (`_serve`), stopped and cleaned up after; the server
    forked with `settings_in_server` set (this process's settings are as they were after). Its
    static files are collected into `static_root` (a folder of its own when None, removed after)."""
    from django.conf import settings
    from django.db import connections

    port = free_port()
    url = f"http://{SERVER_HOST}:{port}"
    own_root = static_root is None
    root = Path(tempfile.mkdtemp(prefix="tripeaks-static-")) if own_root else static_root
    process = multiprocessing.get_context("fork").Process(
        target=_serve, args=(port, root, collect), daemon=True
    )
    changed = settings_in_server or {}
    saved = {name: getattr(settings, name) for name in changed}
    # Forked while database access is allowed, so the server process may use the database;
    # it must not share this process's connections.
    try:
        with django_db_blocker.unblock():
            connections.close_all()
            for name, value in changed.items():
                setattr(settings, name, value)
            process.start()
    finally:
        for name, value in saved.items():
            setattr(settings, name, value)
    deadline = time.monotonic() + 120  # a fresh server on two cores busy with the suite
    while not _answers(url):
        if not process.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.2)
    yield url
    process.terminate()
    process.join(15)
    if process.is_alive():  # not down after its graceful shutdown: it must not outlive the tests
        process.kill()
        process.join()
    if own_root:
        shutil.rmtree(root, ignore_errors=True)
    with django_db_blocker.unblock():
        _wait_for_server_connections_to_go(_connections_of(process.pid))


def _wait_for_server_connections_to_go(name: str) -> None:
    """The server's connections (its move writer's above all) outlive it for a moment: PostgreSQL
    ends a dead client's backend a little after the process is gone, and until then the test
    database cannot be dropped at the end of the session. Only the server's, by their `name`:
    this process keeps connections of its own (a thread's), and a wait for every other one of
    the database ran to its 5 s end at every server's stop (10 s at the end of each worker)."""
    from django.db import connection

    for _ in range(100):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND application_name = %s",
                [name],
            )
            (left,) = cursor.fetchone()
        if not left:
            return
        time.sleep(0.05)


@pytest.fixture(scope="session")
def _chromium() -> Iterator[tuple[Any, asyncio.AbstractEventLoop]]:
    """One Chromium for every browser test of the process (a launch is 1.4 s of CPU and 2 s; once
    a module it was 15 launches a run), with the event loop Playwright's sync API runs it on.

    That API leaves its loop set as the thread's running loop after every call: between browser
    modules it is unset, so that the other tests (async ones, Django's async-safety checks) find
    no loop running, as they did when the browser closed with its module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        loop = asyncio.get_running_loop()
        asyncio._set_running_loop(None)
        try:
            yield chromium, loop
        finally:
            asyncio._set_running_loop(loop)
            chromium.close()


@pytest.fixture(scope="module")
def browser(_chromium: tuple[Any, asyncio.AbstractEventLoop]) -> Iterator[Any]:
    from playwright.sync_api import expect

    chromium, loop = _chromium
    expect.set_options(timeout=WAIT_MS)
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    asyncio._set_running_loop(loop)
    try:
        yield chromium
    finally:
        asyncio._set_running_loop(None)
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


# Where a page waits between tests for the next one (`PagePool`): a JSON 404 of the test server,
# so a page of the same origin and the same Cross-Origin-Opener-Policy: a next test's first load
# is taken by the same renderer process.
PARKED = "/api/tripeaks-test-page-parked"


class PagePool:
    """The process's pages kept between tests, a browser context each, by test server and locale.

    A new context costs two renderer processes before its first page is drawn (the page's
    about:blank, then a second one when the site's Cross-Origin-Opener-Policy takes the page into
    a browsing context group of its own), and cold caches (0.47 s of the machine's CPU a context
    and first load, against 0.15-0.26 s for a load in a kept page, measured here). A test's page is
    given back when the test ends: parked on `PARKED` (the test's document and its sockets gone
    before the database is emptied), its cookies, permissions and storage cleared; the next test
    sets its viewport and media as a new context would have. A page is closed instead when a reset
    cannot take back what the test did (`not_reused`, a route, a listener of its own), or when it
    is closed already. The HTTP cache stays: a later test's first load is a returning visitor's
    (the tests that measure bytes on the wire make contexts of their own)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.free: dict[tuple[str, str], list[Any]] = {}

    def take(self, base_url: str, locale: str) -> Any:
        free = self.free.get((base_url, locale))
        return free.pop() if free else new_page(self.browser, base_url, locale=locale)

    def give_back(self, page: Any, base_url: str, locale: str) -> None:
        from playwright.sync_api import Error

        _take_off_listeners(page)
        if not _resettable(page):
            page.context.close()
            return
        try:
            for script in getattr(page.context, _INIT_SCRIPTS, ()):
                script.close()  # before the parking load, which would run them
            setattr(page.context, _INIT_SCRIPTS, [])
            if not page.url.endswith(PARKED):  # (a page the test never loaded is parked still)
                page.goto(PARKED)
            page.evaluate("() => { localStorage.clear(); sessionStorage.clear() }")
            page.context.clear_cookies()
            setattr(page.context, _CSRF_TOKEN, None)
            page.context.clear_permissions()
        except Error:  # a page that does not reset is not kept
            page.context.close()
            return
        self.free.setdefault((base_url, locale), []).append(page)


def new_page(browser: Any, base_url: str, **options: Any) -> Any:
    """A page in a new context of its own (`options` the context's), its animations at
    ANIMATION_RATE (the rate holds for every document the page loads)."""
    context = browser.new_context(base_url=base_url, **options)
    page = context.new_page()
    context.new_cdp_session(page).send(
        "Animation.setPlaybackRate", {"playbackRate": ANIMATION_RATE}
    )
    return page


_NOT_REUSED = "_tripeaks_not_reused"
_INIT_SCRIPTS = "_tripeaks_init_scripts"
_LISTENERS = "_tripeaks_listeners"  # (event, handler) of `listen`, taken off at the give-back
_CSRF_TOKEN = "_tripeaks_csrf_token"  # the CSRF cookie's value `sign_in` set, None once cleared
# A page's events that a test may listen to; a listener left on a kept page would hear the next
# test's page.
_PAGE_EVENTS = (
    "console",
    "pageerror",
    "request",
    "response",
    "requestfinished",
    "websocket",
    "dialog",
    "framenavigated",
    "load",
    "domcontentloaded",
    "popup",
    "download",
)


def not_reused(page: Any) -> Any:
    """`page`, its context closed after the test rather than kept for another (`PagePool`): for
    what a reset cannot take back (a fake clock, a CDP session of the test's, an init script not
    added by `init_script`)."""
    setattr(page.context, _NOT_REUSED, True)
    return page


def init_script(page: Any, script: str) -> Any:
    """`page`, `script` run in each document it loads from now on before the document's own
    scripts (Playwright's init script): taken back when the test gives the page back, so that the
    page is kept (`PagePool`; a new context is two renderer processes and cold caches)."""
    added = page.add_init_script(script)
    setattr(page.context, _INIT_SCRIPTS, [*getattr(page.context, _INIT_SCRIPTS, []), added])
    return page


def listen(page: Any, event: str, handler: Callable[..., Any]) -> Any:
    """`page`, `handler` called at each of its `event`s from now on: taken off when the test gives
    the page back, so that the page is kept (`PagePool`; a listener of the test's own is not)."""
    page.on(event, handler)
    setattr(page, _LISTENERS, [*getattr(page, _LISTENERS, []), (event, handler)])
    return page


def _take_off_listeners(page: Any) -> None:
    for event, handler in getattr(page, _LISTENERS, ()):
        page.remove_listener(event, handler)
    setattr(page, _LISTENERS, [])


def _resettable(page: Any) -> bool:
    if page.is_closed() or getattr(page.context, _NOT_REUSED, False):
        return False
    own, context = page._impl_obj, page.context._impl_obj  # Playwright's own state of the two
    if own._routes or own._web_socket_routes or context._routes or context._web_socket_routes:
        return False
    return not any(own.listener_count(event) for event in _PAGE_EVENTS)


class Pages:
    """New browser pages on the test server; each collects console errors, checked at the end.
    With a `pool`, pages kept from the process's earlier tests (`PagePool`)."""

    def __init__(self, browser: Any, base_url: str, pool: PagePool | None = None) -> None:
        self.browser = browser
        self.base_url = base_url
        self.pool = pool
        self.contexts: list[Any] = []
        self.lent: list[tuple[Any, str, Callable[..., None], Callable[..., None]]] = []
        self.errors: list[str] = []

    def new(
        self,
        *,
        viewport: dict[str, int] = DESKTOP,
        dark: bool = False,
        reduced_motion: bool = False,
        locale: str = "en-US",  # also the Accept-Language header
    ) -> Any:
        color_scheme = "dark" if dark else "light"
        motion = "reduce" if reduced_motion else "no-preference"
        if self.pool is None:
            page = new_page(
                self.browser,
                self.base_url,
                locale=locale,
                viewport=viewport,
                color_scheme=color_scheme,
                reduced_motion=motion,
            )
            self.contexts.append(page.context)
        else:  # a kept page set as a new context with these options would be
            page = self.pool.take(self.base_url, locale)
            if page.viewport_size != viewport:  # (Playwright's own record: no round trip)
                page.set_viewport_size(viewport)
            page.emulate_media(color_scheme=color_scheme, reduced_motion=motion)
        page.set_default_timeout(WAIT_MS)

        def console(message: Any) -> None:
            if message.type == "error":
                self.errors.append(message.text)

        def page_error(error: Any) -> None:
            self.errors.append(str(error))

        page.on("console", console)
        page.on("pageerror", page_error)
        if self.pool is not None:
            self.lent.append((page, locale, console, page_error))
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        for page, locale, console, page_error in self.lent:
            if not page.is_closed():
                page.remove_listener("console", console)
                page.remove_listener("pageerror", page_error)
            assert self.pool is not None
            self.pool.give_back(page, self.base_url, locale)


@pytest.fixture(scope="session")
def _page_pool(_chromium: tuple[Any, asyncio.AbstractEventLoop]) -> PagePool:
    """(Its pages close with the browser.)"""
    return PagePool(_chromium[0])


@pytest.fixture
def pages(
    browser: Any, server_url: str, transactional_db: Any, _page_pool: PagePool
) -> Iterator[Pages]:
    made = Pages(browser, server_url, _page_pool)
    yield made
    made.close()
    assert made.errors == [], f"console errors: {made.errors}"


@pytest.fixture
def limited(
    browser: Any, limited_url: str, transactional_db: Any, _page_pool: PagePool
) -> Iterator[Pages]:
    """Pages on the limited server (`limited_url`)."""
    made = Pages(browser, limited_url, _page_pool)
    yield made
    made.close()
    # The browser logs each refusal's status; the refusals are what these tests make.
    errors = [e for e in made.errors if "responded with a status of 429" not in e]
    assert errors == [], f"console errors: {errors}"


@pytest.fixture
def limits_here(settings: Any) -> None:
    """This process counts against the same limits as the limited server (the same Redis keys)."""
    from tests.frontend.refusals import LIMITS

    settings.PLAY_THROTTLE_RATES = LIMITS


def sign_in(page: Any, user: Any) -> Any:
    """`page`, its browser holding a session of `user` as signing in makes one (no form: the
    forms have tests of their own) and a CSRF cookie, kept for `api_post`; the page is not
    loaded."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.middleware.csrf import _get_new_csrf_string

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    token = _get_new_csrf_string()  # the secret as Django's own cookie holds it
    cookies = {settings.SESSION_COOKIE_NAME: session.session_key, settings.CSRF_COOKIE_NAME: token}
    page.context.add_cookies(
        [{"name": n, "value": v, "domain": SERVER_HOST, "path": "/"} for n, v in cookies.items()]
    )
    setattr(page.context, _CSRF_TOKEN, token)
    return page


def sign_up(page: Any, username: str, display_name: str = "") -> None:
    """A new player made as the sign-up page makes one (accounts.services.players.sign_up, the
    password PASSWORD) and signed in (`sign_in`); the page is not loaded (a test's own first
    load, or `open_game`'s, is the first: a load of the start page here was ~0.2 s of the
    machine's CPU a test, for a page most tests left at once). The sign-up page's own way:
    `sign_up_by_form` (a UI sign-up was most of a short test's time)."""
    from accounts.services import players

    user = players.sign_up(
        username=username, password=PASSWORD, display_name=display_name or username
    )
    sign_in(page, user)


def sign_up_by_form(page: Any, username: str, display_name: str = "") -> None:
    """Through the site's own sign-up page; ends signed in on the start page."""
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Display name").fill(display_name or username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_selector("[data-testid=signed-in-as]", state="attached")


def api_post(page: Any, path: str, body: dict[str, Any]) -> Any:
    """POST JSON as the page's signed-in player (session cookie and CSRF header)."""
    token = getattr(page.context, _CSRF_TOKEN, None)  # the cookie `sign_in` set
    if token is None:  # (a DevTools round trip to the browser for each cookie read)
        token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    return page.request.post(path, data=body, headers={"X-CSRFToken": token})


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


Shot = Callable[[Any, str], Path]
