"""docker-compose.yml describes the production-like stack, with only settings the app reads."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def names_settings_read() -> set[str]:
    """Every variable name tripeaks/config/settings.py reads through `env.<kind>("NAME", ...)`."""
    tree = ast.parse((ROOT / "tripeaks" / "config" / "settings.py").read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "env"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value)
    return names


def environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment", {})
    if isinstance(env, list):
        return dict(item.split("=", 1) for item in env)
    return {k: str(v) for k, v in env.items()}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def app_env(compose: dict[str, Any]) -> dict[str, str]:
    """The environment shared by web, worker and beat (a YAML anchor in the file)."""
    return environment(compose["services"]["web"])


def test_all_services_are_there(compose: dict[str, Any]) -> None:
    assert {"postgres", "redis", "web", "worker", "beat"} <= set(compose["services"])


@pytest.mark.parametrize("name", ["postgres", "redis", "web"])
def test_services_have_healthchecks(compose: dict[str, Any], name: str) -> None:
    check = compose["services"][name]["healthcheck"]
    assert check["test"]
    assert check.get("interval") and check.get("retries")


def test_postgres_is_checked_with_pg_isready_and_keeps_its_data_in_a_volume(
    compose: dict[str, Any],
) -> None:
    postgres = compose["services"]["postgres"]
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    volume = postgres["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]


def test_redis_is_checked_with_ping(compose: dict[str, Any]) -> None:
    assert "ping" in " ".join(compose["services"]["redis"]["healthcheck"]["test"])


@pytest.mark.parametrize("name", ["web", "worker", "beat"])
def test_app_services_wait_for_healthy_postgres_and_redis(
    compose: dict[str, Any], name: str
) -> None:
    depends = compose["services"][name]["depends_on"]
    assert depends["postgres"]["condition"] == "service_healthy"
    assert depends["redis"]["condition"] == "service_healthy"


@pytest.mark.parametrize("name", ["worker", "solver", "beat"])
def test_the_workers_and_beat_start_after_web_has_migrated(
    compose: dict[str, Any], name: str
) -> None:
    assert "migrate" in " ".join(compose["services"]["web"]["command"])
    assert compose["services"][name]["depends_on"]["web"]["condition"] == "service_healthy"


@pytest.mark.parametrize("name", ["web", "worker", "beat"])
def test_app_services_get_every_setting_they_need(compose: dict[str, Any], name: str) -> None:
    env = environment(compose["services"][name])
    for required in [
        "DATABASE_URL",
        "REDIS_URL",
        "SECRET_KEY",
        "DEBUG",
        "ALLOWED_HOSTS",
        "DEAL_SECRET",
    ]:
        assert required in env, required
    assert env["DEBUG"] in {"0", "false", "False"}
    assert env["DATABASE_URL"].startswith("postgres://")
    assert env["REDIS_URL"].startswith("redis://redis:")


@pytest.mark.parametrize("name", ["web", "worker", "beat"])
def test_every_variable_compose_sets_is_one_the_settings_read(
    compose: dict[str, Any], name: str
) -> None:
    unknown = set(environment(compose["services"][name])) - names_settings_read()
    assert not unknown, f"{name} sets variables the settings never read: {sorted(unknown)}"


def test_web_serves_asgi_and_the_worker_and_beat_run_celery(compose: dict[str, Any]) -> None:
    services = compose["services"]
    web_cmd = " ".join(services["web"]["command"])
    assert "-m tripeaks.stack.serve" in web_cmd and "--host 0.0.0.0" in web_cmd
    assert "worker" in services["worker"]["command"]
    assert "beat" in services["beat"]["command"]
    assert services["beat"].get("deploy", {}).get("replicas", 1) == 1


def test_the_dockerfile_the_services_build_exists(compose: dict[str, Any]) -> None:
    build = compose["services"]["web"]["build"]
    dockerfile = ROOT / (
        build.get("dockerfile", "Dockerfile") if isinstance(build, dict) else "Dockerfile"
    )
    text = dockerfile.read_text()
    assert "pip install" in text and "collectstatic" in text


@pytest.mark.parametrize("name", ["SECRET_KEY", "DEAL_SECRET", "POSTGRES_PASSWORD"])
def test_compose_commits_no_secret_and_refuses_to_start_without_one(name: str) -> None:
    # `${NAME:?message}`: compose stops with the message when NAME is unset; no fallback value.
    text = (ROOT / "docker-compose.yml").read_text()
    assert f"${{{name}:?" in text
    assert f"${{{name}:-" not in text and f"${{{name}-" not in text
