"""DRF's token authentication, the token and its user read with one plain statement.

DRF reads them through the ORM (`select_related("user").get(key=...)`), the query built and
compiled for every API request that carries a token, as Django's session reads were
(tripeaks/infra/session_users.py). The answers are DRF's: an unknown key, an inactive user.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connections, router
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from tripeaks.infra.model_rows import columns


def token_row(key: str) -> tuple[Token, AbstractBaseUser] | None:
    """The token `key` with its user (cached on it, as `select_related` caches it), or None."""
    users = get_user_model()
    alias = router.db_for_read(Token)
    quote = connections[alias].ops.quote_name
    token_columns, token_names = columns(Token, "t")
    user_columns, user_names = columns(users, "u")
    statement = (
        f"SELECT {token_columns}, {user_columns} FROM {quote(Token._meta.db_table)} t"
        f" JOIN {quote(users._meta.db_table)} u"
        f" ON u.{quote(users._meta.pk.column)} = t.{quote(Token._meta.get_field('user').column)}"
        f" WHERE t.{quote(Token._meta.pk.column)} = %s"
    )
    with connections[alias].cursor() as cursor:
        cursor.execute(statement, [key])
        row = cursor.fetchone()
    if row is None:
        return None
    token = Token.from_db(alias, token_names, row[: len(token_names)])
    user: AbstractBaseUser = users.from_db(alias, user_names, row[len(token_names) :])
    token.user = user
    return token, user


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's `TokenAuthentication`, its token read by `token_row`."""

    def authenticate_credentials(self, key: str) -> tuple[AbstractBaseUser, Token]:
        found = token_row(key)
        if found is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token, user = found
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, token
