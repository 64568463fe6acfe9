"""The project's channel layer (tripeaks/infra/channel_layer.py): a cancelled receive ends.

Eight consumers wait on their channels and are cancelled one after another, as sockets closing
are, in twelve rounds at varied moments of the layer's blocking pop. With channels_redis's own
layer 4 and 7 rounds of 12 left a receive running 2 s later (two runs here); every receive must
end now, at once."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from django.conf import settings

from tripeaks.infra.channel_layer import RedisChannelLayer

pytestmark = pytest.mark.asyncio


async def test_receives_cancelled_one_after_another_all_end() -> None:
    config: dict[str, Any] = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    layer = RedisChannelLayer(hosts=config["hosts"], prefix=f"{config['prefix']}-cancel-test")
    pace = random.Random(7)
    still_receiving = 0
    for _ in range(12):
        channels = [await layer.new_channel() for _ in range(8)]
        receives = [asyncio.ensure_future(layer.receive(channel)) for channel in channels]
        await asyncio.sleep(pace.uniform(0.05, 0.4))
        for receive in receives:
            receive.cancel()
            await asyncio.sleep(pace.uniform(0, 0.02))
        _done, pending = await asyncio.wait(receives, timeout=2)
        still_receiving += len(pending)
        for receive in pending:
            receive.cancel()
    assert still_receiving == 0
    assert all(receive.cancelled() for receive in receives)
    await layer.flush()
