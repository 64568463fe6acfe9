"""Clocks whose server died stop: the write behind the clock's heartbeat (play/clock_presence.py).

`sweep_lapsed_clocks` (Celery beat, every `heartbeat_s()` x 2) finds the games whose last beat
lapsed; each whose clock still runs is stopped by `stop_lapsed_clock`, under the game's row lock,
at its last beat plus one beat interval (never later than now): the time the cards may still
have been on a live screen, and not a moment of the dead server's silence after it. The entry is
then dropped, unless a server beat for the game meanwhile. A socket that opens on a lapsed game
before the sweep comes stops its clock the same way first (`shown_here`).

A game played over REST with no socket is noted by its player's requests instead of a server's
beats (`shown_by_request`, from play/api.py): the same entry, the same sweep, the same stop; a
REST move notes its beat before it is made, and on a lapsed game stops its clock first
(`beat_of_a_move`, one Redis command when not lapsed), as a socket's opening does.

The stop writes what `services.hide_game` writes (`recorder.bank_clock`: two columns, the seq
unchanged), and, like it, leaves a contest's, a paused and a finished game alone.
"""

from __future__ import annotations

import functools
import logging
from datetime import UTC, datetime

import redis
from django.db import DatabaseError, transaction
from django.utils import timezone

from tripeaks.infra.socket_threads import in_a_thread
from tripeaks.play import clock_presence, recorder
from tripeaks.play.models import Game

log = logging.getLogger("tripeaks.events")


def _runs_unseen(game: Game) -> bool:
    """A clock the heartbeat may stop: a solo game's, running, not paused, not over."""
    return (
        not game.contest
        and game.running_since is not None
        and not game.paused
        and not game.finished
    )


@transaction.atomic
def stop_lapsed_clock(*, game_id: str, beat: float, renewed_here: bool = False) -> bool:
    """Stop the clock of the game whose last beat was `beat` (epoch s), charged up to one beat
    interval after it; whether it was stopped. Nothing is done if a server beat for the game
    since (read under the row lock: a socket that opens notes the game before it reads it),
    unless `renewed_here` (that beat is the caller's own socket, opening), nor if the clock
    started after that interval (a move started it since, and noted it then). A REST move calls
    it on its player's game, whose row it holds locked already (`beat_of_a_move`)."""
    game = Game.objects.select_for_update(of=("self",)).filter(pk=game_id).first()
    if game is None or game.running_since is None or not _runs_unseen(game):
        return False
    if not renewed_here:
        again = clock_presence.last_beat(game_id)
        if again is not None and again > beat:
            return False
    until = datetime.fromtimestamp(beat + clock_presence.heartbeat_s(), tz=UTC)
    if game.running_since > until:
        return False
    recorder.bank_clock(game, min(timezone.now(), until))
    log.info("a clock stopped: its server's beat lapsed", extra={"game": game_id})
    return True


def sweep_lapsed_clocks() -> int:
    """Stop every running clock whose server's beat lapsed; how many. No lapsed entry (an idle
    stack, or every screen on a live server): one Redis command, no query."""
    try:
        lapsed = clock_presence.lapsed()
    except Exception:
        log.warning("could not read the shown games", exc_info=True)
        return 0
    if not lapsed:
        return 0
    running = Game.objects.filter(
        pk__in=list(lapsed),
        contest="",
        running_since__isnull=False,
        paused=False,
        finished_at__isnull=True,
    ).values_list("pk", flat=True)
    stopped = sum(
        stop_lapsed_clock(game_id=str(game_id), beat=lapsed[str(game_id)]) for game_id in running
    )
    clock_presence.forget(lapsed)
    return stopped


def beat_of_a_move(game: Game) -> bool:
    """A REST move of its player on `game`, whose row the caller holds locked
    (`services.apply_move`): its request is the game's beat, noted before the move in ONE Redis
    command (`clock_presence.note_request`: the beat set unless it lapsed). A beat that had
    lapsed (its last request or socket is over three beats old, and the sweep has not come yet)
    is answered instead: the clock stops at that beat plus one interval first, as a socket's
    opening stops it (`shown_here`), the move then starts it again, logged as a resume, and its
    commit notes the beat (a second command, only then). A refused move rolls the stop back and
    leaves the lapsed beat to the sweep. Whether the clock was stopped (the row changed)."""
    if game.contest or game.finished:
        return False
    game_id = str(game.pk)
    try:
        beat = clock_presence.note_request(game_id)
    except redis.RedisError:  # the clock runs as it did before the heartbeat
        log.warning("could not note a game shown over REST", extra={"game": game_id})
        return False
    if beat is None:
        return False
    transaction.on_commit(functools.partial(shown_by_request, game_id))
    return stop_lapsed_clock(game_id=game_id, beat=beat)


def shown_by_request(game_id: str, *, read: bool = False) -> None:
    """A REST request of the game's player shows its cards now (its start, a read: play/api.py;
    a move stored after a lapse, `beat_of_a_move`): noted as the game's beat, as a server beats
    for its sockets. A read renews no lapsed beat (`clock_presence.note_request`): that clock is
    the sweep's to stop (reads never write a game)."""
    try:
        if read:
            clock_presence.note_request(game_id)
        else:
            clock_presence.note(game_id)
    except redis.RedisError:
        log.warning("could not note a game shown over REST", extra={"game": game_id})


_stop_in_a_thread = in_a_thread(stop_lapsed_clock)


async def shown_here(game_id: str) -> None:
    """A game socket of this server opens on the game (before it reads it: `clock_presence.hold`).
    A clock left running by a dead server whose beat lapsed stops at that beat first; the
    socket's opening then starts it again (`services.show_game`), logged as a resume."""
    lapsed = await clock_presence.hold(game_id)
    if lapsed is None:
        return
    try:
        await _stop_in_a_thread(game_id=game_id, beat=lapsed, renewed_here=True)
    except DatabaseError:  # the socket's own read says so; the clock runs on, as before
        log.warning("could not stop a lapsed game's clock", extra={"game": game_id})
