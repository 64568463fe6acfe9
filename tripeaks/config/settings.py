"""The one settings module of TriPeaks Online, read from the environment.

One stack everywhere: PostgreSQL, Redis (cache, channel layer, Celery broker) and Celery
workers. ``make run`` (``python -m tripeaks.stack.run``) starts an embedded PostgreSQL and Redis with
their data in ``VAR_DIR`` and points ``DATABASE_URL``/``REDIS_URL`` at them; set those two to
use servers of your own. Unset, they default to the embedded servers' sockets in ``VAR_DIR``.

Every variable read here is listed in ``docs/operations.md``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import django_stubs_ext
import environ
from csp.constants import NONCE, Nonce
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.exceptions import ImproperlyConfigured

from tripeaks.config import local_secrets
from tripeaks.engine.review import REVIEW_BUDGET_NODES
from tripeaks.engine.rules import CLASSIC_RULE_SETS

# Lets Django's generic classes be subscripted at run time, as the type stubs allow:
# `admin.ModelAdmin[Deal]`, `forms.ModelForm[User]`, `QuerySet[Game]`.
django_stubs_ext.monkeypatch()

env = environ.Env()

BASE_DIR = Path(__file__).resolve().parents[2]
# Local state of a development run (the embedded servers' data, the development secrets, beat's
# schedule); never committed.
VAR_DIR = Path(env.str("VAR_DIR", default=str(BASE_DIR / "var")))

# --------------------------------------------------------------------------- core
# DEBUG is off unless asked for: a forgotten variable must never expose debug pages.
DEBUG: bool = env.bool("DEBUG", default=False)

# Development runs that set no secrets get random ones, kept in VAR_DIR (tripeaks/config/local_secrets.py);
# with DEBUG off they must be set, long, and written nowhere in the repository.
_SECRETS: dict[str, str] = {
    "SECRET_KEY": env.str("SECRET_KEY", default=""),
    "DEAL_SECRET": env.str("DEAL_SECRET", default=""),
}
if DEBUG and not all(_SECRETS.values()):
    _SECRETS = local_secrets.load_or_create(VAR_DIR / "secrets.json") | {
        name: value for name, value in _SECRETS.items() if value
    }
if not DEBUG:
    for _name, _value in _SECRETS.items():
        try:
            local_secrets.check(_name, _value, local_secrets.checkouts(BASE_DIR, Path.cwd()))
        except local_secrets.UnsafeSecret as unsafe:
            raise ImproperlyConfigured(str(unsafe)) from None
SECRET_KEY: str = _SECRETS["SECRET_KEY"]

ALLOWED_HOSTS: list[str] = env.list(
    "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS: list[str] = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# The secret that turns public deal numbers and days into shuffles. A player must never be able
# to derive a ranked deal (docs/operations.md says how to rotate it).
DEAL_SECRET: bytes = _SECRETS["DEAL_SECRET"].encode()

# --------------------------------------------------------------------------- applications
# This project's own apps. >>> Apps other rooms are building are installed as soon as their
# package exists (once they all exist this can become a plain list). An app's `urls.py` is
# included at the site root (tripeaks/config/urls.py) and its `routing.py` (`websocket_urlpatterns`)
# in the ASGI router (tripeaks/config/routing.py) automatically.
PROJECT_APPS: list[str] = ["accounts", "frontend"]
for _app in ("tripeaks.play", "leaderboard"):
    if importlib.util.find_spec(_app) is not None:
        PROJECT_APPS.append(_app)
PROJECT_APPS.append("tripeaks.ratings")  # Glicko-2 ratings per rule set (docs/ratings.md)
PROJECT_APPS.append("tripeaks.races")  # races and quick match (docs/races.md)
PROJECT_APPS.append("tripeaks.arenas")  # arena tournaments (docs/arenas.md)
PROJECT_APPS.append("tripeaks.review")  # game review: replays, share links, analyses (issue 39)
# <<<

INSTALLED_APPS: list[str] = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    *PROJECT_APPS,
]

AUTH_USER_MODEL = "accounts.User"

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A NUL in the URL, a cookie or a header: 400 before anything reaches PostgreSQL with it.
    "tripeaks.infra.nul_guard.NulGuardMiddleware",
    # A body over its view's limit: 413 before anything parses it (tripeaks/infra/body_limits.py).
    "tripeaks.infra.body_limits.BodyLimitMiddleware",
    "tripeaks.infra.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before anything that reads the body; JSON of the public and game API only (BREACH).
    "tripeaks.infra.compression.JsonGZipMiddleware",
    "tripeaks.config.logging_json.RequestLogMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the django_language cookie (set by /i18n/setlang/), else Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, the user's row read with a plain statement (tripeaks/infra/session_users.py).
    "tripeaks.infra.session_users.SessionUserMiddleware",
    # Each session's and token's device, address and last use, once a minute (accounts.access).
    "accounts.middleware.RecordAccess",
    # Fair play: a long-lived device id (tripeaks/infra/devices.py).
    "tripeaks.infra.devices.device_cookie_middleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # An unreachable database or cache: 503 + Retry-After on HTML pages too (not a 500).
    "tripeaks.infra.unavailable.UnavailableMiddleware",
    # Last: see its docstring.
    "tripeaks.infra.one_thread.OneThreadPerRequest",
]

ROOT_URLCONF = "tripeaks.config.urls"
ASGI_APPLICATION = "tripeaks.config.asgi.application"
WSGI_APPLICATION = "tripeaks.config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --------------------------------------------------------------------------- database
# Which servers `make run` started itself (tripeaks/stack/run.py), for /api/health to name.
EMBEDDED_SERVICES: list[str] = env.list("EMBEDDED_SERVICES", default=[])
# The embedded servers' sockets (tripeaks/stack/run.py), when no URL says otherwise.
EMBEDDED_POSTGRES_DIR = VAR_DIR / "postgres"
EMBEDDED_REDIS_SOCKET = VAR_DIR / "redis" / "redis.sock"
DATABASES = {
    "default": env.db_url(
        "DATABASE_URL",
        default=f"postgres://postgres@{quote(str(EMBEDDED_POSTGRES_DIR), safe='')}/tripeaks",
    ),
}
# A Unix socket's folder is written percent-encoded in the URL's host.
DATABASES["default"]["HOST"] = unquote(DATABASES["default"]["HOST"])
if not DATABASES["default"]["ENGINE"].endswith("postgresql"):
    raise ImproperlyConfigured("DATABASE_URL must name a PostgreSQL database (postgres://...).")
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=0))
# A persistent connection is checked before reuse, so one broken by a database restart is
# replaced instead of failing the next request.
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
# A database that does not answer fails the request fast (503) rather than hanging it.
DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
    "connect_timeout", env.int("DB_CONNECT_TIMEOUT", default=3)
)
# Django runs each request's synchronous part in a thread of its own, each with its own
# connection: a burst of requests would exhaust PostgreSQL's max_connections. A pool per
# process caps them; a request waits up to DB_POOL_TIMEOUT for one, then gets a 503.
DB_POOL_MAX: int = env.int("DB_POOL_MAX", default=20)
if DB_POOL_MAX:
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": min(2, DB_POOL_MAX),
        "max_size": DB_POOL_MAX,
        "timeout": env.float("DB_POOL_TIMEOUT", default=3.0),
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps connections; Django must not
    # A pooled connection is checked by its socket, not by an empty statement at every checkout
    # (tripeaks/infra/pool_check.py).
    if DATABASES["default"]["CONN_HEALTH_CHECKS"]:
        from tripeaks.infra.pool_check import check_quietly

        DATABASES["default"]["OPTIONS"]["pool"]["check"] = check_quietly
        DATABASES["default"]["ENGINE"] = (
            "tripeaks.infra.postgresql"  # (takes it: Django 5.2 doesn't)
        )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --------------------------------------------------------------------------- redis: cache, channels
REDIS_URL: str = env.str("REDIS_URL", default=f"unix://{EMBEDDED_REDIS_SOCKET}")

CACHES: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "tripeaks",
        "OPTIONS": {
            "socket_connect_timeout": 2,
            "socket_timeout": 2,
            "pool_class": "tripeaks.infra.redis_pool.SharedConnectionPool",
        },
    }
}
# The channel layer's Redis servers, comma-separated (REDIS_URL alone by default): channels_redis
# spreads groups and channels over them by a CRC of the name, and the contest feed spreads its
# contests the same way (tripeaks/infra/contest_feed.py), so several servers share the sockets'
# traffic (docs/races.md, "Scale").
CHANNEL_REDIS_URLS: list[str] = env.list("CHANNEL_REDIS_URLS", default=[REDIS_URL])
CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "tripeaks.infra.channel_layer.RedisChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    "address": url,
                    # Above the layer's 5 s blocking pop: redis-py 8's default read timeout is 5 s
                    # too, and an idle socket's consumer would die with a TimeoutError
                    # (channels_redis#422).
                    "socket_timeout": 15,
                    # A server's connection pool to Redis: redis-py's default of 100 connections
                    # fails a command at once when all are busy, and a burst of socket opens on a
                    # busy server (1,000 racers' games starting within 10 s) got HTTP 500s from
                    # `group_add`.
                    "max_connections": 1000,
                    # No CLIENT SETINFO: for it redis-py 8 reads its version from the package
                    # metadata (a walk of sys.path: 0.37 ms of the event loop here) at every
                    # connection it opens, and such a burst grows the pool by hundreds.
                    "driver_info": None,
                }
                for url in CHANNEL_REDIS_URLS
            ],
            "prefix": "tripeaks:channels",
        },
    }
}


def _celery_url(redis_url: str) -> str:
    """Kombu names a Redis Unix socket ``redis+socket://``, redis-py ``unix://``."""
    return (
        "redis+socket://" + redis_url.removeprefix("unix://")
        if redis_url.startswith("unix://")
        else redis_url
    )


