"""What accounts tell the contest apps about a player, without either importing the other.

`player_leaving` is sent inside the transaction that deletes an account (`accounts.deletion`),
before the user row is changed, with `user`: races and arenas take the player out of every seat,
queue and arena they are in, so their writes commit with the deletion or not at all.
"""

from __future__ import annotations

from django.dispatch import Signal

player_leaving = Signal()
