"""`make lint` checks the front end's JavaScript, and the check bites: the project's own ESLint
config (eslint.config.js) and TypeScript checker config (jsconfig.json), copied beside a module
with real bugs in it, fail on that module and pass its clean neighbour."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"
JS = Path("frontend/static/frontend/js")

CLEAN = """\
/** @param {number} n @returns {number} */
export function twice(n) {
  return n * 2;
}
"""

# Each line is a bug one of the two tools must name.
BUGGY = """\
import { twice } from './clean.js';

export const text = twice('2'); // tsc: a string where a number goes
export const ghost = undefinedThing + 1; // ESLint no-undef; tsc: cannot find the name
export const same = (text == ghost); // ESLint eqeqeq
const unused = 3; // ESLint no-unused-vars
/** @param {{seq: number}} view */
export const next = (view) => view.sqe + 1; // tsc: no such property (a typo)
export function loose(value) { return value; } // tsc (strict): an implicit any
"""


@pytest.fixture(scope="module")
def tools() -> Path:
    """node_modules as `make lint` installs it (npm ci from package-lock.json)."""
    npm = shutil.which("npm")
    assert npm is not None, "the JavaScript lint needs Node.js and npm (README)"
    if (
        not (NODE_MODULES / ".bin" / "eslint").exists()
        or not (NODE_MODULES / ".bin" / "tsc").exists()
    ):
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True, timeout=300)
    return NODE_MODULES / ".bin"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the lint setup with one clean and one buggy front-end module."""
    for name in ("eslint.config.js", "jsconfig.json", "package.json"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "node_modules").symlink_to(NODE_MODULES, target_is_directory=True)
    folder = tmp_path / JS
    folder.mkdir(parents=True)
    (folder / "clean.js").write_text(CLEAN)
    (folder / "buggy.js").write_text(BUGGY)
    return tmp_path


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=60, check=False)


def test_eslint_fails_on_undefined_names_loose_equality_and_unused_variables(
    tools: Path, project: Path
) -> None:
    done = run([str(tools / "eslint"), "--format", "json", str(JS)], project)
    assert done.returncode == 1, done.stdout + done.stderr
    found = {
        (Path(f["filePath"]).name, m["line"], m["ruleId"])
        for f in json.loads(done.stdout)
        for m in f["messages"]
    }
    assert found == {
        ("buggy.js", 4, "no-undef"),
        ("buggy.js", 5, "eqeqeq"),
        ("buggy.js", 6, "no-unused-vars"),
    }


def test_tsc_fails_on_type_errors_in_jsdoc_typed_modules(tools: Path, project: Path) -> None:
    done = run([str(tools / "tsc"), "-p", "jsconfig.json", "--pretty", "false"], project)
    assert done.returncode != 0, done.stdout + done.stderr
    found = set(re.findall(r"^(\S+)\((\d+),\d+\): error (TS\d+)", done.stdout, re.MULTILINE))
    buggy = f"{JS}/buggy.js"
    assert found == {
        (buggy, "3", "TS2345"),  # a string where a number goes
        (buggy, "4", "TS2304"),  # cannot find the name
        (buggy, "8", "TS2339"),  # no such property
        (buggy, "9", "TS7006"),  # an implicit any (strict)
    }, done.stdout