# --------------------------------------------------------------------------- celery
CELERY_BROKER_URL: str = env.str("CELERY_BROKER_URL", default=_celery_url(REDIS_URL))
CELERY_RESULT_BACKEND: str = env.str("CELERY_RESULT_BACKEND", default=_celery_url(REDIS_URL))
CELERY_TASK_ACKS_LATE = True
# A worker killed mid-task leaves its message unacknowledged: the child's death requeues it at
# once, the whole worker's death after the visibility timeout (tasks are idempotent).
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, int] = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
    # A broker command that gets no answer fails (its caller logs it: queueing is best effort)
    # instead of holding the request forever: a reply lost on a broken connection held a test
    # worker's game start in LLEN for good. Longer than a worker's 1 s BRPOP poll.
    "socket_timeout": env.int("CELERY_BROKER_SOCKET_TIMEOUT", default=5),
    # Look for such orphaned messages every this many seconds (kombu's default is every 100).
    "unacked_restore_interval": env.int("CELERY_RESTORE_INTERVAL", default=10),
    "unacked_restore_throttle": 1,
}
# Publishing while the broker is down fails fast (the caller logs it) rather than hanging a request.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# Every task is fire-and-forget (nobody waits on a result): not subscribing to results keeps a
# down result store from stalling `.delay()` for its 20 reconnection attempts.
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS: dict[str, dict[str, float]] = {
    "retry_policy": {
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.2,
        "interval_max": 0.5,
    }
}
CELERY_TASK_PUBLISH_RETRY_POLICY: dict[str, float] = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Queues by urgency (docs/operations.md, "Background work"): mail and the races' and arenas'
# clocks (`urgent`) never wait behind solver work (`solver`: pool top-ups and deals' verdicts,
# a minute or more each on the hard layouts); the rest (`celery`) is housekeeping and the daily
# deals, which must not wait behind a fresh deployment's hundreds of pool top-ups. `make
# run` (tripeaks/stack/run.py) and docker-compose.yml give `solver` a worker of its own; a worker
# started without -Q takes every queue.
CELERY_TASK_QUEUES: dict[str, dict[str, str]] = {"urgent": {}, "celery": {}, "solver": {}}
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES: dict[str, dict[str, str]] = {
    "accounts.tasks.send_*": {"queue": "urgent"},
    "tripeaks.races.tasks.*": {"queue": "urgent"},
    "tripeaks.arenas.tasks.*": {"queue": "urgent"},
    "tripeaks.play.tasks.refill_random_pool": {"queue": "solver"},
    "tripeaks.play.tasks.solve_deal": {"queue": "solver"},
    "tripeaks.play.tasks.sweep_lapsed_clocks": {"queue": "urgent"},
    "tripeaks.review.tasks.analyse_game": {"queue": "solver"},
}
# At most this many tasks wait in the solver queue for a deal's verdict (one a pool besides):
# tripeaks/play/solver_queue.py.
SOLVER_QUEUE_MAX: int = env.int("SOLVER_QUEUE_MAX", default=200)
# Processes each worker runs tasks in; unset, one per core. The solver's worker: SOLVER_WORKERS.
CELERY_WORKER_CONCURRENCY: int | None = env.int("CELERY_WORKER_CONCURRENCY", default=None)
# A worker's child that has grown past this (KiB) after a task is replaced by a fresh one: the
# solver's tables can take hundreds of MB, and a long-lived child kept them all.
CELERY_WORKER_MAX_MEMORY_PER_CHILD: int = env.int(
    "CELERY_WORKER_MAX_MEMORY_PER_CHILD", default=400_000
)
CELERY_TASK_TIME_LIMIT = 300
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# Workers and beat log through Django's LOGGING (JSON lines) instead of Celery's own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# How long /api/health waits for a worker to answer its ping (tripeaks/infra/health.py).
HEALTH_WORKER_PING_SECONDS: float = env.float("HEALTH_WORKER_PING_SECONDS", default=1.0)
# Seconds between a server's beats for the games its sockets show (tripeaks/play/clock_presence.py):
# a clock whose server missed three is stopped at its last beat plus one (the sweep, below).
CLOCK_HEARTBEAT_S: float = env.float("CLOCK_HEARTBEAT_S", default=5.0)
# The one beat's schedule (seconds between runs).
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {}
if "tripeaks.play" in PROJECT_APPS:
    CELERY_BEAT_SCHEDULE |= {
        # Today's and the next days' daily deals (the day turns in DEAL_DAY_TIME_ZONE).
        "precompute-daily-deals": {
            "task": "tripeaks.play.tasks.precompute_daily_deals",
            "schedule": 30 * 60,
            "kwargs": {"days_ahead": env.int("DAILY_DEALS_DAYS_AHEAD", default=7)},
        },
        # Solver-proven winnable random deals, so starting a game never waits for the solver.
        "refill-random-pools": {
            "task": "tripeaks.play.tasks.refill_random_pools",
            "schedule": 60,
        },
        # Clocks left running by a dead server (tripeaks/play/clock_sweep.py); idle: one command.
        "sweep-lapsed-clocks": {
            "task": "tripeaks.play.tasks.sweep_lapsed_clocks",
            "schedule": 2 * CLOCK_HEARTBEAT_S,
        },
        # Solver work a hot path deferred (play/solver_queue.py, `defer_once`), left by a lost
        # drain message; each such ask asks for a drain itself.
        "send-deferred-asks": {"task": "tripeaks.play.tasks.send_deferred_asks", "schedule": 60},
    }

