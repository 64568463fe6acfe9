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

PRINT_SETTINGS = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({
    "engine": s.DATABASES["default"]["ENGINE"],
    "name": str(s.DATABASES["default"]["NAME"]),
    "cache": s.CACHES["default"]["BACKEND"],
    "channels": s.CHANNEL_LAYERS["default"]["BACKEND"],
    "eager": s.CELERY_TASK_ALWAYS_EAGER,
    "propagates": s.CELERY_TASK_EAGER_PROPAGATES,
    "broker": s.CELERY_BROKER_URL,
    "debug": s.DEBUG,
    "deal_tz": s.DEAL_DAY_TIME_ZONE,
    "tz": s.TIME_ZONE,
    "use_tz": s.USE_TZ,
    "deal_secret_type": type(s.DEAL_SECRET).__name__,
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
        env={**base, "DJANGO_SETTINGS_MODULE": "tripeaks.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_embedded_defaults_with_no_environment(tmp_path: Path) -> None:
    result = run_python(PRINT_SETTINGS, {"DEBUG": "1", "VAR_DIR": str(tmp_path / "var")})

    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    assert got["engine"] == "django.db.backends.sqlite3"
    assert got["name"] == str(tmp_path / "var" / "db.sqlite3")
    assert got["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert got["channels"] == "channels.layers.InMemoryChannelLayer"
    assert got["eager"] is True and got["propagates"] is True
    assert got["broker"] == "memory://"
    assert got["deal_secret_type"] == "bytes"


def test_database_and_redis_urls_switch_to_the_real_services(tmp_path: Path) -> None:
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
    assert got["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert got["channels"] == "channels_redis.core.RedisChannelLayer"
    assert got["eager"] is False
    assert got["broker"] == "redis://127.0.0.1:6379/3"
    assert not (tmp_path / "var").exists()  # no SQLite file when PostgreSQL is used


def test_time_settings() -> None:
    assert settings.TIME_ZONE == "UTC"
    assert settings.USE_TZ is True
    assert settings.DEAL_DAY_TIME_ZONE == "Asia/Kathmandu"


def test_tests_run_on_postgresql_and_redis() -> None:
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"


@pytest.mark.parametrize("missing", ["SECRET_KEY", "DEAL_SECRET"])
def test_debug_off_refuses_to_start_without_its_secrets(missing: str) -> None:
    env = {"DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "DEAL_SECRET": "s" * 32}
    del env[missing]

    result = run_python("import django; django.setup()", env)

    assert result.returncode != 0
    assert f"{missing} must be set" in result.stderr


def test_production_profile_passes_check_deploy_without_warnings() -> None:
    env = {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEAL_SECRET": secrets.token_urlsafe(32),
        "ALLOWED_HOSTS": "tripeaks.example.com",
        "CSRF_TRUSTED_ORIGINS": "https://tripeaks.example.com",
        "DATABASE_URL": os.environ["DATABASE_URL"],
        "REDIS_URL": os.environ["REDIS_URL"],
    }

    result = run_python("", env, "manage.py", "check", "--deploy", "--fail-level", "WARNING")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_debug_is_off_when_unset() -> None:
    result = run_python(
        "import django; django.setup(); from django.conf import settings as s; print(s.DEBUG)",
        {"SECRET_KEY": secrets.token_urlsafe(50), "DEAL_SECRET": "x"},
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
