"""The prepared VAR_DIR's key (bench/stack_template.py `inputs_digest`): a template is made again
when what it is made from changes, committed or not, and only then."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

from bench.stack_template import ROOT, inputs_digest


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def checkout(root: Path) -> Path:
    files = {
        "accounts/migrations/0001_initial.py": "# schema\n",
        "frontend/static/frontend/js/app.js": "export {};\n",
        "tripeaks/play/seed_deals/pyramid.json": "[]\n",
        "tripeaks/play/views.py": "# not an input\n",
        "docs/operations.md": "not an input\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    git(root, "init", "-q")
    git(root, "add", ".")
    return root


def test_the_digest_follows_the_templates_inputs_only(tmp_path: Path) -> None:
    root = checkout(tmp_path)
    first = inputs_digest(root)
    assert inputs_digest(root) == first

    (root / "tripeaks/play/views.py").write_text("# changed, still not an input\n")
    (root / "docs/operations.md").write_text("changed\n")
    assert inputs_digest(root) == first

    digests = [first]
    for change in (
        lambda: (root / "accounts/migrations/0001_initial.py").write_text("# another schema\n"),
        lambda: (root / "frontend/static/frontend/js/app.js").write_text("export const a = 1;\n"),
        lambda: (root / "tripeaks/play/seed_deals/pyramid.json").write_text("[1]\n"),
        # A new migration, neither committed nor added.
        lambda: (root / "accounts/migrations/0002_more.py").write_text("# more\n"),
    ):
        change()
        digests.append(inputs_digest(root))
    assert len(set(digests)) == len(digests), digests

    (root / "accounts/migrations/0002_more.py").unlink()
    assert inputs_digest(root) == digests[-2]


def test_the_digest_is_the_same_in_a_process_that_finds_a_package_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pytest's path finds the project's own distribution (three times): its runs made a template
    of their own, the benches' runs another."""
    root = checkout(tmp_path)
    plain = inputs_digest(root)
    found = list(importlib.metadata.distributions())
    project = [d for d in found if d.metadata["Name"] == "tripeaks-online"]
    monkeypatch.setattr(importlib.metadata, "distributions", lambda: found + found[:3] + project)
    assert inputs_digest(root) == plain


def test_the_command_finds_this_checkouts_template_without_making_it_again(
    stack_template: Path,
) -> None:
    """`python -m bench.stack_template` (what `make test` starts beside the suite): the template
    of this checkout's inputs, found made here (a machine without it makes it, under the lock the
    suite's first whole-stack test then waits on), its path printed."""
    made = (stack_template / "postgres").stat().st_mtime_ns
    found = subprocess.run(
        [sys.executable, "-m", "bench.stack_template"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert found.returncode == 0, found.stderr
    assert Path(found.stdout.strip()) == stack_template
    assert (stack_template / "postgres").stat().st_mtime_ns == made  # not made again
