"""No function over 60 lines in the application's Python (``make lint``).

A function's length is its lines from ``def`` to its last line, docstring and nested functions
included (decorators not). The solver (``tripeaks/engine/solver*.py``) and migrations are
exempt. Exit status 1 when a function is too long.

    python scripts/check_function_length.py
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tripeaks", "accounts", "leaderboard", "frontend")
LIMIT = 60


def exempt(path: Path) -> bool:
    relative = path.relative_to(ROOT)
    return "migrations" in relative.parts or (
        relative.parts[:2] == ("tripeaks", "engine") and relative.name.startswith("solver")
    )


def functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.AST]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}{node.name}"
            if not isinstance(node, ast.ClassDef):
                yield name, node
            yield from functions(node, f"{name}.")
        else:
            yield from functions(node, prefix)


def long_functions() -> Iterator[tuple[str, int]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if exempt(path):
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            for name, node in functions(tree):
                assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > LIMIT:
                    yield f"{path.relative_to(ROOT)}::{name}", length


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args(argv)
    failed = 0
    for where, length in long_functions():
        failed += 1
        print(f"TOO LONG: {where}: {length} lines (at most {LIMIT})")
    if failed:
        print(
            f"{failed} function(s) over {LIMIT} lines: split them (scripts/check_function_length.py)"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
