"""bench/database.py: a bench's database is a copy of a migrated template, made once for the
migrations' text, and a failed migration leaves no template behind; other checkouts' templates
(other migrations, on the same server) are kept, up to KEEP_TEMPLATES (one test for these two:
each migrates a template from scratch)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

import psycopg
import pytest

from bench.database import (
    KEEP_TEMPLATES,
    TEMPLATE_PREFIX,
    create_migrated_database,
    migrations_digest,
    server_and_name,
)

SERVER, _ = server_and_name(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/x"))


def tables(url: str) -> set[str]:
    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        ).fetchall()
    return {name for (name,) in rows}


@pytest.fixture
def bench_url() -> Iterator[str]:
    name = f"tripeaks_bench_dbtest_{os.getpid()}"
    yield f"{SERVER}/{name}"
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def databases(prefix: str) -> set[str]:
    """The server's databases whose names begin with `prefix`."""
    with psycopg.connect(f"{SERVER}/postgres") as connection:
        rows = connection.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s", [prefix + "%"]
        ).fetchall()
    return {name for (name,) in rows}


def test_a_bench_database_is_migrated_and_made_anew_each_time(bench_url: str) -> None:
    create_migrated_database(bench_url, {})
    made = tables(bench_url)
    assert {"play_game", "play_deal", "django_migrations"} <= made
    with psycopg.connect(bench_url, autocommit=True) as connection:
        connection.execute("CREATE TABLE left_over (x int)")
    create_migrated_database(bench_url, {})
    assert tables(bench_url) == made  # anew: what the last run left is gone

    template = TEMPLATE_PREFIX + migrations_digest()[:16]
    names = databases(TEMPLATE_PREFIX)
    # This one, and those of other checkouts (other migrations) on the server, up to a bound.
    assert template in names and len(names) <= KEEP_TEMPLATES


# `slow`: it migrates a template from scratch (tests/conftest.py runs such tests first). As a
# short test it ran last in a whole run, 18 s alone on its worker at the end.
@pytest.mark.slow
def test_a_failed_migration_leaves_no_template_and_other_checkouts_templates_are_kept(
    bench_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed migration leaves no template behind (nor its partial database), and drops no
    other checkout's. Another checkout on the same server (another branch: other migrations)
    copies its own template while this one makes its own: they used to drop each other's, so
    each run migrated again and a copy between another run's lookup and its CREATE DATABASE
    failed. One test: each check migrates a template of its own from scratch."""
    prefix = f"tripeaks_bench_tpltest_{os.getpid()}_"
    monkeypatch.setattr("bench.database.TEMPLATE_PREFIX", prefix)
    # A lock of its own: under the benches' lock its migrations held up every bench and test
    # process copying the real template meanwhile (they run beside it, at the suite's start).
    monkeypatch.setattr("bench.database.LOCK_KEY", f"hashtext('{prefix}')")
    monkeypatch.setattr("bench.database.KEEP_TEMPLATES", 3)
    template = prefix + migrations_digest()[:16]
    others = [f"{prefix}{n:016d}" for n in range(3)]  # the oldest first

    try:
        with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as connection:
            for name in others:
                connection.execute(f'CREATE DATABASE "{name}"')
        with pytest.raises(subprocess.CalledProcessError):
            create_migrated_database(bench_url, {"DJANGO_SETTINGS_MODULE": "no.such.settings"})
        left = databases(prefix)
        assert template not in left and set(others) <= left  # none of the others dropped
        create_migrated_database(bench_url, {})
        # This checkout's template and the two newest of the others: the oldest went, and the
        # failed attempt's leftover too.
        assert databases(prefix) == {template, *others[1:]}
        assert "play_game" in tables(bench_url)
    finally:
        with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as connection:
            for name in databases(prefix):
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
