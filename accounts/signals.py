"""Signals of accounts.

``access_ended``: sent after the transaction that ended some of a player's sessions or API
tokens commits (password change or reset, "end this session", "end all others", account
deletion, idle guest removal). Arguments: ``user_id``, ``session_keys`` and ``token_keys`` (lists
of the ended keys). The sockets opened with those credentials are still open at that point:
``accounts.socket_receivers`` closes them.
"""

from __future__ import annotations

from django.dispatch import Signal

access_ended = Signal()