# Accounts (accounts.guests, accounts.deletion): idle guests and deleted accounts' usernames.
CELERY_BEAT_SCHEDULE |= {
    # Arenas (docs/arenas.md): the coming ones made ahead; started and finished on time.
    "schedule-arenas": {"task": "tripeaks.arenas.tasks.schedule_arenas", "schedule": 10 * 60},
    "tick-arenas": {"task": "tripeaks.arenas.tasks.tick_arenas", "schedule": 10},
    "remove-idle-guests": {"task": "accounts.tasks.remove_idle_guests", "schedule": 60 * 60},
    "release-usernames": {"task": "accounts.tasks.release_usernames", "schedule": 60 * 60},
    "forget-ended-access": {"task": "accounts.tasks.forget_ended_access", "schedule": 60 * 60},
}

# --------------------------------------------------------------------------- game (play)
# Winnable random deals kept ready per rule set and layout, and the layouts that get a pool.
# The least every pool holds, played or not; a pool holds more when it is played: the starts of
# RANDOM_POOL_AHEAD_MINUTES at its last hour's rate, up to RANDOM_POOL_MAX (play/pool_demand.py).
RANDOM_POOL_SIZE: int = env.int("RANDOM_POOL_SIZE", default=5)
RANDOM_POOL_AHEAD_MINUTES: int = env.int("RANDOM_POOL_AHEAD_MINUTES", default=15)
RANDOM_POOL_MAX: int = env.int("RANDOM_POOL_MAX", default=200)
# "*": every layout (54 x 4 rule sets x 2 starts; see docs/solver.md).
RANDOM_POOL_LAYOUTS: list[str] = env.list("RANDOM_POOL_LAYOUTS", default=["*"])
# Solver work where a request waits (tripeaks/play/solver_guard.py): each call's budget, and how
# many calls the whole service runs at once.
SOLVER_BUDGET_MS: int = env.int("SOLVER_BUDGET_MS", default=200)
SOLVER_BUDGET_NODES: int = env.int("SOLVER_BUDGET_NODES", default=300_000)
SOLVER_MAX_CONCURRENT: int = env.int("SOLVER_MAX_CONCURRENT", default=2)
# How long a light asker (a person's occasional hint) waits for a slot when every one is taken.
SOLVER_WAIT_MS: int = env.int("SOLVER_WAIT_MS", default=300)
# A finished game's analysis (tripeaks/review/tasks.py, on the solver queue): the search nodes
# it may spend in all, by default the engine's (docs/solver.md, "Game review": about 1-1.9 s of
# CPU at most); a position whose search runs out is "unknown", never a guess.
REVIEW_ANALYSIS_NODES: int = env.int("REVIEW_ANALYSIS_NODES", default=REVIEW_BUDGET_NODES)
# Solving a new deal's par and topping up a pool are queued for a Celery worker from the request
# path. The test suite runs no worker (its tasks run in-process, in the request) and turns it off.
QUEUE_SOLVER_TASKS: bool = env.bool("QUEUE_SOLVER_TASKS", default=True)

