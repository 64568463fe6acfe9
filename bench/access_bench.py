"""What recording sessions costs a signed-in request (accounts.middleware.RecordAccess).

    .venv/bin/python bench/access_bench.py [--requests N] [--rounds N] [--keep]

Needs PostgreSQL and Redis (``DATABASE_URL``/``REDIS_URL``, defaults as in tests/settings.py). It
creates its own database, ``tripeaks_bench_access``, a copy of the migrated template
(bench/database.py; dropped at the end unless ``--keep``), and
uses Redis database 3 under the prefix ``bench-access``. One signed-in player (a session cookie)
makes ``GET /api/me`` through the whole middleware stack, in-process (Django's test client), in
alternating rounds: the baseline stack without ``RecordAccess``, and the real one (its row is
written once a minute per session; in between, the process's own gate answers without a round
trip to Redis). Printed: CPU µs and wall µs per request of each, and their ratio; and the cost
of the once-a-minute write itself (the gates forgotten before every request).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BENCH_DB = "tripeaks_bench_access"
MIDDLEWARE = "accounts.middleware.RecordAccess"


def configure() -> str:
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tripeaks")
    parts = urlsplit(base)
    os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{BENCH_DB}"))
    redis = urlsplit(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    os.environ["REDIS_URL"] = urlunsplit(redis._replace(path="/3"))
    os.environ.setdefault("DEBUG", "1")
    os.environ["THROTTLE_USER"] = "100000000/min"  # the bench is one player, on purpose
    os.environ["LOG_LEVEL"] = "WARNING"  # no request log line in either stack
    os.environ["DJANGO_SETTINGS_MODULE"] = "tripeaks.config.settings"
    return urlunsplit(parts._replace(path="/postgres"))


def recreate(admin_url: str, *, drop_only: bool = False) -> None:
    """The bench's database anew, a copy of the migrated template (bench/database.py); or gone."""
    import psycopg

    from bench.database import create_migrated_database

    if not drop_only:
        create_migrated_database(os.environ["DATABASE_URL"], {})
        return
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")


def timed(client: object, requests: int) -> tuple[float, float]:
    """(CPU µs, wall µs) per request over `requests` GET /api/me."""
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(requests):
        response = client.get("/api/me")  # type: ignore[attr-defined]
        assert response.status_code == 200, response.status_code
    return (
        (time.process_time() - cpu) / requests * 1e6,
        (time.perf_counter() - wall) / requests * 1e6,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()

    admin_url = configure()
    recreate(admin_url)
    import django
    from django.conf import settings

    django.setup()
    settings.CACHES["default"]["KEY_PREFIX"] = "bench-access"
    settings.ALLOWED_HOSTS = ["testserver"]
    from django.db import connections
    from django.test import Client
    from django.test.utils import override_settings

    from accounts.models import AccessRecord, User
    from accounts.services import access

    user = User.objects.create_user(username="bench_player", password="bench-Password-42")
    client = Client(HTTP_USER_AGENT="Mozilla/5.0 (X11; Linux x86_64) Firefox/139.0")
    client.force_login(user)
    baseline = [m for m in settings.MIDDLEWARE if m != MIDDLEWARE]
    assert len(baseline) == len(settings.MIDDLEWARE) - 1

    timed(client, 50)  # warm up both stacks
    with override_settings(MIDDLEWARE=baseline):
        timed(client, 50)
    without: list[tuple[float, float]] = []
    with_: list[tuple[float, float]] = []
    for _ in range(args.rounds):
        with override_settings(MIDDLEWARE=baseline):
            without.append(timed(client, args.requests))
        with_.append(timed(client, args.requests))
    writes: list[tuple[float, float]] = []
    for _ in range(args.rounds):
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(args.requests // 10):
            access.forget_gates()
            from django.core.cache import cache

            cache.delete_many([access._gate_key("session", client.session.session_key or "")])
            client.get("/api/me")
        n = args.requests // 10
        writes.append(
            ((time.process_time() - cpu) / n * 1e6, (time.perf_counter() - wall) / n * 1e6)
        )
    assert AccessRecord.objects.filter(user=user).count() == 1

    def median(rows: list[tuple[float, float]], i: int) -> float:
        return statistics.median(row[i] for row in rows)

    print(f"GET /api/me, signed in by session, {args.rounds} alternating rounds of {args.requests}")
    print(
        f"  baseline (no RecordAccess)   CPU {median(without, 0):8.1f} µs   wall {median(without, 1):8.1f} µs"
    )
    print(
        f"  with RecordAccess            CPU {median(with_, 0):8.1f} µs   wall {median(with_, 1):8.1f} µs"
    )
    print(
        f"  ratio (with / baseline)      CPU {median(with_, 0) / median(without, 0):8.3f}      "
        f"wall {median(with_, 1) / median(without, 1):8.3f}"
    )
    print(
        f"  a request that writes its row (once a minute per session): CPU {median(writes, 0):.1f} µs   wall {median(writes, 1):.1f} µs"
    )
    connections.close_all()
    if not args.keep:
        recreate(admin_url, drop_only=True)


if __name__ == "__main__":
    main()
