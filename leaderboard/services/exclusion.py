"""Taking a player off every board (staff, from the admin)."""

from __future__ import annotations

import logging

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from leaderboard.models import BOARD_MODES, BoardExclusion, Result
from leaderboard.services.recompute import rebuild_deal
from tripeaks.play.visitors import Visitor

log = logging.getLogger("tripeaks.events")


@transaction.atomic
def remove_player_from_boards(
    *, player: AbstractBaseUser, reason: str = "", by: Visitor | None = None
) -> list[int]:
    """Take a player off every board: hide their runs, rebuild each board deal they were on, and
    keep their future runs off (``BoardExclusion``). Every board's Redis rank set is dropped when
    the one transaction commits, so no cached board shows them a moment longer; their statistics
    stay. Returns the ids of the board deals rebuilt."""
    BoardExclusion.objects.update_or_create(
        player_id=player.pk, defaults={"reason": reason[:200], "excluded_by": by}
    )
    runs = Result.objects.select_for_update().filter(player_id=player.pk, mode__in=BOARD_MODES)
    deal_ids = sorted(set(runs.values_list("deal_id", flat=True)))
    runs.update(hidden=True)
    for deal_id in deal_ids:
        rebuild_deal(deal_id)
    log.warning(
        "player removed from the boards",
        extra={"user": player.pk, "by": getattr(by, "pk", None), "deals": len(deal_ids)},
    )
    return deal_ids