# --------------------------------------------------------------------------- auth
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
PASSWORD_HASHERS = [
    "accounts.hashers.ConfiguredPBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
# Unset: Django's count (accounts/hashers.py). Lower only on a throwaway stack, which says so:
# with DEBUG off a count below Django's is refused unless ALLOW_WEAK_PASSWORD_HASHES is set, so
# that a test stack's setting copied into production cannot weaken every new password unnoticed.
PASSWORD_HASH_ITERATIONS: int | None = env.int("PASSWORD_HASH_ITERATIONS", default=None)
_DJANGO_HASH_ITERATIONS = PBKDF2PasswordHasher.iterations
if PASSWORD_HASH_ITERATIONS is not None:
    if PASSWORD_HASH_ITERATIONS < 1:
        raise ImproperlyConfigured("PASSWORD_HASH_ITERATIONS must be a positive count.")
    if (
        not DEBUG
        and PASSWORD_HASH_ITERATIONS < _DJANGO_HASH_ITERATIONS
        and not env.bool("ALLOW_WEAK_PASSWORD_HASHES", default=False)
    ):
        raise ImproperlyConfigured(
            f"PASSWORD_HASH_ITERATIONS below Django's {_DJANGO_HASH_ITERATIONS:,} needs "
            "ALLOW_WEAK_PASSWORD_HASHES=1 when DEBUG is off (a throwaway stack only)."
        )
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "frontend:home"
LOGOUT_REDIRECT_URL = "frontend:home"

# Failed sign-ins counted in the default cache (Redis), in fixed windows.
SIGNIN_THROTTLE: dict[str, int] = {
    "per_username": env.int("SIGNIN_FAILURES_PER_USERNAME", default=5),
    "per_address": env.int("SIGNIN_FAILURES_PER_ADDRESS", default=20),
    "window_seconds": env.int("SIGNIN_THROTTLE_WINDOW", default=15 * 60),
}

# Accounts (docs/operations.md): retention and links. A guest unused this long is deleted with
# what it played; a deleted account's username is held this long; links expire (seconds).
GUEST_IDLE_DAYS: int = env.int("GUEST_IDLE_DAYS", default=30)
USERNAME_HOLD_DAYS: int = env.int("USERNAME_HOLD_DAYS", default=30)
EMAIL_VERIFICATION_MAX_AGE: int = env.int("EMAIL_VERIFICATION_MAX_AGE", default=3 * 24 * 3600)
PASSWORD_RESET_TIMEOUT: int = env.int("PASSWORD_RESET_TIMEOUT", default=60 * 60)

# --------------------------------------------------------------------------- mail
# EMAIL_URL (django-environ): smtp+tls://user:password@host:587, smtps://...; the embedded
# default prints mail on the console.
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL: str = env.str(
    "DEFAULT_FROM_EMAIL", default="TriPeaks Online <noreply@localhost>"
)
EMAIL_TIMEOUT: int = env.int("EMAIL_TIMEOUT", default=10)

# --------------------------------------------------------------------------- REST API
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so an anonymous request gets 401 with `WWW-Authenticate: Token`.
        "tripeaks.infra.token_users.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    # DRF's JSON parser with a nesting limit (tripeaks/infra/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["tripeaks.infra.parsers.JSONBodyParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "tripeaks.infra.api_errors.exception_handler",
    # DRF's own rates, letting requests through when Redis is down (tripeaks/infra/throttling.py).
    "DEFAULT_THROTTLE_CLASSES": [
        "tripeaks.infra.throttling.FailOpenAnonRateThrottle",
        "tripeaks.infra.throttling.FailOpenUserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("THROTTLE_ANON", default="300/min"),
        "user": env.str("THROTTLE_USER", default="1200/min"),
        "signup": env.str("THROTTLE_SIGNUP", default="30/hour"),
        "export": env.str("THROTTLE_EXPORT", default="30/hour"),
    },
    # 0: the client address is REMOTE_ADDR; X-Forwarded-For is trusted only when this says how
    # many proxies add to it (otherwise anyone could dodge per-address throttles).
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
}

