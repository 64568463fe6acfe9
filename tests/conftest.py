"""Project-wide fixtures. The test environment itself (PostgreSQL, Redis database per worker,
eager Celery) is set up in ``tests/settings.py``; see its docstring.

Fixtures: ``password``, ``user``, ``api_client``, ``token_client``, ``session_client``, plus
pytest-django's own (``client``, ``admin_client``, ``settings``, ``live_server``, ...). Every test
starts with an empty cache: this test process's Redis keys are deleted, nobody else's.
"""

from __future__ import annotations

import functools
import os
import random
import re
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.testing import WebsocketCommunicator

T = TypeVar("T")

# Socket tests wait for events: a reply that comes is taken as soon as it comes, so how long a
# test may wait only decides how soon a reply that never comes fails it. The library's default of
# 1 s failed tests on two cores busy with the parallel suite (a connect answered after 1.2 s);
# 10 s does not, and costs a passing test nothing. (`receive_nothing` keeps its own short wait,
# and `disconnect` its 1 s: it waits for the application to end, and a timeout there fails nothing.)
WebsocketCommunicator.connect.__defaults__ = (10,)
WebsocketCommunicator.receive_from.__defaults__ = (10,)
WebsocketCommunicator.receive_json_from.__defaults__ = (10,)
ApplicationCommunicator.receive_output.__defaults__ = (10,)


pytest_plugins = ["tests.file_durations"]


# How long a new database connection of a test process (and of the servers it forks) waits for a
# free slot when PostgreSQL refuses it for having too many: the machine's server is shared with
# other runs and their benches (max_connections 100 here, 86-100 held by others' benches at
# times), and a run failed tests at random with "sorry, too many clients already". A refusal of
# any other kind fails at once; one that lasts past the wait fails as before.
CONNECTION_SLOT_WAIT_S = 60
# psycopg gives no SQLSTATE for a refused start: the server's words (53300, too_many_connections).
NO_SLOT = re.compile(r"too many clients|too many connections|connection slots are reserved")


def waits_for_a_connection_slot(connect: Callable[..., T]) -> Callable[..., T]:
    """`connect` (a DatabaseWrapper's `get_new_connection`), tried again while PostgreSQL has no
    connection slot free, for up to CONNECTION_SLOT_WAIT_S."""
    import psycopg

    @functools.wraps(connect)
    def patient(*args: Any) -> T:
        deadline = time.monotonic() + CONNECTION_SLOT_WAIT_S
        while True:
            try:
                return connect(*args)
            except psycopg.OperationalError as error:
                if not NO_SLOT.search(str(error)) or time.monotonic() > deadline:
                    raise
            time.sleep(0.25)

    return patient


def pytest_configure(config: pytest.Config) -> None:
    from django.db.backends.postgresql.base import DatabaseWrapper

    wrapper: Any = DatabaseWrapper
    wrapper.get_new_connection = waits_for_a_connection_slot(wrapper.get_new_connection)
    if config.getoption("numprocesses", None) and not hasattr(config, "workerinput"):
        _hypothesis_tables_made()


def _hypothesis_tables_made() -> None:
    """(In xdist's controller, before the workers start.) Hypothesis' tables of which characters
    UTF-8 encodes and of the Unicode categories, worked out once and written to .hypothesis/, where
    each worker reads them (1 ms). On a fresh clone every worker that drew text worked them out
    itself: 1.3 s of CPU each, measured here."""
    from hypothesis.internal.charmap import charmap, intervals_from_codec

    charmap()
    intervals_from_codec("utf-8")


def clear_test_cache() -> None:
    """Delete this test process's cache and channel keys (only those: see tests/settings.py)."""
    from django.conf import settings
    from django.core.cache import cache

    from tripeaks.infra import redis_client

    prefix = getattr(settings, "TEST_RUN_PREFIX", "")
    if not prefix:
        cache.clear()
        return
    client = redis_client.client()
    keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
    if keys:
        client.delete(*keys)


