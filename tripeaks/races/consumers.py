"""The race socket (`/ws/races/{id}/`): the race on every change, every player's progress live.

It listens to the race's contest feed (`race-{id}`, tripeaks/infra/contest_feed.py), where the
race's own changes come (`race.changed`, sent after each commit by `broadcast.publish_race`) and
play tells every stored move of the race's games. It sends two kinds of frame:

- `{"type": "race", "race": {...}}`: the race as `GET /api/races/{id}` gives it, with the
  player's own game id in `game`, on connect, on `sync` and on every change of the race;
- `{"type": "progress", "version": n, "player": {...}}`: one player's progress after a move
  (their counts, `seq`, and `stored_at`, the server's clock when the move was stored), a few
  dozen bytes where the whole race was a kilobyte and a half; `version` is the race's the socket
  has shown. Never the socket's own player's: their page shows the others, and their own game
  (its socket) shows their counts.

Never anyone's cards, positions or moves. `race.version` moves on with each change of the race,
each player's `seq` with each of their moves: a client that sees either jump (its own player's
`seq` aside: it hears none of their moves here) sends `{"type": "sync"}` and gets the race read
again from PostgreSQL.

The socket also keeps the race's clock: at `starts_at` (and at `ends_at`) its timer asks the
database to move the race on (`clock.advance_race_clock`, idempotent under the race's row lock,
and skipped by a socket that finds the row locked: its holder moves the race on), as does a Celery
task queued for that instant: whichever comes first begins (or caps) it. Its reads (the opening,
`sync`) only read: a socket that opens after an instant has its timer fire at once.
No race state lives in the process: the socket's copy of the race only shapes its own frames.

While it is open the socket notes its player as at the race (`presence`: every 10 s, with the
server's other race sockets in one round trip, `racers_here.py`; and
once more when it closes) if they are racing in it (a seat still playing while the race runs): a
racer with neither a race socket nor a stored move for 30 s can be claimed against by the others
(`POST /api/races/{id}/claim`, `services.claim_absent`). A watcher's socket (anyone else: the
lobby's races to watch, a racer who gave up) notes nobody, and writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Mapping
from datetime import datetime
from typing import Any, cast
from urllib.parse import parse_qs

import orjson
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import DatabaseError
from django.utils import timezone

from tripeaks.infra import contest_feed, throttle_async, watcher_socket
from tripeaks.infra.socket_dispatch import DirectDispatch
from tripeaks.infra.socket_outage import UNAVAILABLE, read_on_open
from tripeaks.infra.socket_sessions import SessionSocket
from tripeaks.infra.socket_threads import in_a_thread
from tripeaks.play.visitors import Visitor
from tripeaks.races import clock, racers_here, selectors, services
from tripeaks.races.models import contest_of
from tripeaks.races.selectors import RACE_EVENT

log = logging.getLogger("tripeaks.events")

MAX_FRAME = 1024
CLOSE_UNAUTHORIZED = 4401
CLOSE_FLOOD = throttle_async.CLOSE_FLOOD
MAX_THROTTLED_IN_A_ROW = watcher_socket.MAX_THROTTLED_IN_A_ROW
# A frame's own progress fields, as play tells them (tripeaks/play/progress.py).
PROGRESS = selectors.PROGRESS_FIELDS


# How long a socket that moved its race on (or found it moved) waits for the change's broadcast
# before it reads the race itself (the broadcast was lost: the channel layer is at most once).
BROADCAST_GRACE_S = 2.0

# The race's reads and clock run in worker threads (`in_a_thread`), not the process's one sync
# thread: at a race's start and cap every socket of the race calls at once, each waiting on the
# race's row lock, and on the one thread each wait held up every socket of the process (game
# sockets opening, moves on the locked path).


def _read(
    race_id: str, user: Visitor | None = None, code: str | None = None
) -> selectors.RaceEvent | None:
    """The race as its socket shows it, as stored; None if there is none for `user` (when
    given). (A change committed after the read reaches the socket on the feed, which it listens
    to first.)"""
    race = selectors.get_race(race_id)
    if race is None or (user is not None and not services.may_enter(race, user, code)):
        return None
    return selectors.race_event_of(race)


@in_a_thread
def _tick(race_id: str) -> selectors.RaceEvent | None:
    return _read(race_id)


@in_a_thread
def _advance(race_id: str) -> None:
    clock.advance_race_clock(race_id=race_id, wait=False)


# The clock calls in flight, by event loop and race: the race's sockets on this server share one.
_advancing: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[str, asyncio.Future[None]]
] = weakref.WeakKeyDictionary()


def _forget(
    calls: dict[str, asyncio.Future[None]], race_id: str, done: asyncio.Future[None]
) -> None:
    calls.pop(race_id, None)
    if not done.cancelled():
        done.exception()  # retrieved: every waiter may have been cancelled (its timer re-armed)


async def _advance_once(race_id: str) -> None:
    """Move the race on, or wait for the call another socket of this process has made."""
    calls = _advancing.setdefault(asyncio.get_running_loop(), {})
    call = calls.get(race_id)
    if call is None:
        call = calls[race_id] = asyncio.ensure_future(_advance(race_id))
        call.add_done_callback(lambda done: _forget(calls, race_id, done))
    await asyncio.shield(call)


# The last progress made on this server, with what it was made of: a move's news reaches every
# socket of its race on the server in turn, the same dict (contest_feed hands one to each
# listener), and each would derive the same line and the same frame of it (one player's counts
# at the race's version). One tuple, replaced whole.
Shown = tuple[dict[str, object], str]  # the line's new fields, and the frame as JSON text
_last_frame: list[tuple[dict[str, Any] | None, str, int, Shown]] = [(None, "", -1, ({}, ""))]


def progress_of(news: dict[str, Any], name: str, version: int) -> Shown:
    """What `news` (a stored move of `name`'s game) changes of the player's line (its status and
    counts), and the progress frame for a socket that has shown the race at `version`, as JSON
    text: both worked out once for all the race's sockets here."""
    last_news, last_name, last_version, shown = _last_frame[0]
    if last_news is news and last_name == name and last_version == version:
        return shown
    fields: dict[str, object] = {
        "status": "stuck" if news["status"] == "stuck" else "playing",
        **{field: news[field] for field in PROGRESS},
    }
    player = {"username": name, **fields, "stored_at": news.get("stored_at")}
    shown = (
        fields,
        orjson.dumps({"type": "progress", "version": version, "player": player}).decode(),
    )
    _last_frame[0] = (news, name, version, shown)
    return shown


class _SignedOut:
    """The race socket's opening found nobody signed in (and closed it)."""


SIGNED_OUT = _SignedOut()


class RaceConsumer(DirectDispatch, SessionSocket, AsyncWebsocketConsumer):
    # Its user is read in `connect` with its race, in one hop (tripeaks/infra/socket_threads.py).
    reads_own_user = True
    race_id: str
    group: str = ""
    code: str | None = None
    frame: dict[str, Any] | None = None
    users: dict[str, str]
    timer: asyncio.Task[None] | None = None
    noted = False  # among the server's sockets whose racer is noted as here (`racers_here`)
    listening = False
    accepted = False
    cap_at: float | None = None  # the race's `ends_at`, epoch seconds
    # A change of the race heard while the socket was opening, shown once it is open.
    early: dict[str, Any] | None = None

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.flood = throttle_async.FloodGuard(MAX_THROTTLED_IN_A_ROW)

    async def connect(self) -> None:
        self.race_id = str(self.scope["url_route"]["kwargs"]["race_id"])
        if self.signs_nobody_in():
            await self.close(code=CLOSE_UNAUTHORIZED)
            return
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="replace"))
        self.code = (query.get("code") or [None])[0]
        self.group = contest_of(self.race_id)
        self.users = {}
        # Listening before the race is read, so a change committed meanwhile still reaches it.
        await contest_feed.listen(self.group, self.news)
        self.listening = True
        found = await read_on_open(self, self._signed_in_read, leave=self._leave)
        if found is None or found is SIGNED_OUT:
            return  # closed: 4404 or 1013 (read_on_open), or 4401
        event = cast("selectors.RaceEvent", found)
        await self.accept()
        self.accepted = True
        await self._race(event)
        if self.early is not None:
            await self._race(self.early)  # dropped there if the read was newer
        self.noted = True
        user_id = int(self.scope["user"].pk)
        await racers_here.opened(self, racers_here.Racer(self.race_id, user_id, self._racing))

    async def _signed_in_read(self) -> selectors.RaceEvent | _SignedOut | None:
        """The race as the socket first shows it, read with its user in one worker thread's hop
        (`reads_own_user`: the session read once, after joining its group); None when there is
        none for them; `SIGNED_OUT` (the socket closed 4401) when nobody is signed in."""
        signed_in, event = await self.sign_in_reading(
            lambda user: _read(self.race_id, user, self.code)
        )
        if not signed_in:
            await self._leave()
            return SIGNED_OUT
        return event

    async def disconnect(self, code: int) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.noted:
            self.noted = False
            await racers_here.closed(self)  # noted once more: the absence counts from now
        await self.leave_session_groups()
        await self._leave()

    async def _leave(self) -> None:
        if self.listening:
            self.listening = False
            await contest_feed.stop(self.group, self.news)

    def _racing(self) -> bool:
        """Is the socket's player racing in the race as it last showed it: a seat of theirs
        still playing while it runs? (A watcher has no seat: `users` names the seats only.)
        While the socket is open, such a player is at their race: noted every
        `presence.every_s()` with the server's others (`racers_here`), so the others can claim
        against them only once it is closed. A watcher is never noted."""
        frame = self.frame
        if frame is None or frame["state"] != "running":
            return False
        name = self.users.get(str(self.scope["user"].pk))
        return name is not None and any(
            line["username"] == name and line["status"] in ("playing", "stuck")
            for line in frame["players"]
        )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # A page that watches: its frames count against the watcher rates, as a board's do, and
        # a socket that keeps sending over them is closed (4429).
        if not await self.flood.admit(self, throttle_async.watcher_limits(self.scope)):
            return
        if text_data is None or len(text_data) > MAX_FRAME:
            await self._error(f"send JSON text frames of at most {MAX_FRAME} characters")
            return
        try:
            message = orjson.loads(text_data)
        except ValueError:
            await self._error("a message must be JSON")
            return
        if not isinstance(message, dict) or message.get("type") != "sync":
            await self._error('the race socket takes {"type": "sync"} only')
            return
        await self._resync()

    async def _resync(self) -> None:
        try:
            event = await _tick(self.race_id)
        except DatabaseError:
            await self._error(UNAVAILABLE, "unavailable")
            return
        if event is not None:
            await self._race(event)

    # ------------------------------------------------------------------ the race's feed
    async def news(self, news: dict[str, Any]) -> None:
        """The race's feed: a change of the race (`broadcast.publish_race`), or a stored move of
        one of its games (tripeaks/play/progress.py)."""
        if news.get("type") != RACE_EVENT:
            await self.progress(news)
        elif self.accepted:
            await self._race(news)
        elif self.early is None or news["race"]["version"] > self.early["race"]["version"]:
            self.early = news  # nothing may be sent before the accept: the newest change waits

    async def progress(self, news: dict[str, Any]) -> None:
        """A stored move of one of the race's games: that player's counts, to every socket but
        the mover's own (its page shows the others; its own counts come on its game socket)."""
        frame = self.frame
        if frame is None or frame["state"] != "running":
            return
        if news.get("player") == self.scope["user"].pk:
            self._end_if_capped()
            return
        name = self.users.get(str(news.get("player")))
        line = next((p for p in frame["players"] if p["username"] == name), None)
        if line is None or line["status"] not in ("playing", "stuck"):
            return
        if line["seq"] is not None and news["seq"] <= line["seq"]:
            return  # older than what this socket has shown
        fields, text = progress_of(news, line["username"], frame["version"])
        line.update(fields)
        await self._send_text(text)
        self._end_if_capped()

    def _end_if_capped(self) -> None:
        capped = self.cap_at is not None and time.time() >= self.cap_at
        if capped and (self.timer is None or self.timer.done()):
            # A move after the cap: the race ends now. Not awaited here: the feed hands the news
            # to every socket of the process in turn, and this reads the database.
            self.timer = asyncio.ensure_future(self._wake(0))

    async def _race(self, event: dict[str, Any]) -> None:
        # A copy of its own: the channel layer hands one message to every consumer of a process.
        race = dict(event["race"], players=[dict(line) for line in event["race"]["players"]])
        shown = self.frame
        if shown is not None and race["version"] < shown["version"]:
            return  # an older change than the one shown
        if shown is not None and race["state"] == "running":
            # Read before a move whose progress this socket has already shown: keep the newer.
            before = {line["username"]: line for line in shown["players"]}
            for line in race["players"]:
                old = before.get(line["username"])
                newer = (
                    old is not None and old["seq"] is not None and (line["seq"] or 0) < old["seq"]
                )
                if newer and old is not None and line["status"] in ("playing", "stuck"):
                    line.update({field: old[field] for field in PROGRESS}, status=old["status"])
        self.users = event.get("users", {})
        race["game"] = event.get("games", {}).get(str(self.scope["user"].pk))
        self.frame = race
        ends_at = race.get("ends_at")
        # As a number: every progress of the race compares it with the clock.
        self.cap_at = datetime.fromisoformat(ends_at).timestamp() if ends_at else None
        await self._send({"type": "race", "race": race})
        self._arm(race)

    def _arm(self, race: dict[str, Any]) -> None:
        """Wake at the race's next instant (its start, its cap) to move it on. A wake that is
        waiting for its change's broadcast ends here: the change came."""
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer = None
        at = {"countdown": race.get("starts_at"), "running": race.get("ends_at")}.get(race["state"])
        if at:
            delay = (datetime.fromisoformat(at) - timezone.now()).total_seconds()
            self.timer = asyncio.ensure_future(self._wake(max(0.05, delay)))

    async def _wake(self, delay: float) -> None:
        """At the race's instant, move it on; the change comes back as every socket of the race
        hears it (`race.changed`, from whichever caller made it), so no socket reads the race
        here: a thousand sockets reading their races at one start instant queued the servers.
        Read only if no change came within `BROADCAST_GRACE_S`."""
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(delay + 0.01)
            shown = self.frame
            try:
                await _advance_once(self.race_id)
            except DatabaseError:
                await self._error(UNAVAILABLE, "unavailable")
            await asyncio.sleep(BROADCAST_GRACE_S)
            if self.frame is shown:
                await self._resync()

    async def _error(self, detail: str, code: str = "invalid") -> None:
        await self._send({"type": "error", "detail": detail, "code": code})

    async def _send(self, message: Mapping[str, object]) -> None:
        await self._send_text(orjson.dumps(message).decode())

    async def _send_text(self, text: str) -> None:
        # Straight to the server (AsyncWebsocketConsumer.send builds the same message).
        await self.base_send({"type": "websocket.send", "text": text})
