"""Settings: embedded defaults, the services profile, and the production profile."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]

# The settings module alone (no django.setup(): the apps are not what these tests read): a
# process that imports every app costs three times the CPU, and these tests start a dozen.
PRINT_SETTINGS = """
import json
from django.conf import settings as s
print(json.dumps({
    "engine": s.DATABASES["default"]["ENGINE"],
    "name": str(s.DATABASES["default"]["NAME"]),
    "cache": s.CACHES["default"]["BACKEND"],
    "channels": s.CHANNEL_LAYERS["default"]["BACKEND"],
    "host": s.DATABASES["default"]["HOST"],
    "cache_location": s.CACHES["default"]["LOCATION"],
    "eager": getattr(s, "CELERY_TASK_ALWAYS_EAGER", False),
    "broker": s.CELERY_BROKER_URL,
    "debug": s.DEBUG,
    "deal_tz": s.DEAL_DAY_TIME_ZONE,
    "tz": s.TIME_ZONE,
    "use_tz": s.USE_TZ,
    "deal_secret_type": type(s.DEAL_SECRET).__name__,
    "deal_secret": s.DEAL_SECRET.decode(),
    "secret_key": s.SECRET_KEY,
}))
"""


def run_python(code: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    base = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/tmp"),
        "VAR_DIR": os.path.join(tempfile.gettempdir(), "tripeaks-test-var"),
    }
    return subprocess.run(
        [sys.executable, *args, *(["-c", code] if code else [])],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "tripeaks.config.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_embedded_defaults_are_postgresql_and_redis_on_sockets_in_var(tmp_path: Path) -> None:
    result = run_python(PRINT_SETTINGS, {"DEBUG": "1", "VAR_DIR": str(tmp_path / "var")})

    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    # The servers `make run` embeds (tripeaks/stack/run.py): the same kinds as tests and production.
    assert got["engine"] == "django.db.backends.postgresql"
    assert got["host"] == str(tmp_path / "var" / "postgres")
    assert got["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert got["cache_location"] == f"unix://{tmp_path / 'var' / 'redis' / 'redis.sock'}"
    assert got["channels"] == "tripeaks.infra.channel_layer.RedisChannelLayer"
    assert got["broker"] == f"redis+socket://{tmp_path / 'var' / 'redis' / 'redis.sock'}"
    assert got["eager"] is False
    assert got["deal_secret_type"] == "bytes"


@pytest.mark.slow
def test_a_development_run_makes_random_secrets_once_and_keeps_them(tmp_path: Path) -> None:
    env = {"DEBUG": "1", "VAR_DIR": str(tmp_path / "var")}

    first = json.loads(run_python(PRINT_SETTINGS, env).stdout)
    again = json.loads(run_python(PRINT_SETTINGS, env).stdout)
    other = json.loads(run_python(PRINT_SETTINGS, {**env, "VAR_DIR": str(tmp_path / "v2")}).stdout)

    assert len(first["deal_secret"]) >= 64 and len(first["secret_key"]) >= 64
    assert (again["deal_secret"], again["secret_key"]) == (
        first["deal_secret"],
        first["secret_key"],
    )
    assert other["deal_secret"] != first["deal_secret"]
    kept = tmp_path / "var" / "secrets.json"
    assert json.loads(kept.read_text())["DEAL_SECRET"] == first["deal_secret"]
    assert kept.stat().st_mode & 0o777 == 0o600


def test_a_set_deal_secret_wins_over_the_kept_one(tmp_path: Path) -> None:
    env = {"DEBUG": "1", "VAR_DIR": str(tmp_path / "var"), "DEAL_SECRET": "mine-" + "z" * 40}

    got = json.loads(run_python(PRINT_SETTINGS, env).stdout)

    assert got["deal_secret"] == "mine-" + "z" * 40


def test_database_and_redis_urls_switch_to_servers_of_your_own(tmp_path: Path) -> None:
    result = run_python(
        PRINT_SETTINGS,
        {
            "DEBUG": "1",
            "VAR_DIR": str(tmp_path / "var"),
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/tripeaks",
            "REDIS_URL": "redis://127.0.0.1:6379/3",
        },
    )

    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    assert got["engine"] == "django.db.backends.postgresql"
    assert got["host"] == "127.0.0.1"
    assert got["cache_location"] == "redis://127.0.0.1:6379/3"
    assert got["broker"] == "redis://127.0.0.1:6379/3"


def test_only_postgresql_is_accepted(tmp_path: Path) -> None:
    result = run_python(
        PRINT_SETTINGS, {"DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    )

    assert result.returncode != 0
    assert "DATABASE_URL must name a PostgreSQL database" in result.stderr


def test_time_settings() -> None:
    assert settings.TIME_ZONE == "UTC"
    assert settings.USE_TZ is True
    assert settings.DEAL_DAY_TIME_ZONE == "Asia/Kathmandu"


def test_tests_run_on_postgresql_and_redis() -> None:
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert (
        settings.CHANNEL_LAYERS["default"]["BACKEND"]
        == "tripeaks.infra.channel_layer.RedisChannelLayer"
    )


def _production(**extra: str) -> dict[str, str]:
    """The production profile's environment: DEBUG off, fresh long secrets, then `extra`."""
    return {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEAL_SECRET": secrets.token_urlsafe(32),
        **extra,
    }


