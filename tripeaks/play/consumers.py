"""The game WebSocket: the same service and answers as the REST moves endpoint, plus sync, and
the start of the player's next game on the same socket. An open socket is a screen showing its
game: a solo game's clock stops when its last socket closes (play/screens.py)."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import orjson
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import DatabaseError
from django.utils.functional import LazyObject

from tripeaks.engine.rules import Rules
from tripeaks.infra import throttle_async, throttling
from tripeaks.infra.api_errors import refusal_frame
from tripeaks.infra.json_types import JSONObject
from tripeaks.infra.socket_dispatch import DirectDispatch
from tripeaks.infra.socket_outage import CLOSE_NOT_FOUND, UNAVAILABLE, read_on_open
from tripeaks.infra.socket_sessions import SessionSocket
from tripeaks.play import clock_presence, clock_sweep, steps
from tripeaks.play.broadcast import (
    GreetingEvent,
    PeerEvent,
    ViewEvent,
    announce_peer,
    game_group,
    greet_peer,
    send_view,
)
from tripeaks.play.errors import PlayError
from tripeaks.play.models import Source
from tripeaks.play.payloads import ViewPayload, view_seq
from tripeaks.play.serializers import (
    MoveInput,
    MoveSerializer,
    StartGameInput,
    StartGameSerializer,
)
from tripeaks.play.socket_moves import SocketGame, game_full, opening_on

log = logging.getLogger("tripeaks.events")

MAX_FRAME = 4096
CLOSE_UNAUTHORIZED = 4401
# The game, the account or the address has all the game sockets it may have open.
CLOSE_TOO_MANY = 4409
CLOSE_FLOOD = throttle_async.CLOSE_FLOOD
# Frames refused in a row for going over the move rate before the socket is closed as a flood.
MAX_THROTTLED_IN_A_ROW = 50


def _first_error(detail: object) -> str:
    if isinstance(detail, dict):
        field, errors = next(iter(detail.items()))
        return f"{field}: {_first_error(errors)}"
    if isinstance(detail, list) and detail:
        return _first_error(detail[0])
    return str(detail)


def _resolved(user: AbstractBaseUser) -> AbstractBaseUser:
    """The user behind the scope's lazy object, which the handshake resolved: every move reads
    the user, and each read through the proxy cost a method hop (a debug line of a move: 15 us
    through the proxy, 6.5 us without)."""
    if not isinstance(user, LazyObject):  # (a test's scope may hold the user itself)
        return user
    wrapped = getattr(user, "_wrapped", None)
    return wrapped if isinstance(wrapped, AbstractBaseUser) else user


def _plain_move(message: JSONObject) -> MoveInput | None:
    """A well-formed move as the serializer would pass it, or None to let the serializer word
    what is wrong. Nearly every frame is well formed: checking it here costs a fraction of DRF."""
    seq, action, position = message.get("seq"), message.get("action"), message.get("position")
    if len(message) > 3 or type(seq) is not int or seq < 0:
        return None
    if type(action) is not str or action not in steps.ACTIONS:  # (a list is unhashable)
        return None
    if action == "play" and (type(position) is not int or not 0 <= position <= 51):
        return None
    if position is not None and (type(position) is not int or not 0 <= position <= 51):
        return None
    return {"seq": seq, "action": action, "position": position}


def _plain_start(message: JSONObject) -> StartGameInput | None:
    """A plain start (`{"type": "new", "mode": "daily" | "random"}`, the classic layout and the
    usual rules) as the serializer would pass it, or None to let the serializer look (a numbered
    or custom deal, rules, a layout, anything else)."""
    mode = message.get("mode")
    if len(message) != 2 or not isinstance(mode, str) or mode not in (Source.DAILY, Source.RANDOM):
        return None
    return {"mode": mode, "layout": "classic", "rules": Rules()}


class GameConsumer(DirectDispatch, SessionSocket, AsyncWebsocketConsumer):
    # Its user is read in `connect` (tripeaks/infra/socket_threads.py), after the game's cap.
    reads_own_user = True
    # Its player's group joined with its game's, once counted (`_enter_game`): one round trip.
    joins_player_group_itself = True
    game_id: str
    group: str
    moves: SocketGame
    # The newest seq this socket has been sent: a broadcast of a move it already answered is dropped.
    seen_seq = -1
    last_view: ViewPayload | None = None
    # Whether another socket has the game open; alone, a socket has nobody to tell of its moves.
    peers = False
    # Whether the socket was refused as it opened (closed 4401 or 4409 at once).
    refused = False
    # Whether it was let in (signed in and counted): only then does it read its channel.
    admitted = False
    # Whether this server beats for the socket's game (play/clock_presence.py).
    beating = False

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.flood = throttle_async.FloodGuard(MAX_THROTTLED_IN_A_ROW)
        # The socket's limits by kind: its player and address never change.
        self.limits: dict[str, list[throttling.Limit]] = {}

    async def connect(self) -> None:
        self.game_id = str(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = game_group(self.game_id)
        if self.signs_nobody_in():
            await self._refuse(CLOSE_UNAUTHORIZED)
            return
        if not await self._admitted():
            return
        # In the game's group before the game is read, so a move stored meanwhile reaches this
        # socket; announced once it is read, with what it read (`_announce`).
        await self._enter_game()
        # A live server shows the game (the clock's heartbeat), noted before the game is read.
        await clock_sweep.shown_here(self.game_id)
        self.beating = True
        # The cards go on screen: a clock stopped because no screen showed them starts again.
        view = await read_on_open(self, self.moves.show, leave=self._leave_game)
        if view is None:
            return
        await self.accept()
        await self._send({"type": "view", "game": view})
        await self._announce()

    async def _admitted(self) -> bool:
        """Signed in and counted for its game, account and address; else refused, and False."""
        # A socket over its game's cap is refused with no database work and in no group: at
        # once in a burst of opens on this server, else after one Redis call.
        with opening_on(self.game_id) as room:
            if not room or await game_full(self.game_id):
                await self._refuse(CLOSE_TOO_MANY)
                return False
            # The user is read here (`reads_own_user`), in the session's group: signing out
            # closes this socket (tripeaks/infra/socket_sessions.py).
            if not await self.join_session_groups():
                return False
            user = self.scope["user"]
            if not user.is_authenticated:
                await self._refuse(CLOSE_UNAUTHORIZED)
                return False
            client = self.scope.get("client") or [None]
            self.moves = SocketGame(self.game_id, _resolved(user), self.channel_name, client[0])
            # Counted for its game, account and address, or for none of them when one is full.
            if not await self.moves.admit():
                await self.leave_session_groups()
                await self._refuse(CLOSE_TOO_MANY)
                return False
        self.admitted = True
        return True

    def hears_events(self) -> bool:
        """Its channel-layer events are read once it is let in (`DirectDispatch`): a socket
        refused as it opens never reads its channel. Half a flood's first opens that reach this
        consumer (5 of the 10 its address's rate allows) are refused over the game's cap; each
        read its channel until it closed, their share of the layer's receive (its tasks, and a
        Redis connection dropped and made again when the one waiting in the blocking pop was
        among them). Events sent to it meanwhile wait in the layer; none could be handled
        before its opening ended anyway (the opening holds the socket's turn)."""
        return self.admitted

    async def _refuse(self, code: int) -> None:
        """Closed as it opens, counted nowhere, in no group: signed out (4401) or over a cap
        (4409)."""
        self.refused = True
        if code == CLOSE_TOO_MANY:
            # Accepted first, so that the page hears why: it stops reconnecting and says so.
            await self.accept()
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        if self.refused:
            return  # counted nowhere, in no group
        await self.leave_session_groups(self.group)  # and the game's, in the same round trip
        if self.beating:
            clock_presence.let_go(self.game_id)
        if hasattr(self, "moves"):
            try:
                await self.moves.hide()  # the last screen gone: the clock stops
            except DatabaseError:  # the clock then runs on, as it did before screens counted
                log.warning("could not stop a game's clock", extra={"game": self.game_id})

    async def _enter_game(self, leaving: str | None = None) -> None:
        """In the game's group, with `peers` if the group holds another socket. A socket alone in
        the group (nearly every one: a tab a game) has nobody to announce itself to: the
        announcement came back to it alone, four Redis round trips and a frame for nothing. Of two
        sockets joining at once, the later to count the group counts both, and announces.
        `leaving`: the group of the game the socket showed until now, left in the same trip."""
        also = self.player_group_to_join()  # (as the socket opens)
        joined = await self.channel_layer.group_join(
            self.group, self.channel_name, *also, leaving=(leaving,) if leaving else ()
        )
        self.peers = joined > 1

    async def _announce(self) -> None:
        """Told to the game's other sockets (`game_peer`), with the newest seq this socket has:
        only one that has sent a newer view answers (`greet_peer`). The answers to every
        announcement were most of a flood's opening burst: five sockets opening a game at once
        sent ten greetings, each four Redis round trips to send and four to receive."""
        if self.peers:
            await announce_peer(self.game_id, self.channel_name, self.seen_seq)

    async def _leave_game(self) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def websocket_receive(self, message: Mapping[str, object]) -> None:
        """A frame. Channels' own handler only handed its text or bytes on to `receive`: one
        coroutine more under every move, suspended and resumed with it while it waits for its
        write; so were the flood count's and the screen's renewal, which nearly every frame
        passes with nothing to wait for."""
        # Every frame counts against the player's move rate, junk included.
        wait = self.flood.count(self._limits())
        if wait is not None:
            await self.flood.refuse(self, wait)
            return
        text, data = message.get("text"), message.get("bytes")
        try:
            if self.moves.renewal_due():
                await self.moves.renew()
            await self._receive(
                text if isinstance(text, str) else None, data if isinstance(data, bytes) else None
            )
        except DatabaseError:
            # The database is unreachable (restarting): say so; the client retries with its seq.
            await self._error(UNAVAILABLE, code="unavailable")

    def _limits(self, kind: str = "move") -> list[throttling.Limit]:
        """The player's and the address's limits of `kind`, made once a socket (12-17 us a
        frame when made for each)."""
        found = self.limits.get(kind)
        if found is None:
            client = self.scope.get("client") or [None]
            found = self.limits[kind] = throttling.play_limits(
                kind, user_id=self.scope["user"].pk, address=client[0] if client else None
            )
        return found

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        if text_data is None:
            await self._error("send JSON text frames, not binary")
            return
        if len(text_data) > MAX_FRAME:
            await self._error(f"a message may be at most {MAX_FRAME} characters")
            return
        try:
            message = orjson.loads(text_data)
        except ValueError:
            await self._error("a message must be JSON")
            return
        if not isinstance(message, dict):
            await self._error("a message must be a JSON object")
            return
        if message.get("type") == "sync":
            view = await self.moves.sync()
            if view is None:
                await self.close(code=CLOSE_NOT_FOUND)
                return
            await self._send({"type": "view", "game": view})
            return
        if message.get("type") == "new":
            await self._new_game(message)
            return
        await self._move(message)

    async def _new_game(self, message: JSONObject) -> None:
        """The player's next game, as POST /api/games starts it; the socket then belongs to it."""
        request = _plain_start(message)
        if request is None:
            fields = {k: v for k, v in message.items() if k != "type"}
            serializer = StartGameSerializer(data=fields)
            if not serializer.is_valid():
                await self._error(_first_error(serializer.errors), code="invalid")
                return
            request = serializer.validated_data
        wait = await throttle_async.check_async(self._limits("game_start"))
        if wait is not None:
            await self._send(throttle_async.throttled("new games", wait))
            return
        try:
            moves, view = await self.moves.start(request, self.scope)
        except PlayError as error:  # pool_empty says how long to wait, as over REST
            await self._send(refusal_frame(error))
            return
        clock_presence.let_go(self.game_id)
        clock_presence.hold_noted(moves.game_id)  # noted as it started (`note_started`)
        left = self.group
        self.moves, self.game_id = moves, moves.game_id
        self.group = game_group(self.game_id)
        self.seen_seq, self.last_view, self.peers = -1, None, False
        await self._enter_game(leaving=left)  # out of the old game's group in the same trip
        await self._announce()
        await self._send({"type": "started", "game": view})
        await self.moves.send_board_updates()

    async def _move(self, message: JSONObject) -> None:
        data = _plain_move(message)
        if data is None:
            serializer = MoveSerializer(data=message)
            if not serializer.is_valid():
                await self._error(_first_error(serializer.errors), code="invalid")
                return
            data = serializer.validated_data
        try:
            outcome = await self.moves.move(
                seq=data["seq"], action=data["action"], position=data.get("position")
            )
        except PlayError as error:
            await self._send(refusal_frame(error))
            return
        reply: dict[str, object] = {"type": "view", "game": outcome.view}
        if outcome.hint is not None:
            reply["hint"] = outcome.hint
        if outcome.replayed:
            reply["replayed"] = True
        await self._send(reply)
        if self.peers and not outcome.replayed:
            await send_view(self.game_id, outcome.view)
        if self.moves.board_updates:  # (a game's end: nearly every move has none to send)
            await self.moves.send_board_updates()

    async def game_view(self, event: ViewEvent) -> None:
        """A move made elsewhere (another tab, the REST API) on this game."""
        await self._show_view(event["view"])

    async def _show_view(self, view: ViewPayload) -> None:
        if view_seq(view) > self.seen_seq:
            await self._send({"type": "view", "game": view})

    async def game_peer(self, event: PeerEvent) -> None:
        """Another socket opened this game: from now on tell it of every move, starting with the
        newest this socket knows if the newcomer read an older one (a move stored after its read,
        before this socket heard of it). (An announcement with no seq: an older server's.)"""
        if event["channel"] == self.channel_name:
            return
        self.peers = True
        if self.seen_seq > event.get("seq", -1):
            await greet_peer(event["channel"], self.last_view)

    async def game_greeting(self, event: GreetingEvent) -> None:
        """A socket that already had the game open answers this one's announcement."""
        self.peers = True
        if event["view"] is not None:
            await self._show_view(event["view"])

    async def _error(self, detail: str, code: str = "bad_message") -> None:
        """A frame the socket itself refuses (no service saw it); a service's refusal is
        `refusal_frame`'s, as REST's is `refusal_response`'s."""
        await self._send({"type": "error", "detail": detail, "code": code})

    async def _send(self, body: Mapping[str, object]) -> None:
        view = body.get("game")
        if isinstance(view, dict):
            seq = view_seq(view)
            if seq > self.seen_seq:
                self.last_view = view
            self.seen_seq = max(self.seen_seq, seq)
        # Straight to the server's send (`DirectDispatch.frame_send`): `AsyncWebsocketConsumer.send`
        # only wraps the text in this.
        await self.frame_send({"type": "websocket.send", "text": orjson.dumps(body).decode()})
