"""No import circles among the modules of play and races (imports inside functions count: grimp
sees them). A circle is a module waiting to be named; this keeps new ones out."""

from __future__ import annotations

import grimp

PACKAGES = ("tripeaks.play", "tripeaks.races")
# Owned by the solver queue's work (deals, solver_queue and tasks are its rooms): to go there.
KNOWN = {frozenset({"tripeaks.play.solver_queue", "tripeaks.play.tasks"})}


def _circles() -> set[frozenset[str]]:
    graph = grimp.build_graph("tripeaks", "leaderboard", "accounts")
    modules = sorted(m for m in graph.modules if m.startswith(PACKAGES))
    found: set[frozenset[str]] = set()
    for module in modules:
        for imported in graph.find_modules_directly_imported_by(module):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                found.add(frozenset({module, *back}))
    return found


def test_play_and_races_import_in_no_circle() -> None:
    circles = {circle for circle in _circles() if not any(known <= circle for known in KNOWN)}
    assert circles == set(), sorted(sorted(circle) for circle in circles)