# Request bodies (tripeaks/infra/body_limits.py): the most bytes a view accepts, by its URL name,
# else the API's or the pages' default; over it, 413 before anything parses the body.
BODY_LIMITS: dict[str, int] = {
    "api": env.int("BODY_LIMIT_API", default=8 * 1024),
    "pages": env.int("BODY_LIMIT_PAGES", default=64 * 1024),
    # A move is a few hundred bytes.
    "game-moves": 1024,
}

# --------------------------------------------------------------------------- contests
# Races (docs/races.md): the countdown before a race's deal is shown, the time cap of a race that
# names none and the least cap one may name (seconds).
RACE_COUNTDOWN_S: float = env.float("RACE_COUNTDOWN_S", default=3.0)
RACE_CAP_S: float = env.float("RACE_CAP_S", default=300.0)
RACE_MIN_CAP_S: int = env.int("RACE_MIN_CAP_S", default=30)
# A racer with no race socket and no stored move for this many seconds of a running race can be
# claimed against by the others (tripeaks/races/presence.py, docs/races.md).
RACE_ABSENT_S: float = env.float("RACE_ABSENT_S", default=30.0)
# Ratings (docs/ratings.md): a pair of accounts is rated at most this many games in 24 hours on a
# rule set; later games between them are not rated (farming a second account, or one friend).
RATING_PAIR_LIMIT: int = env.int("RATING_PAIR_LIMIT", default=3)
# Arenas (tripeaks/arenas/schedule.py says what a line is, docs/arenas.md): hourly 10-minute arenas
# on the standard rules, and one hour-long arena a day per classic rule set, from 18:00 in
# DEAL_DAY_TIME_ZONE, one rule set an hour. ARENA_SCHEDULE (JSON, a list of lines) replaces it.
ARENA_SCHEDULE: list[dict[str, str | int]] = env.json(
    "ARENA_SCHEDULE",
    default=[
        {
            "key": "hourly-wrap-closed",
            "name": "Hourly arena",
            "rules": "wrap-closed",
            "layout": "classic",
            "every": 3600,
            "length": 10 * 60,
            "offset": 0,
        },
        *(
            {
                "key": f"daily-{rules.key}",
                "name": "Daily arena",
                "rules": rules.key,
                "layout": "classic",
                "every": 24 * 3600,
                "length": 3600,
                "offset": (18 + i) * 3600,
            }
            for i, rules in enumerate(CLASSIC_RULE_SETS)
        ),
    ],
)
# How far ahead (seconds) the schedule's arenas are made, so the list shows what comes.
ARENA_SCHEDULE_AHEAD: int = env.int("ARENA_SCHEDULE_AHEAD", default=26 * 3600)
# The daily boards' Redis rank sets expire this long (seconds) after their last write (leaderboard/cache.py).
LEADERBOARD_CACHE_TTL: int = env.int("LEADERBOARD_CACHE_TTL", default=8 * 24 * 3600)

