"""The rooms depend one way, and `make lint` says so (import-linter, [tool.importlinter] in
pyproject.toml): the engine is the standard library only, play stands on the engine, the boards
on play, accounts apart, and nothing imports the front end."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = str(Path(sys.executable).parent / "lint-imports")
PACKAGES = ("tripeaks", "leaderboard", "accounts", "frontend")

LOADED_BY_THE_ENGINE = """
import json, os, pkgutil, importlib, sys
before = set(sys.modules)
import tripeaks.engine
for module in pkgutil.walk_packages(tripeaks.engine.__path__, "tripeaks.engine."):
    importlib.import_module(module.name)
loaded = sorted(set(sys.modules) - before)
print(json.dumps({
    "outside": [m for m in loaded
                if m.split(".")[0] not in sys.stdlib_module_names
                and not (m == "tripeaks" or m.startswith("tripeaks.engine"))],
    "settings": os.environ.get("DJANGO_SETTINGS_MODULE"),
}))
"""


def test_importing_the_engine_loads_nothing_but_the_standard_library() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}

    done = subprocess.run(
        [sys.executable, "-c", LOADED_BY_THE_ENGINE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got == {"outside": [], "settings": None}


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LINT_IMPORTS, "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_repository_keeps_every_import_contract() -> None:
    done = lint_imports(ROOT)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_lint_fails_when_the_engine_imports_django(tmp_path: Path) -> None:
    # A copy of the project's packages with one engine module that imports Django.
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "tripeaks" / "engine" / "shortcut.py").write_text(
        "from django.conf import settings\n"
    )

    done = lint_imports(tmp_path)

    assert done.returncode != 0
    assert "The engine imports nothing but the standard library BROKEN" in done.stdout
    assert "tripeaks.engine.shortcut -> django (l.1)" in done.stdout
