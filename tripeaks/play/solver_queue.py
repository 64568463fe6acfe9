"""Solver work asked of a Celery worker: a pool's top-up, a deal's verdict and par.

Each is asked once while it waits (a Redis key held from the asking until the task begins), and a
deal's verdict is not asked while the solver queue holds `SOLVER_QUEUE_MAX` tasks already: the
queue can hold at most one task per pool and that many verdicts, however many games start. A
verdict left unasked is asked again by the next game on the deal. Best effort throughout: with the
broker or the cache down nothing is queued, and beat asks for the pools again a minute later.

A hot path (a game's finish asking for its analysis) defers its ask (`defer_once`): one Redis call
takes the once-key and leaves the ask in a list, which one drain task (`send_deferred`) sends to
the solver queue as `queue_once` would. The first ask that finds no drain asked asks for one;
beat drains the list too, so an ask outlives a lost drain message. Asked by `queue_once`, a
finish's ask cost the server 1.5-1.8 ms of CPU (mostly Celery's publish), deferred 0.12-0.28 ms.

The tasks are sent by name: the module that makes deals asks for work here, and the tasks module
calls the deals module, so importing the tasks here would close a circle.
"""

from __future__ import annotations

import logging
from typing import cast

import orjson
from celery import current_app
from django.conf import settings
from django.core.cache import cache

from tripeaks.engine.rules import Rules
from tripeaks.infra import redis_client

log = logging.getLogger("tripeaks.deals")

SOLVER_QUEUE = "solver"
REFILL_TASK = "tripeaks.play.tasks.refill_random_pool"
VERDICT_TASK = "tripeaks.play.tasks.solve_deal"
# A task asked but not yet begun holds its key this long at most: longer than any queue's wait,
# shorter than forever (a message lost with the broker's data is asked again after it).
QUEUED_SECONDS = 3600
# Deferred asks, each `[key, task, args]`, wait in this list for the drain (`send_deferred`); a
# drain asked and not yet begun holds DRAIN_KEY, this long at most (its message may be lost).
DEFERRED_LIST = "solver-asks:deferred"
DRAIN_KEY = "solver-asks:drain-asked"
DRAIN_TASK = "tripeaks.play.tasks.send_deferred_asks"
DRAIN_SECONDS = 30

# The once-key taken (else -1), the ask listed, and the drain's key taken: 1 when the caller must
# ask for a drain, 0 when one is asked already.
DEFER_SCRIPT = """
if not redis.call('SET', KEYS[1], 1, 'EX', ARGV[1], 'NX') then return -1 end
redis.call('RPUSH', KEYS[2], ARGV[2])
if redis.call('SET', KEYS[3], 1, 'EX', ARGV[3], 'NX') then return 1 end
return 0
"""


def pool_key(rules: Rules, layout: str) -> str:
    return f"deal-pool:queued:{rules.key}:{layout}"


def verdict_key(deal_id: int) -> str:
    return f"deal-verdict:queued:{deal_id}"


def backlog(queue: str = SOLVER_QUEUE) -> int:
    """How many tasks wait in `queue` (the Redis broker keeps a queue as a list of its name):
    one LLEN through the project's client of the broker, which fails after the broker's timeout
    (its caller then asks nothing). Not through a connection of Celery's pool: that waited for a
    free one, and its channel's client was once seen to be None under load."""
    return int(redis_client.broker_client().llen(queue))


def queue_pool_refill(rules: Rules, layout: str, target: int | None = None) -> bool:
    """Ask a worker to top this pool up to `target` (None: its own from its demand), unless a
    top-up is already asked."""
    if not settings.QUEUE_SOLVER_TASKS:
        return False  # no worker: it would run here, where the request waits
    try:
        if not cache.add(pool_key(rules, layout), 1, timeout=QUEUED_SECONDS):
            return False
        _send(REFILL_TASK, rules.key, layout, *([] if target is None else [target]))
    except Exception:  # the broker or cache is down: beat asks again
        log.warning("could not queue a pool refill", extra={"layout": layout}, exc_info=True)
        return False
    return True


def queue_verdict(deal_id: int) -> bool:
    """Ask a worker for a deal's verdict and par, unless that is already asked or the solver
    queue is full (the par then stays unknown until a later game on the deal asks again)."""
    return queue_once(verdict_key(deal_id), VERDICT_TASK, deal_id)


def queue_once(key: str, task: str, *args: str | int) -> bool:
    """Ask a worker for `task(*args)` on the solver queue, unless the work under `key` is
    already asked (until the task calls `begun(key)`) or the queue holds SOLVER_QUEUE_MAX tasks
    (then it is left unasked, for a later ask). Best effort: False when not queued."""
    try:
        if not cache.add(key, 1, timeout=QUEUED_SECONDS):
            return False
        return _send_asked(key, task, *args)
    except Exception:  # a lost solver job must not fail the request or game that asked for it
        log.warning("could not queue solver work", extra={"task": task, "key": key}, exc_info=True)
        return False


def _send_asked(key: str, task: str, *args: str | int) -> bool:
    """Send `task(*args)`, whose `key` the asker holds, unless the solver queue is full: then the
    key is let go (a later ask asks again) and False."""
    if backlog() >= settings.SOLVER_QUEUE_MAX:
        cache.delete(key)
        log.info("the solver queue is full: work waits", extra={"task": task, "key": key})
        return False
    _send(task, *args)
    return True


def defer_once(key: str, task: str, *args: str | int) -> bool:
    """`queue_once` for a hot path: the once-key taken and the ask listed by one Redis call, sent
    by the drain (`send_deferred`), which the first ask that finds none asked asks for. False when
    the work is asked already, or Redis or the broker could not be reached."""
    make_key = cache.make_key  # the cache looked up through its proxy once, not for each key
    keys = [make_key(name) for name in (key, DEFERRED_LIST, DRAIN_KEY)]
    item = orjson.dumps([key, task, list(args)])
    try:
        script = redis_client.script(DEFER_SCRIPT)
        listed = int(script(keys=keys, args=[QUEUED_SECONDS, item, DRAIN_SECONDS]))
        if listed == 1:
            _send(DRAIN_TASK)
    except Exception:  # as queue_once: the finish must not fail (a listed ask waits for beat)
        log.warning("could not defer solver work", extra={"task": task, "key": key}, exc_info=True)
        return False
    return listed >= 0


def send_deferred(batch: int = 100) -> int:
    """Send every deferred ask (the drain's work): each as `queue_once` would once its key is
    held. The drain's key is let go first, so an ask listed meanwhile asks for the next drain. An
    ask that cannot be sent goes back to the list's head for the next drain. How many were sent."""
    client = redis_client.client()
    listed = cache.make_key(DEFERRED_LIST)
    client.delete(cache.make_key(DRAIN_KEY))
    sent = 0
    while items := cast(list[bytes] | None, client.lpop(listed, batch)):
        for index, item in enumerate(items):
            key, task, args = orjson.loads(item)
            try:
                sent += _send_asked(key, task, *args)
            except Exception:
                client.lpush(listed, *reversed(items[index:]))
                raise
    return sent


def _send(task: str, *args: object) -> None:
    # A signature: the registered task where its module is loaded (a worker; eager Celery in
    # the tests runs it here), else a message by name (a web process never imports the tasks).
    current_app.signature(task, args=args).delay()


def begun(key: str) -> None:
    """A task has begun the work asked under `key`: it may be asked again from now on."""
    cache.delete(key)
