"""Ports for the servers the tests start (Uvicorn, PostgreSQL, Redis, SMTP).

A port the kernel picks for ``bind(("127.0.0.1", 0))`` comes from its ephemeral range, the range
it also draws every outgoing connection's own end from. Between the probe and the server's own
bind, one of the suite's thousands of loopback connections can take it: seen as "address already
in use" for a bench server under ``-n 4``. So the ports come from below that range, where no
connection is given one, and each test process picks from its own slice of it.
"""

from __future__ import annotations

import os
import random
import re
import socket
from pathlib import Path

LOWEST = 10_000
SLICES = 8  # test processes with a slice of their own (gw0 .. gw7; more share)
SLICE_MIN = 8  # ports in a slice, however low the ephemeral range begins
# The browsers' "bad ports" (the Fetch standard's list) at or above LOWEST: a page there fails
# with net::ERR_UNSAFE_PORT (a browser test's server on 10080 failed so).
UNSAFE_FOR_BROWSERS = {10080}


def _ephemeral_start() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def _slice() -> range:
    top = max(_ephemeral_start(), LOWEST + SLICE_MIN * SLICES)
    width = (top - LOWEST) // SLICES
    match = re.fullmatch(r"gw(\d+)", os.environ.get("PYTEST_XDIST_WORKER", ""))
    index = int(match.group(1)) % SLICES if match else 0
    return range(LOWEST + index * width, LOWEST + (index + 1) * width)


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port(span: int = 1) -> int:
    """A port such that it and the `span` - 1 after it are free now (a bench's servers take
    consecutive ports)."""
    ports = _slice()
    for _ in range(200):
        first = random.randrange(ports.start, ports.stop - span)
        taken = range(first, first + span)
        if UNSAFE_FOR_BROWSERS.isdisjoint(taken) and all(_bindable(port) for port in taken):
            return first
    raise RuntimeError(f"no {span} free ports in {ports}")
