"""No import circles inside accounts and leaderboard (a circle is a third module waiting to be
named), and the recompute that checks the incremental path borrows none of its code."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("package", ["accounts", "leaderboard"])
def test_no_module_of_the_app_imports_itself_round_a_circle(package: str) -> None:
    graph = grimp.build_graph(package, cache_dir=None)
    circles = set()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back:
                circles.add(" -> ".join((module, *back)))
    assert sorted(circles) == []


def test_the_recompute_imports_none_of_the_incremental_path() -> None:
    tree = ast.parse((ROOT / "leaderboard/services/recompute.py").read_text())
    imported = {
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert sorted(name for name in imported if name.startswith("leaderboard.services")) == []
