"""``GET /api/health``: is the service able to work?

Checks the database (``SELECT 1``), Redis (``PING``, when ``REDIS_URL`` is set) and the Celery
broker (a connection with a short timeout; ``"eager"`` when tasks run in-process with no broker).
200 when every part is ok, 503 naming the part that failed. Public, never cached.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tripeaks.celery import app as celery_app

logger = logging.getLogger("tripeaks.health")

TIMEOUT_SECONDS = 2.0

Check = dict[str, str]


def check_database() -> Check:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"status": "ok"}


def check_redis() -> Check:
    url: str = settings.REDIS_URL
    if not url:
        return {"status": "skipped", "detail": "REDIS_URL is not set"}
    client = redis.Redis.from_url(
        url, socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS
    )
    try:
        client.ping()
    finally:
        client.close()
    return {"status": "ok"}


def check_celery_broker() -> Check:
    url: str = settings.CELERY_BROKER_URL
    if url.startswith("memory://"):
        if settings.CELERY_TASK_ALWAYS_EAGER:
            return {"status": "eager", "detail": "tasks run in-process"}
        return {"status": "failing", "detail": "no broker and tasks are not eager"}
    with celery_app.connection_for_write(url, connect_timeout=TIMEOUT_SECONDS) as conn:
        conn.ensure_connection(max_retries=0, interval_start=0, timeout=TIMEOUT_SECONDS)
    return {"status": "ok", "mode": "eager" if settings.CELERY_TASK_ALWAYS_EAGER else "worker"}


CHECKS: dict[str, Callable[[], Check]] = {
    "database": check_database,
    "redis": check_redis,
    "celery_broker": check_celery_broker,
}
HEALTHY = {"ok", "skipped", "eager"}


def run_checks() -> tuple[bool, dict[str, Check]]:
    results: dict[str, Check] = {}
    for name, check in CHECKS.items():
        try:
            results[name] = check()
        except Exception as exc:  # any failure of a dependency is a failing check
            logger.warning("health check %s failed", name, exc_info=True)
            results[name] = {
                "status": "failing",
                "detail": f"{exc.__class__.__name__}: {exc}"[:300],
            }
    return all(r["status"] in HEALTHY for r in results.values()), results


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    healthy, checks = run_checks()
    return JsonResponse(
        {"status": "ok" if healthy else "failing", "checks": checks},
        status=200 if healthy else 503,
    )
