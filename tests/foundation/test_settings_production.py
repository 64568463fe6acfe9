"""Settings: the production profile (DEBUG off) refuses to start without strong secrets of its
own and passes `check --deploy`. The embedded defaults and the services profile:
test_settings.py (the two took 88 s on one worker of a loaded run: each test starts Python)."""

from __future__ import annotations

import os
import secrets

import pytest

from tests.foundation.test_settings import run_python


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
