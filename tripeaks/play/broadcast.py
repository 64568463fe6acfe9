"""Best-effort fan-out of a game's new view to its other open sockets (other tabs).

A socket tells the game's other sockets of its moves only once it knows there are any: it learns
so as it joins the game's group (how many the group holds), and each socket announces itself, once
it has read the game, to those already there, which answer it only if they know a newer view.
Alone (the usual case) a socket spends nothing on fan-out.
"""

from __future__ import annotations

import logging
from typing import Required, TypedDict
from uuid import UUID

from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer

from tripeaks.play.payloads import ViewPayload

log = logging.getLogger("tripeaks.events")


class ViewEvent(TypedDict):
    type: str  # "game.view"
    view: ViewPayload


class PeerEvent(TypedDict, total=False):
    type: Required[str]  # "game.peer"
    channel: Required[str]
    seq: int  # the newest the newcomer has (absent from an older server's announcement)


class GreetingEvent(TypedDict):
    type: str  # "game.greeting"
    view: ViewPayload | None


def game_group(game_id: UUID | str) -> str:
    return f"game-{game_id}"


async def _deliver(
    message: ViewEvent | PeerEvent | GreetingEvent,
    *,
    group: str | None = None,
    channel: str | None = None,
) -> None:
    """The database is the truth; the channel layer is at-most-once, so a failure here only logs."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if group is not None:
            await layer.group_send(group, message)
        else:
            await layer.send(channel, message)
    except ChannelFull:
        # A socket that reads slower than it is sent to: it misses this one and, seeing the gap
        # in `seq`, asks for the game again. Nothing is wrong with the service: no traceback.
        log.info("a socket's channel is full", extra={"to": group or channel})
    except Exception:  # a broken channel layer must not fail a stored move
        log.warning(
            "could not reach a game's sockets", extra={"to": group or channel}, exc_info=True
        )


async def send_view(game_id: UUID | str, view: ViewPayload) -> None:
    await _deliver({"type": "game.view", "view": view}, group=game_group(game_id))


async def announce_peer(game_id: UUID | str, channel: str, seq: int) -> None:
    """A socket opened the game, and has its view at `seq`; the game's other sockets that have
    sent a newer one answer with `greet_peer`."""
    event: PeerEvent = {"type": "game.peer", "channel": channel, "seq": seq}
    await _deliver(event, group=game_group(game_id))


async def greet_peer(channel: str, view: ViewPayload | None) -> None:
    await _deliver({"type": "game.greeting", "view": view}, channel=channel)


def broadcast_view(game_id: UUID | str, view: ViewPayload) -> None:
    """`send_view` from synchronous code (a REST request)."""
    async_to_sync(send_view)(game_id, view)
