"""Moves from a game socket: worked out on the socket's copy of its game, stored by group commit.

A socket keeps its game (row and engine state) in memory between moves. A plain move (play, draw,
undo, restart) on a running game is worked out on that copy by the same `steps.advance` as every
other write path, into a step that leaves the copy as it was, and handed to the move writer, which
has the recorder store it with other sockets' moves only if the game is still at the seq the copy
was at (the group commit). A move that ends the game (a resignation, or a play or draw that wins
or loses it) is worked out on the copy too, and stored by the recorder with its result (which goes
to the leaderboard) from a worker thread, if the row is still at the copy's seq
(`services.finish_copy`). Once stored, the step's game is the socket's copy. A move after a contest game's
deadline is refused from the copy (`time_up`: the deadline never moves). Everything else
takes `services.apply_move` with the game row locked: hints (the solver), pause and resume, a move
on a paused game, a seq that is not the copy's (a retry or a conflict), a move the copy refuses
(it may be stale), and any move whose game moved on elsewhere. The copy is then read again.

A socket can also start the player's next game (`new`): it then belongs to that game, with no new
request or socket.

A socket is one screen showing its game (`play/screens.py`): opening counts it and starts a solo
game's clock if no screen had it (`services.show_game`), closing uncounts it and stops the clock
if it was the last (`services.hide_game`). A copy whose clock is stopped takes the locked path,
which starts it.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict
from uuid import UUID

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

from leaderboard import live as live_board
from tripeaks.engine import game as engine
from tripeaks.infra import socket_caps
from tripeaks.infra.devices import scope_device
from tripeaks.infra.socket_threads import in_a_thread
from tripeaks.play import clock_presence, move_writer, screens, services, steps
from tripeaks.play.errors import PlayError, TimeUp
from tripeaks.play.models import Game
from tripeaks.play.payloads import ViewPayload, game_payload
from tripeaks.play.progress import send_progress
from tripeaks.play.serializers import MoveInput, StartGameInput

# Worked out on the copy: every action but hints (the solver) and pause and resume.
COPY_ACTIONS = frozenset({"play", "draw", "undo", "restart", "resign"})


class Origin(TypedDict):
    """Where a game is started from (fair play): the device cookie and the address."""

    device: str
    address: str | None


@dataclass(frozen=True)
class LiveGame:
    game: Game
    state: engine.State


@dataclass(frozen=True)
class _GameRead:
    """The ORM's read of a player's game with its deal and player, compiled once a process: its
    statement, the converters of its columns, and the models its row is made of."""

    sql: str
    converters: Mapping[int, tuple[list[Any], Any]]
    klass_info: Mapping[str, Any]

    def rows_game(self, row: tuple[Any, ...], db: str) -> Game:
        """The game (its deal and player cached on it) as the ORM's `ModelIterable` makes it."""
        values = list(row)
        for index, (converters, expression) in self.converters.items():
            for convert in converters:
                values[index] = convert(values[index], expression, connections[db])
        game = self._made(self.klass_info, values, db)
        for related in self.klass_info["related_klass_infos"]:
            related["local_setter"](game, self._made(related, values, db))
        assert isinstance(game, Game)
        return game

    @staticmethod
    def _made(info: Mapping[str, Any], values: list[Any], db: str) -> Any:
        fields = info["select_fields"]
        model = info["model"]
        names = [field.attname for field in model._meta.concrete_fields]
        return model.from_db(db, names, values[fields[0] : fields[-1] + 1])


@functools.cache
def _game_read() -> _GameRead:
    games = Game.objects.select_related("deal", "player")
    query = games.filter(pk=UUID(int=0), player_id=0)[:1].query
    compiler = query.get_compiler(DEFAULT_DB_ALIAS)
    sql, params = compiler.as_sql()
    assert len(params) == 2  # the game's id and the player's, in that order
    converters = compiler.get_converters([column for column, *_ in compiler.select])
    return _GameRead(sql, converters, compiler.klass_info)


def load_live_game(game_id: str, user: AbstractBaseUser) -> LiveGame | None:
    """The player's game (its deal and player too: a finish worked out on the copy names them in
    the board's live update) and its state, or None. The ORM's read compiled once (`_game_read`):
    compiling it again at each read cost 0.4 of its 1.0 ms of CPU (bench/README.md, "Stop 48: a
    game socket's opening")."""
    read = _game_read()
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(read.sql, (UUID(str(game_id)), user.pk))
        row = cursor.fetchone()
    if row is None:
        return None
    game = read.rows_game(row, DEFAULT_DB_ALIAS)
    return LiveGame(game, services.load_game_state(game))


@in_a_thread
def _open(game_id: str, user: AbstractBaseUser) -> tuple[LiveGame | None, ViewPayload | None]:
    live = load_live_game(game_id, user)
    if live is None:
        return None, None
    return live, game_payload(live.game, live.state, timezone.now())