def _django_order(item: pytest.Item) -> int:
    """pytest-django's order of a test, as its own collection hook gives it (Django's order): 0
    database tests in a rolled-back transaction, 1 transactional database tests, 2 the rest."""
    from pytest_django.plugin import validate_django_db

    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    transactional = bool(marker and any(validate_django_db(marker)[:2]))
    transactional = transactional or "transactional_db" in fixtures or "live_server" in fixtures
    if transactional:
        return 1
    return 0 if marker or "db" in fixtures else 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first, so that at the end of a parallel run the workers finish on short
    tests rather than one waiting for another's last bench (with work stealing, `make test`'s
    `--dist worksteal`, the others take a busy worker's last tests first); Django's order of the
    database tests (pytest-django's: rolled-back ones before transactional ones) is kept.

    1. `slow` tests that use no test database (the benches, `make run`, the private-stack faults);
    2. database tests, then transactional ones, each `slow` first, then `e2e` (the browser);
    3. the rest (the engine's tests, mostly: many and short).

    Within each, the tests on the stack template come last (`_suite_key`). Under xdist that order
    is dealt out (`_dealt`), so that each worker's share begins with its part of the long tests."""
    items.sort(key=_suite_key)
    items[:] = _dealt(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))


def _suite_key(item: pytest.Item) -> tuple[int, int, int]:
    """Where `item` goes in the suite's order (`pytest_collection_modifyitems`). The whole-stack
    tests that start on the prepared VAR_DIR (the `stack_template` fixture, bench/stack_template.py)
    go after the other long tests: `make test` finds or makes it beside the suite from the start,
    and a test that asked for it while it was being made waited for the build (test_bench_first_card
    31-39 s on a fresh machine, 10-15 s of it that wait, as the first of its worker's tests)."""
    order = _django_order(item)
    slow = item.get_closest_marker("slow") is not None
    group = (0 if slow else 3) if order == 2 else 1 + order
    kind = 0 if slow else 1 if item.get_closest_marker("e2e") else 2
    return (group, kind, int("stack_template" in getattr(item, "fixturenames", ())))


def _dealt(items: list[T], workers: int) -> list[T]:
    """`items` dealt round to `workers` hands, the hands one after another. xdist's work stealing
    gives each worker a run of the list to start with (of the tests not handed out yet, its
    share: the first third to the first of three, half the rest to the next), and a worker that
    runs out takes the end of another's: in the order as sorted, one worker got every bench and
    `make run` test and ran them one after another (34 tests, 450 s of a loaded run's 16 min)
    while the others ran the short ones. Each hand is as long as the run its worker is handed,
    and keeps the sorted order: its long tests first, its short ones last, for stealing."""
    sizes, rest = [], len(items)
    for left in range(workers, 0, -1):
        sizes.append(rest // left)
        rest -= sizes[-1]
    hands: list[list[T]] = [[] for _ in range(workers)]
    for index, item in enumerate(items):
        # Round the hands in turn; the last round skips a hand that is full.
        hand = index % workers
        while len(hands[hand]) == sizes[hand]:
            hand = (hand + 1) % workers
        hands[hand].append(item)
    return [item for hand in hands for item in hand]


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """Each test process's database is a copy of the migrated template the benches copy
    (bench/database.py), made once per server and set of migrations: Django's migrate then finds
    nothing to apply. Migrating each worker's database took 2.8 s of its CPU, and PostgreSQL's."""
    import os

    from django.conf import settings

    from bench.database import migrated_template, server_and_name

    server, _ = server_and_name(os.environ["DATABASE_URL"])
    test = settings.DATABASES["default"]["TEST"]
    test["TEMPLATE"] = migrated_template(server, {"DJANGO_SETTINGS_MODULE": "tests.settings"})


@pytest.fixture(scope="session", autouse=True)
def _tasks_registered() -> None:
    """Every app's Celery tasks are registered before the first test, as in a worker. Work sent by
    name (`play.solver_queue`) runs eagerly only when its task is registered in this process; a
    test that ran first on its worker sent it to the broker instead, and failed alone
    (`test_a_solver_line_played_over_the_api_wins_and_stops_the_clock`: no verdict)."""
    from tripeaks.config.celery import app

    app.loader.import_default_modules()


@pytest.fixture(scope="session", autouse=True)
def _solver_memo() -> Iterator[None]:
    """Deterministic solver searches of the deal service run once a process (tests/solver_memo.py)."""
    from tests import solver_memo

    with solver_memo.installed():
        yield


class _DealSeeds:
    """`secrets` as the deal service (tripeaks/play/deals.py) sees it in the test process: the
    seeds of freshly shuffled deals come from one sequence that starts again at every test. A
    fresh random deal was a new seed every time, so its proof and par (a breadth-first search,
    up to a second of CPU) ran in every test that made one: a third of an arena or race test's
    time. Now a test's n-th fresh deal is the same deal in every test, and the solver memo
    (tests/solver_memo.py) answers it after the first; within a test every deal is different, as
    before. The seeds are still searched as the service searches them (the first proven one)."""

    def __init__(self) -> None:
        self.stream = random.Random()

    def randbits(self, bits: int) -> int:
        return self.stream.getrandbits(bits)


DEAL_SEEDS = _DealSeeds()


@pytest.fixture(scope="session", autouse=True)
def _repeatable_deal_seeds() -> Iterator[None]:
    from tripeaks.play import deals

    service: Any = deals
    kept = service.secrets
    service.secrets = DEAL_SEEDS
    try:
        yield
    finally:
        service.secrets = kept


@pytest.fixture(autouse=True)
def _deal_seeds_from_the_start(_repeatable_deal_seeds: None) -> None:
    DEAL_SEEDS.stream.seed(DEAL_SEEDS_START)


# The fresh deals' sequence (any number: only that it is the same in every test matters).
DEAL_SEEDS_START = 36


@pytest.fixture(scope="session", autouse=True)
def _fast_flush() -> Iterator[None]:
    """Transactional tests end with the database emptied as Django's flush leaves it, by a cheaper
    route when that gives the same state (see tests/fast_flush.py)."""
    from tests import fast_flush

    undo = fast_flush.install()
    yield
    undo()


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Every test starts with an empty cache (throttle counts, sign-in failures, cached data), and
    no daily deal kept in memory from a database an earlier test emptied, nor the front gate's
    memory of the counts it sent and the windows it found over (tripeaks/infra/limiter.py)."""
    from tripeaks.infra import limiter
    from tripeaks.play.deals import forget_daily_deals

    clear_test_cache()
    forget_daily_deals()
    limiter.forget_refusals()
    yield


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """Every test gets a channel layer of its own. The layer keeps per-event-loop state (its
    receive lock and count); each async test runs on a loop of its own, and a socket test that
    ended while a receive was pending left that state behind: every later socket test of the
    process failed with "Lock ... is bound to a different event loop"."""
    from channels.layers import channel_layers

    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


@pytest.fixture(autouse=True)
def _celery_join_flag_cleared() -> Iterator[None]:
    """Eager `apply_async` saves, sets and restores a process-wide "a join would block" flag; two
    threads queuing at once (concurrent-finish tests) can leave it set, and a later test's
    `.get()` then raises "Never call result.get() within a task!". Only eager mode (tests) runs
    tasks in the caller's threads."""
    yield
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)


@pytest.fixture(autouse=True)
def _close_move_writers() -> Iterator[None]:
    """Socket tests open the move writer's own connection; closed before the database goes."""
    yield
    from tripeaks.play import move_writer

    move_writer.close_all()


@pytest.fixture(scope="session", autouse=True)
def _no_connection_outlives_the_suite(
    django_db_setup: Any, django_db_blocker: Any
) -> Iterator[None]:
    """Before the test database is dropped, end every other session on it: a connection that a
    test's worker thread left open (the threads of `database_sync_to_async` outlive the tests)
    kept the database from being dropped (a warning, and a test database left on the server)."""
    yield
    import psycopg
    from django.db import connection

    settings = connection.settings_dict
    own = connection.connection.info.backend_pid if connection.connection is not None else 0
    with (
        django_db_blocker.unblock(),
        psycopg.connect(
            host=settings["HOST"] or None,
            port=settings["PORT"] or None,
            user=settings["USER"] or None,
            password=settings["PASSWORD"] or None,
            dbname="postgres",
            autocommit=True,
        ) as admin,
    ):
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> %s",
            [settings["NAME"], own],
        )


