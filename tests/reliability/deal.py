"""The reliability tests' winnable deal: `winnable_code()` (tests/play/helpers.py) with its
defaults, the solver's first winnable deal from seed 7, worked out once a test process. Each of
the 63 fuzzed operations (tests/reliability/api_fuzz.py) made its player with a fresh solve of
the same deal (9 ms of CPU each: 0.29 s of 32 players), and 20 other tests here solved it again."""

from __future__ import annotations

import functools
from typing import Any

from tests.play.helpers import winnable_code


@functools.cache
def winnable() -> tuple[str, tuple[dict[str, Any], ...]]:
    """The deal's code and its winning line as API moves (a tuple: shared, not to be changed)."""
    code, line = winnable_code()
    return code, tuple(line)