@in_a_thread
def _show(
    game_id: str, user: AbstractBaseUser, screen: str
) -> tuple[LiveGame | None, ViewPayload | None]:
    """The socket `screen`, counted among the game's screens already (`SocketGame.admit`), shows
    the game from now on: the game read, its clock started again (under the game's lock) if no
    screen had it."""
    live = load_live_game(game_id, user)
    if live is None:
        screens.gone(game_id, screen)  # not the player's game: no screen of it
        return None, None
    if not live.game.contest and services.unwatched(live.game):
        shown = services.show_game(game_id=game_id, user=user)  # read again, under its lock
        if shown is None:
            return None, None
        live = LiveGame(*shown)
    return live, game_payload(live.game, live.state, timezone.now())


_hide_game = in_a_thread(services.hide_game)


def socket_holders(game_id: str, user_id: int, address: str | None) -> list[tuple[str, int]]:
    """What a game socket counts against, with each one's cap: its game (a handful of tabs), its
    account and its address (a few dozen sockets each). The game's comes first."""
    holders = [
        (screens.key(game_id), settings.SOCKETS_PER_GAME),
        (socket_caps.holder("account", user_id), settings.SOCKETS_PER_ACCOUNT),
    ]
    if address:
        holders.append((socket_caps.holder("address", address), settings.SOCKETS_PER_ADDRESS))
    return holders


def opening_on(game_id: str) -> contextlib.AbstractContextManager[bool]:
    """A socket being opened on the game (`socket_caps.opening`, with the game's cap): False when
    as many as the game may have are being opened in this process already."""
    return socket_caps.opening(screens.key(game_id), settings.SOCKETS_PER_GAME)


async def game_full(game_id: str) -> bool:
    """Whether the game has all the sockets it may have open, by one Redis call: a socket over
    the cap is refused before its user is read. (`SocketGame.admit` counts it, or not, after.)"""
    cap = settings.SOCKETS_PER_GAME
    count = await socket_caps.open_count_async(screens.key(game_id)) if cap else None
    return count is not None and count >= cap


@in_a_thread
def _locked_move(
    game_id: str, user: AbstractBaseUser, move: MoveInput
) -> tuple[services.MoveOutcome | PlayError, LiveGame | None, list[live_board.Send]]:
    """The move on the locked path, the game as it now stands (read again after a refusal: the
    copy that was refused may have been stale), and the live board updates it made."""
    with live_board.held_sends() as board_updates:
        try:
            outcome = services.apply_move(game_id=game_id, user=user, broadcast=False, **move)
        except PlayError as error:
            return error, load_live_game(game_id, user), []
    assert outcome.game is not None and outcome.state is not None
    return outcome, LiveGame(outcome.game, outcome.state), board_updates


@in_a_thread
def _finish_copy(
    game: Game, step: steps.Step, now: datetime
) -> tuple[services.MoveOutcome | None, list[live_board.Send]]:
    with live_board.held_sends() as board_updates:
        outcome = services.finish_copy(game=game, step=step, now=now)
    return outcome, board_updates


@in_a_thread
def _start(
    user: AbstractBaseUser,
    request: StartGameInput,
    origin: Origin,
    screen: str,
    leaving: str,
) -> tuple[LiveGame, list[live_board.Send]]:
    """A new game for the player (resigning their unfinished one), and the live board updates
    the resignation made; the socket `screen` shows it instead of the game it is `leaving`."""
    with live_board.held_sends() as board_updates:
        game = services.start_requested_game(user, request, **origin)
    screens.moved(leaving, game.pk, screen)
    clock_presence.note_started(str(game.pk))  # shown from now on (the socket counts it)
    return LiveGame(game, services.load_game_state(game)), board_updates


