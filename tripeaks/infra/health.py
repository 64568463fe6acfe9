"""``GET /api/health``: is the service able to work, and on what?

Names each part and its kind::

    {"status": "ok",
     "database": {"ok": true, "vendor": "postgresql", "version": "18.4", "embedded": true},
     "redis": {"ok": true, "vendor": "redis", "version": "6.2.14", "embedded": true},
     "worker": {"ok": true, "kind": "celery", "broker": "ok", "workers": 1}}

- ``database``: ``SELECT 1`` and the server's version; ``redis``: ``PING`` and ``INFO``;
  ``embedded`` says whether ``make run`` started that server itself (``EMBEDDED_SERVICES``).
- ``worker``: the Celery broker answers (a connection of its own with a short timeout), then a
  ping broadcast on it that the first live worker answers (within ``HEALTH_WORKER_PING_SECONDS``).

200 with ``"status": "ok"`` when every part is ok; 200 with ``"degraded"`` when only the workers
are missing (pages and games work, precomputing waits); 503 with ``"failing"`` when the
database, Redis or the broker fails, that part saying why in ``detail``. Public, never cached.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tripeaks.config.celery import app as celery_app
from tripeaks.infra import redis_client
from tripeaks.infra.json_types import JSONObject

logger = logging.getLogger("tripeaks.infra.health")

TIMEOUT_SECONDS = 2.0

Part = JSONObject


def check_database() -> Part:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    version = connection.cursor().connection.info.server_version
    return {
        "ok": True,
        "vendor": connection.vendor,
        "version": f"{version // 10000}.{version % 10000}",
        "embedded": "database" in settings.EMBEDDED_SERVICES,
    }


def check_redis() -> Part:
    client = redis_client.client()  # the cache's timeouts: 2 s, as TIMEOUT_SECONDS
    client.ping()
    version = client.info("server")["redis_version"]
    return {
        "ok": True,
        "vendor": "redis",
        "version": version,
        "embedded": "redis" in settings.EMBEDDED_SERVICES,
    }


def check_worker() -> Part:
    url: str = settings.CELERY_BROKER_URL
    # The first answer ends the wait; with no worker up, the whole wait is spent.
    wait: float = settings.HEALTH_WORKER_PING_SECONDS
    # The ping on a connection of its own, not one of the app's pool: its blocking pop for the
    # replies (a second, kombu's poll) outlived the wait, and the pool's connection went back with
    # that reply still to come, for the next command there (a solver queue's LLEN) to read as its
    # own. Here the pop lasts the wait, so that closing the connection after it takes no longer.
    polling = {"polling_interval": wait}
    with celery_app.connection_for_write(
        url, connect_timeout=TIMEOUT_SECONDS, transport_options=polling
    ) as conn:
        conn.ensure_connection(max_retries=0, interval_start=0, timeout=TIMEOUT_SECONDS)
        answers = celery_app.control.ping(timeout=wait, limit=1, connection=conn)
    part: Part = {"ok": bool(answers), "kind": "celery", "broker": "ok", "workers": len(answers)}
    if not answers:
        part["detail"] = f"no worker answered a ping within {wait} s"
    return part


CHECKS: dict[str, Callable[[], Part]] = {
    "database": check_database,
    "redis": check_redis,
    "worker": check_worker,
}


def run_checks() -> tuple[str, dict[str, Part]]:
    """The overall status (``ok``, ``degraded``, ``failing``) and each part's report."""
    parts: dict[str, Part] = {}
    for name, check in CHECKS.items():
        try:
            parts[name] = check()
        except Exception as exc:  # any failure of a dependency is a failing part
            logger.warning("health check %s failed", name, exc_info=True)
            parts[name] = {
                "ok": False,
                "failing": True,
                "detail": f"{exc.__class__.__name__}: {exc}"[:300],
            }
    if any(part.get("failing") for part in parts.values()):
        return "failing", parts
    if not all(part["ok"] for part in parts.values()):
        return "degraded", parts
    return "ok", parts


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    status, parts = run_checks()
    return JsonResponse({"status": status, **parts}, status=503 if status == "failing" else 200)
