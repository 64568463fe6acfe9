"""What an accounts write tells the rest (sockets of ended sessions, through ``access_ended``)
goes out on commit: a rolled-back write tells nobody and ends nothing."""

from __future__ import annotations

import contextlib
from importlib import import_module
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction

from accounts.models import AccessKind, AccessRecord
from accounts.services import access
from accounts.signals import access_ended


class RolledBack(Exception):
    pass


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_end_of_sessions_closes_no_socket_and_a_committed_one_does(
    make_user: Any,
) -> None:
    player = make_user("traveller")
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store["_auth_user_id"] = str(player.pk)
    store.create()
    key = store.session_key
    assert key is not None
    AccessRecord.objects.create(user=player, kind=AccessKind.SESSION, key=key)
    told: list[list[str]] = []

    def heard(sender: Any, session_keys: list[str], **kwargs: Any) -> None:
        told.append(list(session_keys))

    access_ended.connect(heard, dispatch_uid="test_on_commit")
    try:
        with contextlib.suppress(RolledBack), transaction.atomic():
            assert access.end_other_access(user=player) == 1
            raise RolledBack
        assert told == []
        assert store.exists(key) and AccessRecord.objects.filter(key=key).exists()

        assert access.end_other_access(user=player) == 1
        assert told == [[key]]
        assert not store.exists(key)
    finally:
        access_ended.disconnect(dispatch_uid="test_on_commit")
