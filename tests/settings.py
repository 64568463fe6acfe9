"""Settings for the test suite: ``tripeaks.settings`` read with the test environment.

pytest-django loads this module (``DJANGO_SETTINGS_MODULE`` in pyproject.toml) before any
conftest, so this is where the environment is shaped. The suite runs against the real
PostgreSQL and Redis (``make test`` starts them if needed):

- ``DATABASE_URL`` defaults to ``postgres://postgres@127.0.0.1:5432/tripeaks``; pytest-django
  creates ``test_tripeaks`` (``test_tripeaks_gw0``, ``_gw1`` ... under xdist) and drops it after.
- ``REDIS_URL`` defaults to ``redis://127.0.0.1:6379``; each test process gets its own Redis
  database number (9 without xdist, 10 + worker index under xdist), so flushing it before every
  test (the autouse ``_fresh_cache`` fixture in conftest.py) never touches another worker's or
  the running service's data.
- Celery tasks run eagerly (in-process, errors propagate) while the broker URL stays Redis, so
  ``/api/health`` checks a real broker.
- DEBUG is off (the production profile), without the HTTPS redirect and the static manifest
  (which would need ``collectstatic`` first).
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit, urlunsplit


def _test_redis_url() -> str:
    """REDIS_URL (host, port, password kept) with this test process's own database number."""
    base = urlsplit(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    match = re.fullmatch(r"gw(\d+)", os.environ.get("PYTEST_XDIST_WORKER", ""))
    db = 10 + int(match.group(1)) % 6 if match else 9
    return urlunsplit(base._replace(path=f"/{db}"))


os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tripeaks")
os.environ["REDIS_URL"] = _test_redis_url()
os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production-" + "x" * 32)
os.environ.setdefault("DEAL_SECRET", "test-deal-secret")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")
# Tests see the production profile (DEBUG off), minus the HTTPS redirect.
os.environ["DEBUG"] = "0"
os.environ["SECURE_SSL_REDIRECT"] = "0"

from tripeaks.settings import *  # noqa: E402, F403

# Plain static storage: the hashed manifest would need `collectstatic` before every run.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Hashing passwords slowly protects nothing here.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