# Game sockets open at once (tripeaks/infra/socket_caps.py): per game (tabs), per account and per
# client address; one more is closed with 4409. 0: no cap (the benches' players share 127.0.0.1).
SOCKETS_PER_GAME: int = env.int("SOCKETS_PER_GAME", default=5)
SOCKETS_PER_ACCOUNT: int = env.int("SOCKETS_PER_ACCOUNT", default=30)
SOCKETS_PER_ADDRESS: int = env.int("SOCKETS_PER_ADDRESS", default=60)

# Play limits (tripeaks/infra/throttling.py), per player and per client address, over REST and the
# game socket alike; 429 with Retry-After (an error frame on the socket). A human plays a few
# moves a second at most and starts a game every minute or so.
PLAY_THROTTLE_RATES: dict[str, str | None] = {
    "move": env.str("THROTTLE_MOVES", default="20/s"),
    "move_address": env.str("THROTTLE_MOVES_ADDRESS", default="100/s"),
    "game_start": env.str("THROTTLE_GAME_STARTS", default="30/min"),
    "game_start_address": env.str("THROTTLE_GAME_STARTS_ADDRESS", default="300/min"),
    # New guest accounts per client address (accounts.guests).
    "guest_address": env.str("THROTTLE_GUESTS_ADDRESS", default="10/hour"),
    # The live board socket: every connect and frame, per player and per address (anonymous
    # watchers too). A page connects once and syncs when it comes back to the front.
    "board": env.str("THROTTLE_BOARD", default="60/min"),
    "board_address": env.str("THROTTLE_BOARD_ADDRESS", default="120/min"),
    # Hints and fallback starts: solver calls per player (tripeaks/play/solver_guard.py).
    "solver": env.str("THROTTLE_SOLVER", default="20/min"),
    # ... and per client address: a swarm of guests or accounts behind one address shares it.
    "solver_address": env.str("THROTTLE_SOLVER_ADDRESS", default="60/min"),
    # The front gate (tripeaks/infra/front_gate.py), checked before the session is read, the
    # player authenticated or any middleware run; one Redis call at most, none once a window is
    # known to be over. Socket opens per address: a burst of 10, then one a second (429 at the
    # handshake: the page tries again later). /api/ requests per address and per credential (the
    # session cookie or the API token): 429 with Retry-After. Above what a household behind one
    # address ever makes, and above DRF's finer rates (docs/operations.md, "Limits").
    "socket_open_address": env.str("THROTTLE_SOCKET_OPENS_ADDRESS", default="10/10s"),
    "api_address": env.str("THROTTLE_API_ADDRESS", default="60/s"),
    "api_address_minute": env.str("THROTTLE_API_ADDRESS_MINUTE", default="3000/min"),
    "api_credential": env.str("THROTTLE_API_CREDENTIAL", default="30/s"),
    "api_credential_minute": env.str("THROTTLE_API_CREDENTIAL_MINUTE", default="1800/min"),
}
# An address whose socket opens the front gate has refused this many times in one window of its
# open rate (without a Redis call: the window was known over) is flooding: until that window ends
# its new connections are closed by the server as they open, before a byte of them is read (no
# HTTP answer). Far above what the pages behind one address retry (they back off, up to 5 s); 0:
# at the first refusal.
FRONT_GATE_FLOOD_REFUSALS: int = env.int("FRONT_GATE_FLOOD_REFUSALS", default=100)

