"""Settings: embedded defaults and the services profile. The production profile:
test_settings_production.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests import forked_python

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
    "pool_check": "{0.__module__}.{0.__qualname__}".format(
        s.DATABASES["default"]["OPTIONS"]["pool"]["check"]
    ),
}))
"""


def run_python(code: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`python [args] -c code` in the checkout, the environment `env` over a bare one. Code alone
    runs forked from a warm process (tests/forked_python.py: the two dozen such runs of the
    settings tests each spent 0.5-0.6 s of CPU starting Python and importing the libraries the
    settings import); a command (`manage.py check`) starts Python as before."""
    base = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/tmp"),
        "VAR_DIR": os.path.join(tempfile.gettempdir(), "tripeaks-test-var"),
        "DJANGO_SETTINGS_MODULE": "tripeaks.config.settings",
    }
    if code and not args:
        return forked_python.run(code, base, env)
    return subprocess.run(
        [sys.executable, *args, *(["-c", code] if code else [])],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_embedded_defaults_are_postgresql_and_redis_on_sockets_in_var(tmp_path: Path) -> None:
    result = run_python(PRINT_SETTINGS, {"DEBUG": "1", "VAR_DIR": str(tmp_path / "var")})

    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    # The servers `make run` embeds (tripeaks/stack/run.py): the same kinds as tests and production.
    assert got["engine"] == "tripeaks.infra.postgresql"  # Django's, its pool taking our check
    assert got["host"] == str(tmp_path / "var" / "postgres")
    assert got["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert got["cache_location"] == f"unix://{tmp_path / 'var' / 'redis' / 'redis.sock'}"
    assert got["channels"] == "tripeaks.infra.channel_layer.RedisChannelLayer"
    assert got["broker"] == f"redis+socket://{tmp_path / 'var' / 'redis' / 'redis.sock'}"
    assert got["eager"] is False
    assert got["deal_secret_type"] == "bytes"
    # The pool checks a connection by its socket, not by a round trip a checkout.
    assert got["pool_check"] == "tripeaks.infra.pool_check.check_quietly"


def test_log_level_sets_how_much_every_logger_writes_the_request_log_included(
    tmp_path: Path,
) -> None:
    code = (
        "import json, logging, logging.config\n"
        "from django.conf import settings as s\n"
        "logging.config.dictConfig(s.LOGGING)\n"
        "names = ('tripeaks.requests', 'tripeaks.events', 'tripeaks.play')\n"
        "print(json.dumps({n: logging.getLogger(n).isEnabledFor(logging.INFO) for n in names}))"
    )
    env = {"DEBUG": "1", "VAR_DIR": str(tmp_path / "var")}

    quiet = run_python(code, {**env, "LOG_LEVEL": "WARNING"})
    usual = run_python(code, env)

    assert quiet.returncode == 0, quiet.stderr
    assert json.loads(quiet.stdout) == dict.fromkeys(json.loads(usual.stdout), False)
    assert set(json.loads(usual.stdout).values()) == {True}


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
    assert got["engine"] == "tripeaks.infra.postgresql"  # Django's, its pool taking our check
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
    assert settings.DATABASES["default"]["ENGINE"] == "tripeaks.infra.postgresql"
    assert connection.vendor == "postgresql"
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert (
        settings.CHANNEL_LAYERS["default"]["BACKEND"]
        == "tripeaks.infra.channel_layer.RedisChannelLayer"
    )


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
