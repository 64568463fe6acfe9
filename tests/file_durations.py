"""`--file-durations=N`: the N test files that took longest, and the CPU their test processes and
the processes under them spent on each (a plugin of tests/conftest.py)."""

from __future__ import annotations

import collections
import os
from collections.abc import Generator, Iterator
from typing import Any

import pytest


def pytest_configure(config: pytest.Config) -> None:
    controller = config.getoption("numprocesses", None) and not hasattr(config, "workerinput")
    _CpuMark.measures = not controller


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--file-durations",
        type=int,
        default=0,
        metavar="N",
        help="list the N test files that took longest (their tests' setup, call and teardown)",
    )


# Seconds each test file took, summed over its tests' phases (under xdist, as the workers report),
# and the CPU seconds spent on them by its test process and the processes under it (below).
_FILE_SECONDS: collections.Counter[str] = collections.Counter()
_FILE_CPU: collections.Counter[str] = collections.Counter()
# Where the CPU of each worker's last teardown goes: the session's fixtures end there, and with
# them the processes the worker waits for only then (the browser, the forked servers).
AT_THE_END = "(each worker's last teardown: the session's browser and servers)"


class _CpuMark:
    """Where the test process's CPU stood: its own (`own`) and with the children it waited for
    (`seconds`) when the last phase was reported (or the test began); its running descendants'
    (the browser, forked servers) when the file being run began, and which file that was."""

    measures = True  # not in xdist's controller: its children are the workers
    seconds = 0.0
    own = 0.0
    live = 0.0
    file = ""
    live_report: tuple[str, float] | None = None  # a file's, sent with a report to come
    last_teardown = False


def cpu_seconds(children: bool = True) -> float:
    """CPU of this process and of the children it has waited for (a bench's subprocesses, a
    module's server once stopped; not a process still running)."""
    times = os.times()
    own = times.user + times.system
    return own + times.children_user + times.children_system if children else own


def live_children_cpu() -> float:
    """CPU so far of this process's descendants still running (and of the children each of them
    waited for): read at each change of file only, a scan of /proc being 2 ms."""
    import psutil

    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:  # gone meanwhile: its parent has its CPU now
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def _file_ends(new_file: str) -> None:
    """What the running descendants spent since the last file began was that file's."""
    live = live_children_cpu()
    if _CpuMark.file:
        _CpuMark.live_report = (_CpuMark.file, live - _CpuMark.live)
    _CpuMark.file, _CpuMark.live = new_file, live


def _mark_cpu() -> None:
    _CpuMark.seconds, _CpuMark.own = cpu_seconds(), cpu_seconds(children=False)


def pytest_runtest_logstart(nodeid: str) -> None:
    if not _CpuMark.measures:
        return
    _mark_cpu()
    path = nodeid.split("::", 1)[0]
    if path != _CpuMark.file:
        _file_ends(path)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Before a worker's last teardown ends its session (the browser, the forked servers, some
    of them reaped by processes other than this one), the last file's share of their CPU."""
    _CpuMark.last_teardown = nextitem is None
    if _CpuMark.last_teardown and _CpuMark.measures:
        _file_ends(AT_THE_END)
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Each phase's report carries the CPU the phase took (`cpu_seconds`) and a file's running
    descendants' when one ended (`cpu_live`): xdist sends a report's extra attributes to the
    controller with it. A worker's last teardown counts the test process's own CPU only: the
    processes stopped there are counted up to their stop."""
    report = yield
    extra: Any = report
    extra.cpu_at_the_end = call.when == "teardown" and _CpuMark.last_teardown
    if extra.cpu_at_the_end:
        extra.cpu_seconds = cpu_seconds(children=False) - _CpuMark.own
    else:
        extra.cpu_seconds = cpu_seconds() - _CpuMark.seconds
    extra.cpu_live, _CpuMark.live_report = _CpuMark.live_report, None
    _mark_cpu()
    return report


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    path = report.nodeid.split("::", 1)[0]
    _FILE_SECONDS[path] += report.duration
    at_the_end = getattr(report, "cpu_at_the_end", False)
    _FILE_CPU[AT_THE_END if at_the_end else path] += getattr(report, "cpu_seconds", 0.0)
    live = getattr(report, "cpu_live", None)
    if live:
        _FILE_CPU[live[0]] += live[1]


def slowest_files(
    seconds: collections.Counter[str], cpu: collections.Counter[str], count: int
) -> list[str]:
    """The report of `--file-durations=N`: the `count` files that took longest, then the `count`
    that took the most CPU (their test processes' and the processes' under them), and that CPU in
    all."""
    lines = [f"{s:7.2f}s {cpu[path]:7.2f}s CPU  {path}" for path, s in seconds.most_common(count)]
    lines.append(f"most CPU (with the processes under them, {sum(cpu.values()):.0f} s in all):")
    lines += [f"{s:7.2f}s CPU  {path}" for path, s in cpu.most_common(count)]
    return lines


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """`--file-durations=N`: the goal is no test file over 30 s on one worker (issue #36); a file
    that grows past it is split, or its setup shared, before it slows every run down. Beside the
    time, the CPU: on two cores shared by three workers, a file's time is mostly the others'."""
    count = config.getoption("file_durations")
    if not count or not _FILE_SECONDS:
        return
    terminalreporter.write_sep("=", f"slowest {count} test files")
    for line in slowest_files(_FILE_SECONDS, _FILE_CPU, count):
        terminalreporter.write_line(line)
