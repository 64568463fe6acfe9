"""/api/health reports the database, Redis and the Celery broker."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

DEAD = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def test_health_is_ok_against_the_real_services(client: Client) -> None:
    response = client.get("/api/health")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == {"status": "ok"}
    assert body["checks"]["redis"] == {"status": "ok"}
    assert body["checks"]["celery_broker"]["status"] == "ok"
    assert "no-cache" in response["Cache-Control"]


def test_health_needs_no_authentication_even_with_a_bad_token(client: Client) -> None:
    response = client.get("/api/health", HTTP_AUTHORIZATION="Token nonsense")

    assert response.status_code == 200


def test_health_is_503_naming_redis_when_redis_is_down(client: Client, settings: Any) -> None:
    settings.REDIS_URL = DEAD

    response = client.get("/api/health")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["checks"]["redis"]["status"] == "failing"
    assert "Connection" in body["checks"]["redis"]["detail"]
    assert body["checks"]["database"] == {"status": "ok"}


def test_health_is_503_naming_the_broker_when_it_is_down(client: Client, settings: Any) -> None:
    settings.CELERY_BROKER_URL = DEAD

    response = client.get("/api/health")

    assert response.status_code == 503
    assert response.json()["checks"]["celery_broker"]["status"] == "failing"
    assert response.json()["checks"]["redis"] == {"status": "ok"}


def test_health_reports_eager_mode_and_skips_redis_on_embedded_defaults(
    client: Client, settings: Any
) -> None:
    settings.REDIS_URL = ""
    settings.CELERY_BROKER_URL = "memory://"
    settings.CELERY_TASK_ALWAYS_EAGER = True

    response = client.get("/api/health")

    assert response.status_code == 200
    checks = response.json()["checks"]
    assert checks["redis"]["status"] == "skipped"
    assert checks["celery_broker"]["status"] == "eager"


def test_health_is_503_when_the_database_fails(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tripeaks import health

    def broken() -> dict[str, str]:
        raise RuntimeError("database is gone")

    monkeypatch.setitem(health.CHECKS, "database", broken)

    response = client.get("/api/health")

    assert response.status_code == 503
    assert response.json()["checks"]["database"] == {
        "status": "failing",
        "detail": "RuntimeError: database is gone",
    }


def test_health_answers_get_only(client: Client) -> None:
    assert client.post("/api/health").status_code == 405
