"""The benches' own databases, made anew each run so that earlier runs weigh nothing, as copies
of a migrated template: `manage.py migrate` costs about 2 s and 1.6 s of CPU (and the server's
own), a copy 0.1 s. The template is named for the migrations' text, made once per server (and
again when a migration changes), and only ever copied. The test suite's databases are copies of
it too (tests/conftest.py)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_PREFIX = "tripeaks_bench_template_"
LOCK_KEY = "hashtext('tripeaks_bench_template')"
# Templates kept on a server, the newest first: this one's and those of other checkouts.
KEEP_TEMPLATES = 8


def migrations_digest() -> str:
    """A digest of every migration's path and text: equal digests, equal schemas."""
    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/migrations/*.py")) + sorted(
        ROOT.glob("tripeaks/*/migrations/*.py")
    ):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def server_and_name(url: str) -> tuple[str, str]:
    """A database URL's server (everything but the name) and the database's name."""
    server, _, name = url.rpartition("/")
    return server, name


def create_migrated_database(url: str, env: dict[str, str]) -> None:
    """The database at `url` anew, with every migration applied: a copy of the template (see
    `migrated_template`)."""
    server, name = server_and_name(url)
    template = migrated_template(server, env)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')


def migrated_template(server: str, env: dict[str, str]) -> str:
    """The name of this server's template for these migrations, migrated first (with `env`'s
    settings) when the server has none. Callers at once take turns (an advisory lock)."""
    template = TEMPLATE_PREFIX + migrations_digest()[:16]
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(f"SELECT pg_advisory_lock({LOCK_KEY})")
        try:
            made = connection.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [template]
            ).fetchone()
            if not made:
                _make_template(connection, server, template, env)
        finally:
            connection.execute(f"SELECT pg_advisory_unlock({LOCK_KEY})")
    return template


def _make_template(
    connection: psycopg.Connection[Any], server: str, template: str, env: dict[str, str]
) -> None:
    """Migrate a database under a passing name, then give it the template's (a migration that
    fails leaves no template behind); beyond the newest KEEP_TEMPLATES, older ones go."""
    execute = connection.execute
    partial = f"{template}_partial"
    execute(f'DROP DATABASE IF EXISTS "{partial}" WITH (FORCE)')
    execute(f'CREATE DATABASE "{partial}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env={**os.environ, **env, "DATABASE_URL": f"{server}/{partial}"},
        check=True,
    )
    execute(f'ALTER DATABASE "{partial}" RENAME TO "{template}"')
    # Other checkouts on this server (other branches, other migrations) copy their own templates
    # at the same time: dropping them made each run migrate again, and failed another run's copy
    # made between its lookup and its CREATE DATABASE. Only the oldest beyond KEEP_TEMPLATES go.
    old = execute(
        "SELECT datname FROM pg_database WHERE datname LIKE %s AND datname <> %s"
        " ORDER BY oid DESC OFFSET %s",
        [TEMPLATE_PREFIX + "%", template, KEEP_TEMPLATES - 1],
    ).fetchall()
    for (stale,) in old:
        execute(f'DROP DATABASE IF EXISTS "{stale}" WITH (FORCE)')
