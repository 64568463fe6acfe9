"""The game review's analysis bench (bench/review_analysis.py) runs to its end at a tiny size and
finds the naive review's verdicts (tests/bench/runs.py: the figures at this size mean nothing)."""

from __future__ import annotations

import pytest

from tests.bench.runs import TINY, run_bench

pytestmark = pytest.mark.slow


def test_review_analysis_bench() -> None:
    out = run_bench(TINY["review_analysis.py"])
    assert "lost games with a named losing move" in out
    assert "verdicts differing: 0" in out
