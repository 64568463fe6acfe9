"""/api/health names the database, Redis and the worker, each with its kind."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

DEAD = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def test_health_names_each_part_and_its_kind_against_the_real_services(client: Client) -> None:
    response = client.get("/api/health")

    assert response.status_code == 200
    body = response.json()
    assert body["database"]["ok"] is True
    assert body["database"]["vendor"] == "postgresql"
    assert body["database"]["version"][0].isdigit()
    assert body["database"]["embedded"] is False  # the machine's service, not make run's own
    assert body["redis"]["ok"] is True
    assert body["redis"]["vendor"] == "redis"
    assert body["redis"]["embedded"] is False
    assert body["worker"]["kind"] == "celery"
    assert body["worker"]["broker"] == "ok"
    assert "no-cache" in response["Cache-Control"]


def test_health_without_a_worker_is_degraded_not_failing(client: Client) -> None:
    # The test run has no Celery worker (tasks run in the test process): pages and games work,
    # only precomputing waits, so a load balancer keeps the server.
    body = client.get("/api/health").json()

    assert body["worker"] == {
        "ok": False,
        "kind": "celery",
        "broker": "ok",
        "workers": 0,
        "detail": "no worker answered a ping within 0.2 s",
    }
    assert body["status"] == "degraded"


def test_the_broker_connections_answer_in_turn_after_a_health_check(client: Client) -> None:
    # The worker ping's reply queue waits on a blocking pop that outlives the ping's short wait.
    # Its connection, taken from the Celery pool, went back with that reply still coming: the
    # pool's next command read it as its own (a DELETE answered None, an LRANGE the DELETE's
    # count), and a broker test after a health check failed at its setup's purge.
    from celery import current_app

    client.get("/api/health")

    with current_app.pool.acquire(block=True) as connection:
        redis = connection.default_channel.client
        assert redis.delete("health-check-probe") == 0
        assert redis.lrange("health-check-probe", 0, -1) == []


def test_health_says_which_servers_make_run_embedded(client: Client, settings: Any) -> None:
    settings.EMBEDDED_SERVICES = ["database", "redis"]

    body = client.get("/api/health").json()

    assert body["database"]["embedded"] is True
    assert body["redis"]["embedded"] is True


def test_health_needs_no_authentication_even_with_a_bad_token(client: Client) -> None:
    response = client.get("/api/health", HTTP_AUTHORIZATION="Token nonsense")

    assert response.status_code == 200


def test_health_is_503_naming_redis_when_redis_is_down(client: Client, settings: Any) -> None:
    settings.REDIS_URL = DEAD

    response = client.get("/api/health")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["redis"]["ok"] is False
    assert "Connection" in body["redis"]["detail"]
    assert body["database"]["ok"] is True


def test_health_is_503_naming_the_broker_when_it_is_down(client: Client, settings: Any) -> None:
    settings.CELERY_BROKER_URL = DEAD

    response = client.get("/api/health")

    assert response.status_code == 503
    assert response.json()["worker"]["ok"] is False
    assert "detail" in response.json()["worker"]
    assert response.json()["redis"]["ok"] is True


def test_health_is_503_when_the_database_fails(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tripeaks.infra import health

    def broken() -> dict[str, str]:
        raise RuntimeError("database is gone")

    monkeypatch.setitem(health.CHECKS, "database", broken)

    response = client.get("/api/health")

    assert response.status_code == 503
    assert response.json()["database"] == {
        "ok": False,
        "failing": True,
        "detail": "RuntimeError: database is gone",
    }


def test_health_answers_get_only(client: Client) -> None:
    assert client.post("/api/health").status_code == 405