class SocketGame:
    """One socket's game: its moves, and the copy they are worked out on."""

    def __init__(
        self, game_id: str, user: AbstractBaseUser, screen: str, address: str | None = None
    ) -> None:
        self.game_id = game_id
        self.user = user
        # The socket's name among the game's screens (play/screens.py), and when to renew it.
        self.screen = screen
        self.address = address
        self.holders = socket_holders(game_id, user.pk, address)
        self.admitted = False
        self.renew_at = time.monotonic() + screens.RENEW_S
        self.live: LiveGame | None = None
        # Live board updates of the last move, for the socket to send once it has answered.
        self.board_updates: list[live_board.Send] = []

    async def move(self, *, seq: int, action: str, position: int | None) -> services.MoveOutcome:
        outcome = None
        if self.live is not None and action in COPY_ACTIONS:
            outcome = await self._grouped(self.live, seq, action, position)
        if outcome is None:
            outcome = await self._locked(seq, action, position)
        game = outcome.game
        if game is not None and game.contest and not outcome.replayed and outcome.state is not None:
            send_progress(game, outcome.state, timezone.now())
        return outcome

    async def _locked(self, seq: int, action: str, position: int | None) -> services.MoveOutcome:
        # In a worker thread (`in_a_thread`), not the one sync thread: moves of different games
        # run in parallel (each with its own connection), so one game's commit does not queue
        # every other socket behind it.
        result, self.live, self.board_updates = await _locked_move(
            self.game_id, self.user, {"seq": seq, "action": action, "position": position}
        )
        if isinstance(result, PlayError):
            raise result
        return result

    async def _grouped(
        self, live: LiveGame, seq: int, action: str, position: int | None
    ) -> services.MoveOutcome | None:
        """The move stored by group commit (a move that ends the game: with the game row locked),
        or None when it needs the locked path."""
        game = live.game
        if seq != game.seq or game.finished or game.paused or services.unwatched(game):
            return None
        now = timezone.now()
        try:
            step = steps.advance(game, live.state, action=action, position=position, now=now)
        except TimeUp:
            # The deadline (set when the game starts, never moved) and the clock refuse it alone:
            # at a race's cap every player's next move came at once, each to the locked path,
            # queued behind the race's end resigning the same games.
            raise
        except PlayError:
            return None
        # From here the copy may be behind the stored game: unless the move is stored, the copy
        # is dropped and the locked path reads the game again.
        self.live = None
        if step.finishes:
            return await self._finish(game, step, now)
        # Raises StoreUnavailable with the copy dropped: stored or not, only the database can tell.
        stored = await move_writer.writer().store(game, step)
        if stored is None:
            return None
        self.live = LiveGame(stored, step.state)
        services.log_move(stored, self.user, action)
        return services.MoveOutcome(
            game_payload(stored, step.state, now), game=stored, state=step.state
        )

    async def _finish(
        self, game: Game, step: steps.Step, now: datetime
    ) -> services.MoveOutcome | None:
        """The ending move stored from the copy with its result, or None when the row moved on
        meanwhile (the locked path then reads it again)."""
        outcome, board_updates = await _finish_copy(game, step, now)
        if outcome is None or outcome.game is None:
            return None
        self.live, self.board_updates = LiveGame(outcome.game, step.state), board_updates
        services.log_move(outcome.game, self.user, step.move.action)
        return outcome

    async def start(
        self, request: StartGameInput, scope: Mapping[str, object] | None = None
    ) -> tuple[SocketGame, ViewPayload]:
        """Start a game as POST /api/games does: the socket's game from now on, and its view.
        The socket's `scope` says where from (fair play: its device cookie and address)."""
        client = (scope or {}).get("client")
        origin: Origin = {
            "device": scope_device(scope or {}),
            "address": client[0] if isinstance(client, list | tuple) and client else None,
        }
        live, board_updates = await _start(self.user, request, origin, self.screen, self.game_id)
        started = SocketGame(str(live.game.pk), self.user, self.screen, self.address)
        started.admitted = True
        started.live, started.board_updates = live, board_updates
        return started, game_payload(live.game, live.state, timezone.now())

    async def send_board_updates(self) -> None:
        """The live board updates of the last move (a game's end, a start), if it made any. (A
        plain move makes none: its socket looks at `board_updates` before making this coroutine.)"""
        if self.board_updates:
            updates, self.board_updates = self.board_updates, []
            await live_board.send_held(updates)

    async def sync(self) -> ViewPayload | None:
        """Read the game again: its view, or None if it is not this player's."""
        self.live, view = await _open(self.game_id, self.user)
        return view

    async def show(self) -> ViewPayload | None:
        """The socket opened: it shows the game (`_show`); its view, or None as `sync`."""
        self.live, view = await _show(self.game_id, self.user, self.screen)
        return view

    async def admit(self) -> bool:
        """Count the socket for its game, its account and its address, unless one of them has
        all the sockets it may have (`infra/socket_caps.py`): then nothing is counted."""
        self.admitted = await socket_caps.admit_async(self.screen, self.holders) == 0
        return self.admitted

    async def hide(self) -> None:
        """The socket closed: uncounted everywhere (its game's screens too), then a solo game
        that no screen shows has its clock stopped (`services.hide_game`). A contest's or a
        finished game's clock does not stop (or has stopped): only the counts change."""
        if not self.admitted:
            return
        # The game's holder comes first (`socket_holders`): its count comes back with the release.
        shown = await socket_caps.release_async(self.screen, [key for key, _ in self.holders])
        game = self.live.game if self.live is not None else None
        if game is not None and (game.contest or game.finished):
            return
        # Another screen still shows it (or Redis cannot say): `hide_game` would find so under
        # the game's lock and leave the clock running. The last screen to go finds none.
        if shown != 0:
            return
        await _hide_game(game_id=self.game_id, user=self.user)

    def renewal_due(self) -> bool:
        """Whether `renew` would renew now: asked with no coroutine (a frame's path)."""
        return time.monotonic() >= self.renew_at

    async def renew(self) -> None:
        """Keep the socket counted among the game's screens (at most once every RENEW_S)."""
        if self.renewal_due():
            self.renew_at = time.monotonic() + screens.RENEW_S
            await socket_caps.admit_async(self.screen, self.holders)
