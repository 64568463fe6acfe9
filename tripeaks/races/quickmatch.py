"""Quick match: "play someone now". A queue per rule set in Redis, paired by one Lua script.

Keys (under the cache's prefix): `qm:<rules>:z`, a sorted set of the queued players by rating;
`qm:where`, player -> the rule set they queue for (a player is in one queue at most); `qm:since`,
player -> when they joined (ms); `qm:matched:<player>`, the race a pairing made for them, until
they read it. Joining and every poll run `PAIR` (atomic in Redis: two servers never pair the same
player twice): it takes the queued player of the closest rating within the caller's window, which
widens with the caller's wait (`WINDOW` + `WIDEN_PER_S` a second) until, after `FULL_AFTER_MS`,
anyone will do, but never an account that shares a device or a public address with the caller
(`_linked_in_queue`: two accounts of one person never meet). The pair leaves the queue in the same script; the race is then made in PostgreSQL
(`services.open_matched_race`) and starts its countdown at once.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Literal, Required, TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from redis import Redis

from leaderboard.fairplay import linked_accounts
from tripeaks.engine.rules import Rules
from tripeaks.infra import redis_client
from tripeaks.play.errors import PlayError
from tripeaks.races import rating, services
from tripeaks.races.errors import RaceConflict, RaceError
from tripeaks.races.models import Seat, SeatStatus, State

log = logging.getLogger("tripeaks.events")

WINDOW = 50.0  # rating points either side at first
WIDEN_PER_S = 50.0
FULL_AFTER_MS = 10_000  # after 10 s of waiting, any rating: "pairs within 10 s"
MATCHED_TTL_S = 300
FROM_TTL_S = 3600  # where a player queued from is kept this long (a queue is left long before)
QUEUE_READ = 999  # the queued players read for the second-account filter (a queue's first 1,000)

PAIR = """
local user, now, rules = ARGV[1], tonumber(ARGV[3]), ARGV[4]
local where = redis.call('HGET', KEYS[2], user)
if ARGV[5] == '1' then
  if where then return {'already', where} end
  redis.call('HSET', KEYS[2], user, rules)
  redis.call('HSET', KEYS[3], user, ARGV[3])
  redis.call('ZADD', KEYS[1], ARGV[2], user)
elseif where ~= rules then
  return {'idle', ''}
end
local mine = tonumber(redis.call('ZSCORE', KEYS[1], user))
if not mine then return {'idle', ''} end
local since = tonumber(redis.call('HGET', KEYS[3], user) or ARGV[3])
local waited = now - since
local low, high = '-inf', '+inf'
if waited < tonumber(ARGV[8]) then
  local window = tonumber(ARGV[6]) + tonumber(ARGV[7]) * waited / 1000
  low, high = mine - window, mine + window
end
local near = redis.call('ZRANGEBYSCORE', KEYS[1], low, high, 'WITHSCORES', 'LIMIT', 0, 200)
local apart = {}
for id in string.gmatch(ARGV[9], '[^,]+') do apart[id] = true end
local best, gap, first = nil, nil, nil
for i = 1, #near, 2 do
  local other = near[i]
  if other ~= user and not apart[other] then
    local g = math.abs(tonumber(near[i + 1]) - mine)
    local s = tonumber(redis.call('HGET', KEYS[3], other) or ARGV[3])
    if not best or g < gap or (g == gap and s < first) then best, gap, first = other, g, s end
  end
