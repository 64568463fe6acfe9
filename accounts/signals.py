"""Signals of accounts.

``access_ended``: sent after the transaction that ended some of a player's sessions or API
tokens commits (password change or reset, "end this session", "end all others", account
deletion, idle guest removal). Arguments: ``user_id``, ``session_keys`` and ``token_keys`` (lists
of the ended keys). The sockets opened with those credentials are still open at that point:
whoever closes sockets connects a receiver here (the lead wires harden's socket closing to it).
"""

from __future__ import annotations

from django.dispatch import Signal

access_ended = Signal()
