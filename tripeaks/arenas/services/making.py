"""Arenas made: by hand (staff, tests) or from beat's schedule, one way, checked."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from tripeaks.arenas import schedule
from tripeaks.arenas.models import Arena
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules, RulesError
from tripeaks.play.errors import BadRequest


@transaction.atomic
def create_arena(
    *,
    name: str,
    rules_key: str,
    starts_at: datetime,
    ends_at: datetime,
    layout: str = "classic",
    schedule_key: str = "",
) -> Arena:
    """Make an arena; its rule set, layout and times are checked (BadRequest). A schedule's slot
    (`schedule_key`, `starts_at`: a constraint) is made once: asked again, it is the arena there."""
    try:
        rules = Rules.from_key(rules_key)
        get_layout(layout)
    except (RulesError, ValueError) as error:
        raise BadRequest(str(error)) from None
    if ends_at <= starts_at:
        raise BadRequest("an arena ends after it starts")
    fields = {"name": name, "rules_key": rules.key, "layout": layout, "ends_at": ends_at}
    if not schedule_key:
        return Arena.objects.create(starts_at=starts_at, **fields)
    arena, _ = Arena.objects.get_or_create(
        schedule_key=schedule_key, starts_at=starts_at, defaults=fields
    )
    return arena


def schedule_arenas(*, now: datetime | None = None) -> int:
    """Make the schedule's arenas from the one running now to `schedule.ahead()` ahead, through
    `create_arena`; each slot once, however often this runs. Returns how many it made. A line
    `create_arena` refuses (a layout that does not exist, say) raises BadRequest, as a line
    `schedule.lines` refuses raises ValueError."""
    now = now or timezone.now()
    made = 0
    for line in schedule.lines():
        length = timedelta(seconds=line.length)
        slots = list(schedule.starts(line, now - length, now + schedule.ahead()))
        there = set(
            Arena.objects.filter(schedule_key=line.key, starts_at__in=slots).values_list(
                "starts_at", flat=True
            )
        )
        for starts_at in slots:
            if starts_at in there:
                continue
            create_arena(
                name=line.name,
                rules_key=line.rules,
                layout=line.layout,
                starts_at=starts_at,
                ends_at=starts_at + length,
                schedule_key=line.key,
            )
            made += 1
    return made
