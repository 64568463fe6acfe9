"""Reads in selectors, writes in services, thin edges: the REST views and pages parse, call one
selector or service and shape the answer. None of them builds a query or touches SQL, and no
selector writes, locks, queues a task or sends to a socket. This reads their source (the AST, so
a word in a docstring or a comment does not count)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Every edge of every app: its REST views, pages, forms and sockets, found by their names (so
# a new edge file is checked without being listed).
APPS = (
    "accounts",
    "leaderboard",
    "frontend",
    "tripeaks/play",
    "tripeaks/races",
    "tripeaks/arenas",
    "tripeaks/ratings",
)
EDGE_NAMES = ("views.py", "api*.py", "pages.py", "forms.py", "consumers.py")
EDGES = tuple(
    sorted(
        str(path.relative_to(ROOT))
        for app in APPS
        for name in EDGE_NAMES
        for path in (ROOT / app).glob(name)
    )
)

# A manager, a queryset being built, or SQL by hand.
QUERY_ATTRIBUTES = {
    "objects",
    "_default_manager",
    "_base_manager",
    "filter",
    "exclude",
    "select_related",
    "prefetch_related",
    "annotate",
    "aggregate",
    "select_for_update",
    "values_list",
    "raw",
    "extra",
    "cursor",
}
QUERY_NAMES = {"connection", "connections", "RawSQL"}
# Catching the database's errors builds no query.
DATABASE_ERRORS = {"DatabaseError", "IntegrityError", "OperationalError", "InterfaceError"}

SELECTORS = (
    "tripeaks/play/selectors.py",
    "tripeaks/arenas/selectors.py",
    "accounts/selectors.py",
    "leaderboard/today.py",
    "leaderboard/history.py",
    "leaderboard/export.py",
    *sorted(str(path.relative_to(ROOT)) for path in (ROOT / "leaderboard/selectors").glob("*.py")),
)

# A write, a row lock, a task queued, a socket told.
WRITE_ATTRIBUTES = {
    "save",
    "create",
    "get_or_create",
    "update_or_create",
    "bulk_create",
    "bulk_update",
    "delete",
    "select_for_update",
    "delay",
    "apply_async",
    "send_task",
    "on_commit",
    "group_send",
}


def query_building(source: str) -> list[str]:
    """Where `source` builds a query: ``line: what``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in QUERY_ATTRIBUTES:
            found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Name) and node.id in QUERY_NAMES:
            found.append(f"{node.lineno}: {node.id}")
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module in ("django.db", "django.db.models")
            and {alias.name for alias in node.names} - DATABASE_ERRORS
        ):
            found.append(f"{node.lineno}: from {node.module} import ...")
    return found


@pytest.mark.parametrize("path", EDGES)
def test_an_edge_builds_no_query(path: str) -> None:
    assert query_building((ROOT / path).read_text()) == [], f"{path}: use a selector"


# A row saved, deleted, updated or made: by a model instance as much as by a manager.
EDGE_WRITES = {
    "save",
    "delete",
    "update",
    "create",
    "get_or_create",
    "update_or_create",
    "bulk_create",
    "bulk_update",
}
# Calls of those names that write no row, by file: ``receiver.name``.
NOT_ROWS = {
    # The race socket's own dict of the racers' lines.
    "tripeaks/races/consumers.py": {"line.update"},
}


def edge_writes(source: str) -> list[str]:
    """Where `source` calls a write: ``line: receiver.name`` (the receiver's last name)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr in EDGE_WRITES:
            receiver = node.func.value
            name = receiver.id if isinstance(receiver, ast.Name) else getattr(receiver, "attr", "")
            found.append(f"{node.lineno}: {name}.{node.func.attr}")
    return found


@pytest.mark.parametrize("path", EDGES)
def test_an_edge_writes_nothing_itself(path: str) -> None:
    allowed = NOT_ROWS.get(path, set())
    writes = [
        found
        for found in edge_writes((ROOT / path).read_text())
        if found.split(": ", 1)[1] not in allowed
    ]
    assert writes == [], f"{path}: call a service"


def test_every_edge_of_every_app_is_checked() -> None:
    for path in (
        "accounts/forms.py",
        "accounts/api_account.py",
        "leaderboard/consumers.py",
        "tripeaks/play/consumers.py",
        "tripeaks/races/consumers.py",
        "tripeaks/races/pages.py",
        "tripeaks/arenas/consumers.py",
        "tripeaks/ratings/api.py",
        "frontend/views.py",
    ):
        assert path in EDGES


def writing(source: str) -> list[str]:
    """Where `source` writes, locks, queues or sends: ``line: what``."""
    return [
        f"{node.lineno}: .{node.attr}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr in WRITE_ATTRIBUTES
    ]


@pytest.mark.parametrize("path", SELECTORS)
def test_a_selector_writes_queues_and_sends_nothing(path: str) -> None:
    assert writing((ROOT / path).read_text()) == [], f"{path}: that belongs in a service"


def test_every_selector_module_is_checked() -> None:
    assert len(SELECTORS) >= 10 and "leaderboard/selectors/deal_boards.py" in SELECTORS


def test_the_check_sees_what_it_forbids() -> None:
    source = """
from django.db import connection
def view(request):
    '''Game.objects.filter(...) in a docstring is fine.'''
    game = Game.objects.select_related("deal").first()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return request.user.games.filter(finished_at=None)
"""
    assert sorted(query_building(source)) == [
        "2: from django.db import ...",
        "5: .objects",
        "5: .select_related",
        "6: .cursor",
        "6: connection",
        "8: .filter",
    ]
    queued = "def rank(line):\n    rebuild.delay(line.deal_id)\n    Line.objects.create(x=1)\n"
    assert sorted(writing(queued)) == ["2: .delay", "3: .create"]
    saved = "from django.db import DatabaseError\ndef view(request):\n    request.user.save()\n"
    assert query_building(saved) == [] and edge_writes(saved) == ["3: user.save"]


# Every write of these apps is a service: a module of their `services` package.
WRITING_APPS = ("accounts", "leaderboard", "tripeaks/arenas")
ROW_WRITES = EDGE_WRITES | {"select_for_update"}
# Calls of those names outside the services that write no row: ``path: receiver.name``.
NOT_ROW_WRITES = {
    "accounts/mail.py: form.save",  # PasswordResetForm.save mails the link
    "accounts/throttling.py: cache.delete",
    "leaderboard/cache.py: redis.delete",
    "leaderboard/selectors/game_over.py: payload.update",  # a dict
}


def test_only_the_services_write_rows() -> None:
    found = []
    for app in WRITING_APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if {"services", "migrations"} & set(relative.parts):
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                    continue
                if node.func.attr in ROW_WRITES:
                    receiver = node.func.value
                    name = receiver.id if isinstance(receiver, ast.Name) else ""
                    name = name or getattr(receiver, "attr", "")
                    where = f"{relative}: {name}.{node.func.attr}"
                    if where not in NOT_ROW_WRITES:
                        found.append(f"{where} (line {node.lineno})")
    assert found == []