# Fair play: a finished ranked run whose think times (from its move log's server timestamps) no
# human produces is held off the boards and flagged for staff (docs/fair-play.md). False: off.
FAIR_PLAY_TIMING_CHECK: bool = env.bool("FAIR_PLAY_TIMING_CHECK", default=True)
# A board run by an account that shares a device (cookie id) or a public network address with
# another account that played the deal today is held for staff review. False: off.
FAIR_PLAY_HOLD_SHARED: bool = env.bool("FAIR_PLAY_HOLD_SHARED", default=True)

SPECTACULAR_SETTINGS = {
    "TITLE": "TriPeaks Online API",
    "DESCRIPTION": "Multiplayer TriPeaks Solitaire: accounts, games, deals and leaderboards.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
}

# --------------------------------------------------------------------------- i18n, time
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
# English, German, Nepali: locale/<lang>/LC_MESSAGES/django.po (pages) and djangojs.po (the app's
# JavaScript, served by /jsi18n/); the .mo files are compiled and committed.
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("ne", "नेपाली")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_TZ = True
# The daily deal turns over at midnight in this zone.
DEAL_DAY_TIME_ZONE = "Asia/Kathmandu"

# --------------------------------------------------------------------------- static files
STATIC_URL = "/static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
# Hashed, compressed names (the ES modules' imports too: frontend/storage.py), served by WhiteNoise
# with far-future caching. They need `collectstatic` first: `make run` (DEBUG on or off) and the
# Dockerfile do it, and WhiteNoise serves the collected files, never the apps' folders, so a page
# under `make run` weighs on the wire what it weighs in production (docs/frontend.md).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "frontend.storage.StaticStorage"},
}
WHITENOISE_USE_FINDERS = False
WHITENOISE_AUTOREFRESH = False
# Same-origin files (the font too): no Access-Control-Allow-Origin on each.
WHITENOISE_ALLOW_ALL_ORIGINS = False

