"""tests/forked_python.py: `python -c` runs forked from one warm process, each as a fresh
`python -c` would run it (its own environment, exit status and output, the settings read anew)."""

from __future__ import annotations

import os
from pathlib import Path

from tests import forked_python

BASE = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "tripeaks.config.settings"}


def test_runs_start_no_python_of_their_own() -> None:
    """Every run is a child of one server process: one interpreter's start and imports for all
    (a settings test's process spent 0.5-0.6 s of CPU on them)."""
    parents = {
        forked_python.run("import os; print(os.getppid())", BASE, {}).stdout for _ in range(3)
    }
    assert len(parents) == 1 and parents != {f"{os.getpid()}\n"}


def test_each_run_has_its_environment_and_reads_the_settings_anew(tmp_path: Path) -> None:
    seen = "import os, sys; print(os.environ.get('TP_SEEN'), 'tripeaks.config.settings' in sys.modules)"
    read = seen + "\nfrom django.conf import settings; print(settings.DEBUG)"
    env = {"DEBUG": "1", "VAR_DIR": str(tmp_path), "TP_SEEN": "1"}
    first = forked_python.run(read, BASE, env)
    then = forked_python.run(seen, BASE, {})
    assert (first.returncode, first.stdout) == (0, "1 False\nTrue\n"), first.stderr
    assert (then.returncode, then.stdout) == (0, "None False\n")


def test_exit_status_and_errors_are_those_of_python_c() -> None:
    assert forked_python.run("import sys; sys.exit(3)", BASE, {}).returncode == 3
    assert forked_python.run("import sys; sys.exit()", BASE, {}).returncode == 0
    failed = forked_python.run("print('before'); raise ValueError('no such thing')", BASE, {})
    assert (failed.returncode, failed.stdout) == (1, "before\n")
    assert failed.stderr.rstrip().endswith("ValueError: no such thing")
