"""Every setting the application reads is declared in tripeaks/config/settings.py: no
``getattr(settings, NAME, default)`` with a default of its own beside the code, and no
``settings.NAME`` that the settings module does not define."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from django.conf import global_settings

ROOT = Path(__file__).resolve().parents[2]
APPLICATION = ("tripeaks", "accounts", "frontend", "leaderboard")


def application_modules() -> Iterator[tuple[Path, ast.Module]]:
    for package in APPLICATION:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path, ast.parse(path.read_text(), filename=str(path))


def is_settings(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "settings"


def getattr_reads(tree: ast.Module) -> Iterator[int]:
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and node.args
            and is_settings(node.args[0])
        ):
            yield node.lineno


def test_no_getattr_of_settings_in_application_code() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path, tree in application_modules()
        for line in getattr_reads(tree)
    ]
    assert found == [], "declare these in tripeaks/config/settings.py and read settings.X"


def test_a_getattr_of_settings_is_found() -> None:
    tree = ast.parse("x = int(getattr(settings, 'RACE_CAP_S', 300))\n")
    assert list(getattr_reads(tree)) == [1]


def test_every_setting_read_is_declared() -> None:
    from tripeaks.config import settings as declared

    known = set(dir(declared)) | set(dir(global_settings))
    undeclared = [
        f"{path.relative_to(ROOT)}:{node.lineno} settings.{node.attr}"
        for path, tree in application_modules()
        if path.name != "settings.py"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and is_settings(node.value)
        and node.attr.isupper()
        and node.attr not in known
    ]
    assert undeclared == []
