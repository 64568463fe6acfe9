"""`--file-durations=N` (tests/file_durations.py): the slowest files, and the CPU their test processes
spent, the children they waited for included (a bench's subprocesses), and the processes still
running under them (the browser, the forked servers)."""

from __future__ import annotations

import collections
import subprocess
import sys

from tests.file_durations import AT_THE_END, cpu_seconds, live_children_cpu, slowest_files

# A child that spends 0.3 s of CPU.
BURN = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass"


def test_the_report_lists_the_slowest_files_with_their_cpu_then_the_most_cpu() -> None:
    seconds = collections.Counter({"a.py": 40.0, "b.py": 12.5, "c.py": 3.0})
    cpu = collections.Counter({"a.py": 2.0, "b.py": 11.0, "c.py": 0.5, AT_THE_END: 30.0})
    lines = slowest_files(seconds, cpu, 2)
    assert lines[0].split() == ["40.00s", "2.00s", "CPU", "a.py"]
    assert lines[1].split() == ["12.50s", "11.00s", "CPU", "b.py"]
    assert lines[2] == "most CPU (with the processes under them, 44 s in all):"
    assert [line.split("CPU  ")[1] for line in lines[3:]] == [AT_THE_END, "b.py"]


def test_a_waited_childs_cpu_is_counted() -> None:
    before = cpu_seconds()
    subprocess.run([sys.executable, "-c", BURN], check=True)
    assert cpu_seconds() - before >= 0.3


def test_a_running_childs_cpu_is_counted_while_it_runs() -> None:
    burn = BURN + "\nprint('burnt', flush=True)\ntime.sleep(60)"
    child = subprocess.Popen([sys.executable, "-c", burn], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "burnt\n"
        assert live_children_cpu() >= 0.3
    finally:
        child.kill()
        child.wait()