@pytest.fixture
def password() -> str:
    """The password every factory-made user has."""
    from tests.factories import TEST_PASSWORD

    return TEST_PASSWORD


@pytest.fixture
def user(db: Any) -> Any:
    from tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def api_client() -> Any:
    """An anonymous DRF APIClient."""
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def token_client(user: Any) -> Any:
    """An APIClient that sends `Authorization: Token ...` for `user`."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    client.token = token.key  # type: ignore[attr-defined]
    return client


@pytest.fixture
def session_client(user: Any) -> Any:
    """A Django test Client signed in as `user` with a session cookie (CSRF checks on)."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    """A player, made by the factory: ``make_user("ace", is_staff=True)``."""
    from tests.factories import UserFactory

    def make(username: str | None = None, **fields: Any) -> Any:
        if username is not None:
            fields["username"] = username
        return UserFactory(**fields)

    return make


@pytest.fixture
def a_proven_deal_ready(request: Any, _deal_seeds_from_the_start: None) -> None:
    """Proven deals in the default pool, as a running service keeps them (beat tops it up), for
    the tests of what deals from the pool (races, arenas). A claim that finds the pool dry proves
    a fresh seed within the request's node budget, and an unlucky seed leaves it without a deal
    (a 503, tested on its own)."""
    if request.node.get_closest_marker("django_db") is None:
        return
    request.getfixturevalue("db")
    from tripeaks.engine.rules import Rules
    from tripeaks.play import deals
    from tripeaks.play.models import Deal

    if not _PROVEN_POOL:
        deals.refill_pool(Rules(), "classic", POOL_DEALS)
        fields = ("source", "rules_key", "layout", "code", "seed", "winnable", "par", "claimed")
        pool = Deal.objects.filter(source="random", rules_key=Rules().key, layout="classic")
        _PROVEN_POOL.extend(pool.filter(claimed=False).values(*fields))
        _AFTER_THE_POOL.append(DEAL_SEEDS.stream.getstate())
        return
    # The same proven deals again: the solver's verdicts do not change between tests, and proving
    # four deals cost a race or arena test 1.4 s of CPU, most of those tests' time.
    Deal.objects.bulk_create(Deal(**fields) for fields in _PROVEN_POOL)
    # The test's fresh deals are those that came after the pool's, as in the first test: none is
    # one of the pool's.
    DEAL_SEEDS.stream.setstate(_AFTER_THE_POOL[0])


POOL_DEALS = 4
# The pool's deals as the first test of this process proved them (fields of unclaimed rows), and
# the fresh deals' seed sequence where it stood after them.
_PROVEN_POOL: list[dict[str, Any]] = []
_AFTER_THE_POOL: list[Any] = []
