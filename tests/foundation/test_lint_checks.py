"""`make lint`'s own checks: no import circles among the project's modules
(scripts/check_cycles.py) and no function over 60 lines (scripts/check_function_length.py).
Each finds what it looks for in a made-up package, and passes on the project."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import check_cycles  # noqa: E402
import check_function_length  # noqa: E402


def test_a_circle_is_found_and_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "knotted"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from knotted import b\n")
    (package / "b.py").write_text("def f() -> None:\n    from knotted import c\n")
    (package / "c.py").write_text("import knotted.a\n")
    (package / "d.py").write_text("import knotted.a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("knotted", cache_dir=None)
    (knot,) = check_cycles.knots(graph)
    assert knot == ["knotted.a", "knotted.b", "knotted.c"]
    assert check_cycles.circles(graph, knot)[0] == (
        "knotted.a",
        "knotted.b",
        "knotted.c",
        "knotted.a",
    )


def test_a_long_function_is_found_nested_ones_too() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(60))
    tree = ast.parse(f"class C:\n  def short(self):\n    pass\n  def long(self):\n{body}\n")
    lengths = {
        name: node.end_lineno - node.lineno + 1  # type: ignore[attr-defined]
        for name, node in check_function_length.functions(tree)
    }
    assert lengths == {"C.short": 2, "C.long": 61}


@pytest.mark.parametrize("script", ["check_cycles.py", "check_function_length.py"])
def test_the_project_passes_its_checks(script: str) -> None:
    done = subprocess.run(
        [sys.executable, f"scripts/{script}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
