"""A prepared VAR_DIR for the stacks the tests start: what `make run`'s first start makes before
its processes start (PostgreSQL's data directory, initialised, migrated and given the shipped
deals; the collected static files), made once and copied into each stack's VAR_DIR.

A stack started on a copy runs every step of `make run` as a second start does: `migrate` finds
nothing to apply, `load_seed_deals` finds its pools dealt, `collectstatic` copies and compresses
nothing. Made fresh, those steps were most of a test stack's start: 4.7 s of CPU for a cold
collect (2.5 s warm), initdb, migrate and the 2,160 shipped deals (and 110 s of wall time on a
machine at load 30). `make run` itself never uses a template; its fresh start keeps its test
(tests/foundation/test_make_run.py).

A bench given `STACK_TEMPLATE=<directory>` in its environment starts its stack on a copy of it
(bench/idle_stack.py `start_stack`); the tests make one directory per run
(`for_this_run`), under a lock, for all their workers.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VARIABLE = "STACK_TEMPLATE"
PREFIX = "tripeaks-stack-template-"
# A template older than this belongs to no run still going (a `make test` takes minutes): it goes.
STALE_S = 3 * 3600
READY = "ready"


def stack_env(var: Path, **extra: str) -> dict[str, str]:
    """The environment of a stack of its own under `var`, its static files included: stacks
    started side by side (the tests start several) never collect into one folder while another
    process reads it (a collect replaces files another's WhiteNoise is listing)."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY"}
        and name != "DEAL_SECRET"
        and not name.startswith("PYTEST")
    }
    return env | {
        "DEBUG": "1",
        "VAR_DIR": str(var),
        "LOG_LEVEL": "WARNING",
        "STATIC_ROOT": str(var / "static"),
        **extra,
    }


def copy_into(var: Path, template: Path, *, database: bool = True) -> None:
    """`template`'s static files, and unless `database` is false its database with the secrets
    its deals were made under, into `var` (owners and times kept: the embedded PostgreSQL's user
    keeps its data directory, and collectstatic finds every file unchanged)."""
    if not (template / READY).exists():
        raise RuntimeError(f"{template} is no stack template (no {READY!r} marker)")
    var.mkdir(parents=True, exist_ok=True)
    parts = ["static", "postgres", "secrets.json"] if database else ["static"]
    for part in parts:
        subprocess.run(["cp", "-a", str(template / part), str(var / part)], check=True)


def from_environment() -> Path | None:
    """The template `STACK_TEMPLATE` names, if it names one."""
    template = os.environ.get(VARIABLE)
    return Path(template) if template else None


def for_this_run(run: str) -> Path:
    """The template of the test run `run` (pytest-xdist's run id, shared by its workers), made
    by the first worker that asks while the others wait for it."""
    directory = Path(tempfile.gettempdir()) / f"{PREFIX}{run}"
    with Path(f"{directory}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (directory / READY).exists():
            _remove_stale(directory)
            # In a process of its own: the embedded servers' clients stay out of the caller's.
            subprocess.run(
                [sys.executable, "-m", "bench.stack_template", str(directory)], cwd=ROOT, check=True
            )
    return directory


def build(directory: Path) -> None:
    """The template into `directory`: `make run`'s own first steps (tripeaks/stack/run.py) on
    its embedded PostgreSQL and Redis, stopped cleanly; Redis's empty data is left out."""
    from tripeaks.stack.run import EmbeddedPostgres, EmbeddedRedis, Supervisor, migrate

    partial = directory.with_name(directory.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    env = stack_env(partial)
    postgres, redis = EmbeddedPostgres(partial / "postgres"), EmbeddedRedis(partial / "redis")
    try:
        env["DATABASE_URL"], env["REDIS_URL"] = postgres.start(), redis.start()
        env["EMBEDDED_SERVICES"] = "database,redis"
        migrate(Supervisor(env), env)
    finally:
        redis.stop()
        postgres.stop()
    shutil.rmtree(partial / "redis")
    (partial / READY).touch()
    partial.rename(directory)


def _remove_stale(keep: Path) -> None:
    for old in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):
        if old.name.startswith(keep.name) or time.time() - old.stat().st_mtime < STALE_S:
            continue
        if old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
        else:
            old.unlink(missing_ok=True)


if __name__ == "__main__":
    # `python -m bench.stack_template DIR`: make a template (`for_this_run` does so).
    sys.path.insert(0, str(ROOT))
    build(Path(sys.argv[1]).resolve())
