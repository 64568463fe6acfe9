"""Django's PostgreSQL backend whose pool takes the ``check`` its options give.

Django 5.2 hands psycopg's pool a ``check`` of its own (psycopg's round trip with
``CONN_HEALTH_CHECKS``, else none) beside the options', which fails with "multiple values for
keyword argument 'check'"; Django 6.1 lets the options' win (ticket #37075). Until the project
moves to it, the pool is made here as Django makes it, with the options' check
(tripeaks/infra/pool_check.py) and no other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import psycopg
from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


class DatabaseWrapper(base.DatabaseWrapper):
    # Django's own, which its type stubs do not declare.
    _connection_pools: ClassVar[dict[str, ConnectionPool[Any]]]
    _configure_connection: Callable[[psycopg.Connection[Any]], None]

    @property
    def pool(self) -> ConnectionPool[Any] | None:
        options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not options:
            return None
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            pool = ConnectionPool(
                kwargs={**self.get_connection_params(), "autocommit": True},
                open=False,  # opened by the first connection, as Django's
                configure=self._configure_connection,
                **({} if options is True else options),
            )
            self._connection_pools.setdefault(self.alias, pool)
        return self._connection_pools[self.alias]
