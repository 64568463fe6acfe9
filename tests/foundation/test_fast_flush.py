"""The transactional tests' cleanup (tests/fast_flush.py) leaves the database as Django's flush
leaves it, and falls back to that flush when it cannot be sure."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection

from tests import fast_flush
from tests.factories import UserFactory
from tests.play.helpers import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def djangos_flush() -> tuple[str, str]:
    """Django's flush as TransactionTestCase runs it; the fingerprint of what it leaves."""
    call_command(
        "flush",
        verbosity=0,
        interactive=False,
        reset_sequences=False,
        allow_cascade=False,
        inhibit_post_migrate=False,
    )
    fast_flush._flushed[connection.alias] = fast_flush._fingerprint(connection.alias)
    return fast_flush._flushed[connection.alias]


def rows_outside_the_kept_tables() -> dict[str, int]:
    counts = {}
    with connection.cursor() as cursor:
        for table in fast_flush._other_tables(connection.alias):
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            (counts[table],) = cursor.fetchone()
    return {table: n for table, n in counts.items() if n}


def test_it_empties_every_table_and_keeps_the_content_types_djangos_flush_writes() -> None:
    flushed = djangos_flush()
    assert rows_outside_the_kept_tables() == {}
    kinds = ContentType.objects.count()
    assert kinds > 0 and Permission.objects.count() > 0
    player = UserFactory()
    game = client_for(player).post("/api/games", {"mode": "daily"}, format="json")
    assert game.status_code == 201, game.content
    filled = rows_outside_the_kept_tables()
    assert {"accounts_user", "play_game", "play_deal"} <= set(filled), filled

    assert fast_flush._fast_flush(connection.alias) is True

    assert rows_outside_the_kept_tables() == {}
    assert fast_flush._fingerprint(connection.alias) == flushed
    assert ContentType.objects.count() == kinds


def test_a_changed_permission_table_is_left_to_djangos_flush() -> None:
    djangos_flush()
    player = UserFactory()
    Permission.objects.create(
        codename="extra", name="Extra", content_type=ContentType.objects.get_for_model(Permission)
    )

    assert fast_flush._fast_flush(connection.alias) is False

    # Nothing was deleted: the test case's teardown runs Django's flush instead.
    assert type(player).objects.filter(pk=player.pk).exists()