@pytest.mark.parametrize("missing", ["SECRET_KEY", "DEAL_SECRET"])
def test_debug_off_refuses_to_start_without_its_secrets(missing: str) -> None:
    env = _production()
    del env[missing]

    result = run_python("import django; django.setup()", env)

    assert result.returncode != 0
    assert f"{missing} must be set" in result.stderr


@pytest.mark.parametrize("name", ["SECRET_KEY", "DEAL_SECRET"])
def test_debug_off_refuses_a_short_secret(name: str) -> None:
    env = _production(**{name: "s" * 31})

    result = run_python("import django; django.setup()", env)

    assert result.returncode != 0
    assert f"{name} must be at least 32 characters" in result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [
        # Values that were once committed as fallbacks or examples: anybody can read them.
        ("DEAL_SECRET", "change-me-to-a-long-random-string-of-fifty-or-more-characters"),
        ("SECRET_KEY", "django-insecure-dev-only-key-do-not-use-in-production"),
        ("DEAL_SECRET", "test-secret-key-not-for-production-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
    ],
)
def test_debug_off_refuses_a_secret_written_in_the_repository(name: str, value: str) -> None:
    env = _production(**{name: value})

    result = run_python("import django; django.setup()", env)

    assert result.returncode != 0
    assert f"{name} is written in " in result.stderr


PRINT_ITERATIONS = (
    "from django.contrib.auth.hashers import get_hasher; print(get_hasher().iterations)"
)


def test_debug_off_refuses_a_weak_password_hash_unless_the_stack_says_it_is_throwaway() -> None:
    refused = run_python(PRINT_ITERATIONS, _production(PASSWORD_HASH_ITERATIONS="1000"))
    assert refused.returncode != 0
    assert "needs ALLOW_WEAK_PASSWORD_HASHES=1" in refused.stderr

    throwaway = _production(PASSWORD_HASH_ITERATIONS="1000", ALLOW_WEAK_PASSWORD_HASHES="1")
    allowed = run_python(PRINT_ITERATIONS, throwaway)
    assert allowed.returncode == 0, allowed.stderr
    assert allowed.stdout.split() == ["1000"]

    stronger = run_python(PRINT_ITERATIONS, _production(PASSWORD_HASH_ITERATIONS="2000000"))
    assert stronger.returncode == 0, stronger.stderr
    assert stronger.stdout.split() == ["2000000"]


@pytest.mark.parametrize("count", ["0", "-5"])
def test_a_password_hash_count_below_one_is_refused(count: str) -> None:
    result = run_python(PRINT_ITERATIONS, {"DEBUG": "1", "PASSWORD_HASH_ITERATIONS": count})
    assert result.returncode != 0
    assert "PASSWORD_HASH_ITERATIONS must be a positive count" in result.stderr


def test_production_profile_passes_check_deploy_without_warnings() -> None:
    env = _production(
        ALLOWED_HOSTS="tripeaks.example.com",
        CSRF_TRUSTED_ORIGINS="https://tripeaks.example.com",
        DATABASE_URL=os.environ["DATABASE_URL"],
        REDIS_URL=os.environ["REDIS_URL"],
    )

    result = run_python("", env, "manage.py", "check", "--deploy", "--fail-level", "WARNING")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_debug_is_off_when_unset() -> None:
    result = run_python(
        # the settings alone, as PRINT_SETTINGS: django.setup() cost 1.0 s of CPU here, this 0.3 s
        "from django.conf import settings as s; print(s.DEBUG)",
        {"SECRET_KEY": secrets.token_urlsafe(50), "DEAL_SECRET": secrets.token_urlsafe(32)},
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_a_policy_from_the_environment_is_the_header_django_csp_writes(tmp_path: Path) -> None:
    code = (
        "from django.conf import settings; from csp.utils import build_policy, default_config; "
        "print(build_policy(default_config("
        "settings.CONTENT_SECURITY_POLICY['DIRECTIVES']), nonce='N0nce'))"
    )
    policy = "default-src 'self';  script-src 'self' 'nonce-{nonce}' https://cdn.example; "
    result = run_python(
        code, {"DEBUG": "1", "VAR_DIR": str(tmp_path), "CONTENT_SECURITY_POLICY": policy}
    )
    assert result.returncode == 0, result.stderr
    # django-csp writes the directives in no fixed order.
    assert set(result.stdout.strip().split("; ")) == {
        "default-src 'self'",
        "script-src 'self' 'nonce-N0nce' https://cdn.example",
    }
