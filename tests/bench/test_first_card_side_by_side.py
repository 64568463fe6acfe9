"""bench/first_card.py sets its two servers up side by side (`side_by_side`): each command below
leaves its mark and waits for the other's, so they pass only when run at once (one after the
other, the first waits out its 30 s and fails)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bench.first_card import side_by_side

WAIT_FOR_THE_OTHER = """
import sys, time
from pathlib import Path
mine, other = Path(sys.argv[1]), Path(sys.argv[2])
mine.touch()
deadline = time.monotonic() + 30
while not other.exists():
    if time.monotonic() > deadline:
        sys.exit(1)
    time.sleep(0.01)
"""


def test_the_two_setups_run_at_once(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    side_by_side(
        [
            ([sys.executable, "-c", WAIT_FOR_THE_OTHER, str(a), str(b)], tmp_path, {}),
            ([sys.executable, "-c", WAIT_FOR_THE_OTHER, str(b), str(a)], tmp_path, {}),
        ]
    )
    assert a.exists() and b.exists()


def test_a_failed_setup_fails_the_bench_after_the_others_end(tmp_path: Path) -> None:
    ended = tmp_path / "ended"
    with pytest.raises(SystemExit, match="failed"):
        side_by_side(
            [
                ([sys.executable, "-c", "import sys; sys.exit(3)"], tmp_path, {}),
                ([sys.executable, "-c", f"open({str(ended)!r}, 'w')"], tmp_path, {}),
            ]
        )
    assert ended.exists()
