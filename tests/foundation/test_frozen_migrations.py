"""Migrations are frozen: they take no SQL, function or value from the application's live code,
so what they do on a new database never changes after they are written (leaderboard 0003/0004
once imported the record function's SQL from leaderboard/record_row.py).

Allowed: Django, the standard library, and the plain ``import app.validators`` / ``import
app.models`` that makemigrations writes to name a field's validators or a model's manager (which
change no schema)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = sorted(
    path
    for package in ("tripeaks", "leaderboard", "accounts", "frontend")
    for path in (ROOT / package).glob("**/migrations/0*.py")
)


def imported_from_the_application(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
            found |= {n for n in names if not n.endswith((".validators", ".models"))}
        elif isinstance(node, ast.ImportFrom):
            found.add(node.module or ".")
    return {
        name
        for name in found
        if name.split(".")[0] not in {"django", "__future__", *sys.stdlib_module_names}
    }


def test_there_are_migrations_to_check() -> None:
    assert len(MIGRATIONS) >= 5


@pytest.mark.parametrize("path", MIGRATIONS, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_migration_imports_only_django(path: Path) -> None:
    outside = imported_from_the_application(path)
    assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"
