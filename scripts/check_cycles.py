"""No import circles among the project's modules (``make lint``).

Builds the import graph of the project's packages with grimp (which import-linter installs and
uses), finds its strongly connected components (each is a knot of modules that import each
other, directly or through others) and prints, for every module in a knot, the shortest circle
through it. Every import counts: at the top, inside a function, under ``TYPE_CHECKING``.
Exit status 1 when a circle is found.

    python scripts/check_cycles.py
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable

import grimp

PACKAGES = ("tripeaks", "accounts", "leaderboard", "frontend")


def knots(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work: list[tuple[str, Iterable[str]]] = [(root, iter(_imports(graph, root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, children = work[-1]
            child = next(iter(children), None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    knot = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        knot.append(member)
                        if member == module:
                            break
                    if len(knot) > 1:
                        found.append(sorted(knot))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(_imports(graph, child))))
            elif child in on_stack:
                low[module] = min(low[module], index[child])
    return sorted(found)


def _imports(graph: grimp.ImportGraph, module: str) -> list[str]:
    return sorted(graph.find_modules_directly_imported_by(module) & graph.modules)


def circles(graph: grimp.ImportGraph, knot: list[str]) -> list[tuple[str, ...]]:
    """The shortest circle through each module of a knot, each once."""
    members = set(knot)
    seen: set[frozenset[tuple[str, str]]] = set()
    found = []
    for module in knot:
        best: tuple[str, ...] | None = None
        for imported in _imports(graph, module):
            if imported not in members:
                continue
            chain = graph.find_shortest_chain(importer=imported, imported=module)
            if chain is not None and (best is None or len(chain) < len(best)):
                best = (module, *chain)
        if best is None:
            continue
        edges = frozenset(zip(best, best[1:], strict=False))
        if edges not in seen:
            seen.add(edges)
            found.append(best)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args(argv)
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    failed = 0
    for knot in knots(graph):
        failed += 1
        print(f"IMPORT CIRCLE: {len(knot)} modules: {', '.join(knot)}")
        for circle in circles(graph, knot):
            print("    " + " -> ".join(circle))
    if failed:
        print(f"{failed} import circle(s) among {', '.join(PACKAGES)}: a third module is waiting")
        print("to be named (or move the import's target); see scripts/check_cycles.py.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
