"""Settings for the test suite: ``tripeaks.config.settings`` read with the test environment.

pytest-django loads this module (``DJANGO_SETTINGS_MODULE`` in pyproject.toml) before any
conftest, so this is where the environment is shaped. The suite runs against the real
PostgreSQL and Redis (``make test`` starts them if needed):

- ``DATABASE_URL`` defaults to ``postgres://postgres@127.0.0.1:5432/tripeaks``; pytest-django
  creates the test database (see below) and drops it after.
- ``REDIS_URL`` defaults to ``redis://127.0.0.1:6379``; the tests use Redis database 9 (without
  xdist) or 10 + the worker index (under xdist), never the service's database, and every test
  process writes its cache and channel keys under its own prefix (``TEST_RUN_PREFIX``). Before
  each test the autouse ``_fresh_cache`` fixture (conftest.py) deletes that prefix's keys only,
  so runs from other checkouts at the same time do not disturb each other.
- Each test process has its own test database, ``test_tripeaks_<pid>`` (plus ``_gw0``, ``_gw1``
  under xdist), created and dropped by pytest-django, so that two runs (from one checkout or
  two) never collide.
- Celery tasks run eagerly (in-process, errors propagate) while the broker URL stays Redis, so
  ``/api/health`` checks a real broker. Eager Celery is a test-only setting: the application
  never runs tasks in-process (tests/reliability runs real workers).
- The secrets are random for each run: with DEBUG off, a value written in the repository is
  refused (tripeaks/config/local_secrets.py).
- DEBUG is off (the production profile), without the HTTPS redirect and the static manifest
  (which would need ``collectstatic`` first).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from urllib.parse import urlsplit, urlunsplit


def _test_redis_url() -> str:
    """REDIS_URL (host, port, password kept) with this test process's own database number."""
    base = urlsplit(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    match = re.fullmatch(r"gw(\d+)", os.environ.get("PYTEST_XDIST_WORKER", ""))
    db = 10 + int(match.group(1)) % 6 if match else 9
    return urlunsplit(base._replace(path=f"/{db}"))


os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tripeaks")
os.environ["REDIS_URL"] = _test_redis_url()
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("DEAL_SECRET", secrets.token_urlsafe(32))
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
# Tests see the production profile (DEBUG off), minus the HTTPS redirect.
os.environ["DEBUG"] = "0"
os.environ["SECURE_SSL_REDIRECT"] = "0"

from tripeaks.config.settings import *  # noqa: E402, F403

# No worker answers here: health's wait for one stays short (test servers are probed with it).
HEALTH_WORKER_PING_SECONDS = 0.2

# Tasks run in the test's own process, their errors raised to it.
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# No worker to queue for: a par or a pool top-up would run inside the request (settings).
QUEUE_SOLVER_TASKS = False

# Plain static storage: the hashed manifest would need `collectstatic` before every run.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
_CHECKOUT = hashlib.sha256(str(BASE_DIR).encode()).hexdigest()[:8]  # noqa: F405
TEST_RUN_PREFIX = f"test-{_CHECKOUT}-{os.getpid()}"
DATABASES["default"]["TEST"] = {"NAME": f"test_tripeaks_{os.getpid()}"}  # noqa: F405
# Plain connections in the test process: with the psycopg pool, a transactional test's flush hung
# here once, its connection waiting on a reply PostgreSQL had sent. The servers that
# tests/reliability starts run with the pool, as production does, and so do the browser tests'
# forked servers (tests/frontend/conftest.py `_in_the_server_process` puts it back).
SERVER_DB_POOL = DATABASES["default"].get("OPTIONS", {}).pop("pool", None)  # noqa: F405
# Kept open, each by its thread, for the test process's life: with production's 0 (the pool keeps
# its connections), every database call of an in-process socket consumer (channels closes old
# connections around each) opened a new connection, ~2.4 ms of a PostgreSQL backend's start and
# ~1 ms of this process's (tests/races 342 a run, 134 kept). A kept one is checked
# (CONN_HEALTH_CHECKS) before a call uses it; the suite's end ends them
# (`_no_connection_outlives_the_suite`); the forked servers go back to 0 with their pool.
DATABASES["default"]["CONN_MAX_AGE"] = None  # noqa: F405
# A commit here does not wait for PostgreSQL to write it to disk (synchronous_commit off: 1.26 ms
# a commit against 0.59 ms, 1,000 in a row on this machine). The test databases are dropped after
# the run, and no test crashes this PostgreSQL (tests/reliability restarts one of its own).
DATABASES["default"]["OPTIONS"]["options"] = "-c synchronous_commit=off"  # noqa: F405
CACHES["default"]["KEY_PREFIX"] = TEST_RUN_PREFIX  # noqa: F405
if "CONFIG" in CHANNEL_LAYERS["default"]:  # noqa: F405
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = TEST_RUN_PREFIX  # noqa: F405

# Hashing passwords slowly protects nothing here.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The suite plays machine-fast through the API, many players from one address, so the play rate
# limits and the fair-play timing check and second-account holds are off here; tests switch them on
# (the `settings` fixture) where they test them.
PLAY_THROTTLE_RATES = dict.fromkeys(PLAY_THROTTLE_RATES)  # noqa: F405
FAIR_PLAY_TIMING_CHECK = False
FAIR_PLAY_HOLD_SHARED = False

# A request's solver budget runs out at SOLVER_BUDGET_NODES or SOLVER_BUDGET_MS, whichever comes
# first. On two cores busy with the parallel suite the 200 ms deadline came first for an easy
# random deal (a 503 in a test that did not test it): here the node budget decides, as it does
# deterministically; the tests of the deadline set their own.
SOLVER_BUDGET_MS = 60_000
