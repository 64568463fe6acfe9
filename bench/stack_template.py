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
(bench/idle_stack.py `start_stack`). The tests share one directory per digest of what a template
is made from (`for_these_inputs`): the first worker that asks makes it, under a lock, and later
runs on the same inputs (the migrations, the shipped deals and the code that deals them, the
static files, the stack's code, the installed packages) find it made. Its build was ~7 s of CPU
and ~17 s of a whole-stack test's time in every run. `make test` starts the search (and on a
machine without the template, the build) beside the suite, before its workers start.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tripeaks.stack.prepare import stamp_of

ROOT = Path(__file__).resolve().parent.parent
VARIABLE = "STACK_TEMPLATE"
PREFIX = "tripeaks-stack-template-"
# A template unused for this long goes (each use touches its marker; a run takes minutes).
STALE_S = 24 * 3600
READY = "ready"
# What a template is made from, besides the installed packages and Python (git pathspecs, the
# checkout's files as they are, committed or not): its schema and data (the migrations, the models,
# the shipped deals and the engine that deals them from their seeds, the seeding), its static files
# (the sources and their storage) and the steps that make it.
INPUTS = (
    "*/migrations/*.py",
    "*/models.py",
    "*/static/*",
    "tripeaks/engine",
    "tripeaks/play/seed_deals",
    "tripeaks/play/seeding.py",
    "tripeaks/play/deals.py",
    "tripeaks/play/management/commands/load_seed_deals.py",
    "tripeaks/config/settings.py",
    "tripeaks/stack",
    "frontend/storage.py",
    "bench/stack_template.py",
)


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
    # The collect's stamp too, beside the files (tripeaks/stack/prepare.py `stamp_of`): without
    # it every stack on a copy collected again (1.2-2.4 s of CPU of its start).
    stamp = stamp_of(template / "static").name
    parts = ["static", stamp, "postgres", "secrets.json"] if database else ["static", stamp]
    for part in parts:
        subprocess.run(["cp", "-a", str(template / part), str(var / part)], check=True)


def from_environment() -> Path | None:
    """The template `STACK_TEMPLATE` names, if it names one."""
    template = os.environ.get(VARIABLE)
    return Path(template) if template else None


def inputs_digest(root: Path = ROOT) -> str:
    """A digest of what a template is made from: `INPUTS` in the checkout `root`, the installed
    packages, Python."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *INPUTS],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout
    digest = hashlib.sha256(sys.version.encode())
    for name in sorted(set(listed.split(b"\0")) - {b""}):
        path = root / os.fsdecode(name)
        if path.is_file():  # listed but deleted: not an input any more
            digest.update(name + b"\0" + path.read_bytes() + b"\0")
    # Each once (a process's path can find one twice), the project's own code left to INPUTS.
    packages = sorted(
        {
            f"{d.metadata['Name']}=={d.version}"
            for d in importlib.metadata.distributions()
            if d.metadata["Name"] != "tripeaks-online"
        }
    )
    digest.update("\n".join(packages).encode())
    return digest.hexdigest()[:16]


def for_these_inputs() -> Path:
    """The template of this checkout's inputs (`inputs_digest`), shared by every test process on
    the machine: made by the first that asks while the others wait for it."""
    directory = Path(tempfile.gettempdir()) / f"{PREFIX}{inputs_digest()}"
    with Path(f"{directory}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _remove_stale(directory)
        if not (directory / READY).exists():
            # In a process of its own: the embedded servers' clients stay out of the caller's.
            subprocess.run(
                [sys.executable, "-m", "bench.stack_template", str(directory)], cwd=ROOT, check=True
            )
        (directory / READY).touch()  # in use: not stale
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
    """Templates (and their locks) of other inputs unused for `STALE_S`."""
    for old in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):
        used = old / READY if (old / READY).exists() else old
        try:
            if old.name.startswith(keep.name) or time.time() - used.stat().st_mtime < STALE_S:
                continue
        except FileNotFoundError:  # removed meanwhile by another run
            continue
        if old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
        else:
            old.unlink(missing_ok=True)


if __name__ == "__main__":
    # `python -m bench.stack_template DIR`: make a template there (`for_these_inputs` does so).
    # Without DIR: this checkout's template, found or made, its path printed (`make test` starts
    # it beside the suite, whose first whole-stack test then finds it made or waits for it).
    sys.path.insert(0, str(ROOT))
    if len(sys.argv) > 1:
        build(Path(sys.argv[1]).resolve())
    else:
        print(for_these_inputs())