# --------------------------------------------------------------------------- security
# Django's database sessions, their row read with a plain statement (tripeaks/infra/sessions.py).
SESSION_ENGINE = "tripeaks.infra.sessions"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"


def _csp_directives(policy: str) -> dict[str, list[str | Nonce]]:
    """django-csp's directives from a policy as a header writes it; ``'nonce-{nonce}'`` stands
    for the request's nonce."""
    directives: dict[str, list[str | Nonce]] = {}
    for part in filter(None, (p.strip() for p in policy.split(";"))):
        name, *sources = part.split()
        directives[name] = [NONCE if s == "'nonce-{nonce}'" else s for s in sources]
    return directives


# HTML pages only, through django-csp's middleware (tripeaks/infra/security.py). Enforced;
# CSP_REPORT_ONLY=1 sends the same policy as Content-Security-Policy-Report-Only: it only reports
# what it would block, e.g. to try a stricter policy. django-csp's app is not installed: it holds
# only a template tag (unused) and a check that takes CSP_REPORT_ONLY for a django-csp 3 setting.
CONTENT_SECURITY_POLICY: dict[str, dict[str, list[str | Nonce]]] = {
    "DIRECTIVES": _csp_directives(
        env.str(
            "CONTENT_SECURITY_POLICY",
            default="default-src 'self'; script-src 'self' 'nonce-{nonce}'; "
            "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; "
            "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
            "frame-ancestors 'none'",
        )
    )
}
CSP_REPORT_ONLY: bool = env.bool("CSP_REPORT_ONLY", default=False)
if not DEBUG:
    # Production profile: HTTPS only. Behind a TLS-terminating proxy, set
    # SECURE_PROXY_SSL_HEADER_ENABLED=1 so Django trusts X-Forwarded-Proto.
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
    if env.bool("SECURE_PROXY_SSL_HEADER_ENABLED", default=False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # /api/health must answer plain HTTP probes from the orchestrator.
    SECURE_REDIRECT_EXEMPT = [r"^api/health$"]

# --------------------------------------------------------------------------- logging
LOG_LEVEL: str = env.str("LOG_LEVEL", default="INFO")
LOGGING: dict[str, object] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "tripeaks.config.logging_json.JsonFormatter"}},
    "handlers": {"stdout": {"class": "logging.StreamHandler", "formatter": "json"}},
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        # Replaces Django's default console handler (plain text, DEBUG only) with JSON lines.
        "django": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
        # One line per request comes from tripeaks.requests; these would repeat it.
        "django.server": {"level": "WARNING"},
        "django.request": {"level": "ERROR"},
    },
}
