"""The test servers' ports (tests/ports.py) are ones a browser loads pages from."""

from __future__ import annotations

import random

import pytest

from tests import ports


def test_no_port_a_browser_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    draws = iter([10080, 10081, 10079, 10082])
    monkeypatch.setattr(random, "randrange", lambda start, stop: next(draws))
    monkeypatch.setattr(ports, "_bindable", lambda port: True)
    assert ports.free_port() == 10081
    assert ports.free_port(span=2) == 10082  # 10079 and the next, 10080: no
