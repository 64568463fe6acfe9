"""Where the signing key and the deal secret come from, and which values are refused.

- A development run (``DEBUG=1``, ``make run``) that sets neither gets random ones, made on its
  first start and kept in ``VAR_DIR/secrets.json`` (mode 600), so sessions and deals survive a
  restart and every process of the checkout (server, worker, beat, ``manage.py``) shares them.
- With ``DEBUG`` off they must come from the environment, be at least ``MIN_LENGTH`` characters,
  and appear in no file of the repository: a value that was ever committed (a compose fallback,
  a test's, an example in the docs) lets anybody rebuild the ranked deals offline.

Standard library only: the settings module imports it before Django is set up.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

NAMES = ("SECRET_KEY", "DEAL_SECRET")
MIN_LENGTH = 32
# Folders of a checkout that are not the repository's own files.
_NOT_THE_REPOSITORY = {
    ".git",
    ".venv",
    "var",
    "staticfiles",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "test-artifacts",
}


class UnsafeSecret(Exception):
    """A secret that is missing, short, or written somewhere in the repository."""


def load_or_create(path: Path) -> dict[str, str]:
    """The development secrets kept at ``path``, made (random, 64 bytes each) if it is missing.

    Several processes of one ``make run`` start at once: the file is created exclusively, and a
    process that loses the race reads the winner's file.
    """
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    values = {name: secrets.token_urlsafe(64) for name in NAMES}
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read(path)
    with os.fdopen(fd, "w") as out:
        json.dump(values, out)
    return values


def _read(path: Path) -> dict[str, str]:
    # A file still being written by the process that won the race reads as empty: wait for it.
    for _ in range(50):
        text = path.read_text()
        if text:
            values: dict[str, str] = json.loads(text)
            return values
        os.sched_yield()
    raise UnsafeSecret(f"{path} is empty: delete it and start again")


def check(name: str, value: str, repositories: Iterable[Path]) -> None:
    """Refuse (``UnsafeSecret``) a production secret that is missing, short or committed."""
    if not value:
        raise UnsafeSecret(f"{name} must be set when DEBUG is off.")
    if len(value) < MIN_LENGTH:
        raise UnsafeSecret(f"{name} must be at least {MIN_LENGTH} characters when DEBUG is off.")
    for root in repositories:
        found = found_in(value, root)
        if found is not None:
            raise UnsafeSecret(
                f"{name} is written in {found}: a value from the repository is known to "
                "everybody. Generate one (python -c 'import secrets; "
                "print(secrets.token_urlsafe(64))')."
            )


def checkouts(*candidates: Path) -> list[Path]:
    """The folders among ``candidates`` that hold this project's source (a checkout or an
    image's copy of it), not an installed package's folder."""
    seen: list[Path] = []
    for folder in candidates:
        folder = folder.resolve()
        project = folder / "pyproject.toml"
        if (
            folder not in seen
            and project.is_file()
            and 'name = "tripeaks-online"' in project.read_text()
        ):
            seen.append(folder)
    return seen


def found_in(value: str, root: Path) -> Path | None:
    """The first file under ``root`` (the repository's own files) that contains ``value``."""
    needle = value.encode()
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [
            name
            for name in subfolders
            if name not in _NOT_THE_REPOSITORY and not name.endswith(".egg-info")
        ]
        for name in files:
            if name == ".env" or name.endswith(".env"):
                continue  # where a deployment keeps its secrets (never committed: .gitignore)
            path = Path(folder, name)
            try:
                if needle in path.read_bytes():
                    return path.relative_to(root)
            except OSError:
                continue
    return None