end
if not best then return {'waiting', tostring(waited)} end
redis.call('ZREM', KEYS[1], user, best)
redis.call('HDEL', KEYS[2], user, best)
redis.call('HDEL', KEYS[3], user, best)
return {'paired', best}
"""

LEAVE = """
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
"""

REQUEUE = """
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1
"""


class MatchStatus(TypedDict, total=False):
    """Where the player stands in quick match (GET/POST /api/quickmatch)."""

    state: Required[Literal["idle", "waiting", "matched"]]
    rules: str  # waiting: for what
    waited_ms: int
    others_waiting: int
    empty: bool
    race: str  # matched: the race's id


def _redis() -> Redis:
    return redis_client.client()


def _prefix() -> str:
    return redis_client.key("qm")


def _keys(rules_key: str) -> list[str]:
    return [f"{_prefix()}:{rules_key}:z", f"{_prefix()}:where", f"{_prefix()}:since"]


def _matched_key(user_id: int) -> str:
    return f"{_prefix()}:matched:{user_id}"


_text = redis_client.text


def _in_race(user_id: int) -> bool:
    return Seat.objects.filter(
        user_id=user_id,
        active=True,
        race__state__in=[State.COUNTDOWN, State.RUNNING],
        status__in=[SeatStatus.WAITING, SeatStatus.PLAYING],
    ).exists()


def _from_key(user_id: int) -> str:
    return f"{_prefix()}:from:{user_id}"


def _linked_in_queue(redis: Redis, user: AbstractBaseUser, rules: Rules) -> set[int]:
    """The queued players quick match must never pair `user` with: accounts that share a
    device or a public address with them (the second-account rule's facts, `linked_accounts`:
    their games, and the device and address each queued from)."""
    members = redis.zrange(_keys(rules.key)[0], 0, QUEUE_READ)
    # Without scores every member is a name (redis' stub types both kinds of answer alike).
    queued = {int(_text(member)) for member in members if isinstance(member, bytes | str)}
    players = sorted(queued | {user.pk})
    seen_now: dict[int, tuple[str, str | None]] = {}
    for player, raw in zip(players, redis.mget([_from_key(p) for p in players]), strict=True):
        if raw is not None:
            device, address = json.loads(_text(raw))
            seen_now[player] = (device, address)
    return linked_accounts(players, seen_now=seen_now)[user.pk]


def _pair(user: AbstractBaseUser, rules: Rules, *, join: bool) -> MatchStatus:
    redis = _redis()
    now_ms = int(time.time() * 1000)
    score = rating.rating_for_pairing(user.pk, rules.key)
    outcome, other = (
        _text(part)
        for part in redis_client.script(PAIR, redis)(
            keys=_keys(rules.key),
            args=[
                user.pk,
                score,
                now_ms,
                rules.key,
                1 if join else 0,
                WINDOW,
                WIDEN_PER_S,
                FULL_AFTER_MS,
                ",".join(str(other) for other in sorted(_linked_in_queue(redis, user, rules))),
            ],
        )
    )
    if outcome == "already":
        raise RaceConflict(f"you are already waiting for a {other} race", code="already_queued")
    if outcome == "idle":
        return {"state": "idle"}
    if outcome == "waiting":
        others = int(redis.zcard(_keys(rules.key)[0])) - 1
        return {
            "state": "waiting",
            "rules": rules.key,
            "waited_ms": int(other),
            "others_waiting": others,
            "empty": others == 0,
        }
    partner = get_user_model().objects.filter(pk=int(other), is_active=True).first()
    if partner is None:  # deleted while waiting (the deletion also takes them out): wait on
        _requeue(user, rules, now_ms)
        return {
            "state": "waiting",
            "rules": rules.key,
            "waited_ms": 0,
            "others_waiting": 0,
            "empty": True,
        }
    try:
        race = services.open_matched_race(users=[partner, user], rules=rules)
    except (RaceError, PlayError) as error:
        # One of them sat down in a race meanwhile, or no deal is ready (503): back in the queue
        # (from now), but a player now in a race.
        log.info("quick match pair refused", extra={"user": user.pk, "other": partner.pk})
        for player in (user, partner):
            if not _in_race(player.pk):
                _requeue(player, rules, now_ms)
        if isinstance(error, PlayError):
            raise
        return status(user=user)
    redis.set(_matched_key(partner.pk), str(race.pk), ex=MATCHED_TTL_S)
    log.info("quick match", extra={"race": str(race.pk), "users": [partner.pk, user.pk]})
    return {"state": "matched", "race": str(race.pk)}


def _requeue(user: AbstractBaseUser, rules: Rules, since_ms: int) -> None:
    score = rating.rating_for_pairing(user.pk, rules.key)
    redis_client.script(REQUEUE)(keys=_keys(rules.key), args=[user.pk, score, since_ms, rules.key])


def join(
    *, user: AbstractBaseUser, rules: Rules, device: str = "", address: str | None = None
) -> MatchStatus:
    """Queue the player for `rules` and pair them at once if someone close is waiting. `device`
    and `address`: where they queue from (never paired with another account seen there)."""
    if _in_race(user.pk):
        raise RaceConflict("you are in a race: finish it first", code="in_race")
    _redis().delete(_matched_key(user.pk))
    _redis().set(_from_key(user.pk), json.dumps([device, address]), ex=FROM_TTL_S)
    return _pair(user, rules, join=True)


def status(*, user: AbstractBaseUser) -> MatchStatus:
    """Matched (the race, told once), still waiting (paired now if the widened window finds
    someone), or idle."""
    redis = _redis()
    race = redis.getdel(_matched_key(user.pk))
    if race is not None:
        return {"state": "matched", "race": _text(race)}
    where = redis.hget(_keys("")[1], user.pk)
    if where is None:
        return {"state": "idle"}
    return _pair(user, Rules.from_key(_text(where)), join=False)


def leave(*, user: AbstractBaseUser) -> bool:
    redis = _redis()
    where = redis.hget(_keys("")[1], user.pk)
    if where is None:
        return False
    rules_key = _text(where)
    return bool(redis_client.script(LEAVE, redis)(keys=_keys(rules_key), args=[user.pk, rules_key]))
