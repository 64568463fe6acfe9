"""Making deals: secret seeds, solver-proven daily and random deals, numbered and custom deals."""

from __future__ import annotations

import copy
import hashlib
import hmac
import secrets
from collections.abc import Callable
from datetime import date
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from tripeaks.engine.deal import Deal as EngineDeal
from tripeaks.engine.deal import from_seed, parse_code
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules, Start
from tripeaks.engine.solver import par, solve
from tripeaks.play.models import Deal, Source

NUMBERED_DEALS = 50_000
# A daily deal is the first winnable one among these many seeds; at ~97% solvability the chance
# that all fail is nil, but the bound keeps a broken layout from looping forever.
MAX_SEED_TRIES = 200


class DealUnavailable(Exception):
    """No winnable deal could be made (a layout and rules that almost never win)."""


def secret_seed(*parts: object) -> int:
    """A 63-bit seed derived from DEAL_SECRET and `parts`: nothing public lets anyone rebuild it."""
    message = ":".join(str(part) for part in parts).encode()
    digest = hmac.new(settings.DEAL_SECRET, message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def engine_deal(deal: Deal) -> EngineDeal:
    return _parsed(deal.code, deal.layout, Rules.from_key(deal.rules_key).start)


@lru_cache(maxsize=4096)
def _parsed(code: str, layout: str, start: Start) -> EngineDeal:
    # Every move rebuilds its game's state from the row; a deal's cards never change, so parse once.
    return parse_code(code, get_layout(layout), start)


def _first_winnable(rules: Rules, layout: str, seeds: list[int]) -> tuple[int, EngineDeal, int]:
    for seed in seeds:
        candidate = from_seed(seed, get_layout(layout), rules.start)
        if solve(candidate, rules).winnable:
            moves = par(candidate, rules)
            assert moves is not None
            return seed, candidate, moves
    raise DealUnavailable(f"no winnable {layout} deal under {rules.key} in {len(seeds)} tries")


def _unique_deal(lookup: dict[str, Any], make: Callable[[], dict[str, Any]]) -> Deal:
    """The one deal matching `lookup`, made with `make()` if missing. When two workers make it at
    the same moment, the unique constraint keeps one and the other reads it."""
    existing = Deal.objects.filter(**lookup).first()
    if existing:
        return existing
    fields = make()
    try:
        with transaction.atomic():
            return Deal.objects.create(**lookup, **fields)
    except IntegrityError:
        return Deal.objects.get(**lookup)


# The daily deals read so far, by (day, rules, layout): everybody starts the same few rows all
# day, and a daily deal never changes once made (winnable, with its par). Bounded by days.
_known_daily: dict[tuple[date, str, str], Deal] = {}
KNOWN_DAILY_MAX = 64


def forget_daily_deals() -> None:
    """Drop the daily deals read so far (tests: their database is emptied between them)."""
    _known_daily.clear()


def daily_deal(day: date, rules: Rules, layout: str = "classic") -> Deal:
    """The day's deal for these rules, made on the spot if the precompute task has not run yet."""
    key = (day, rules.key, layout)
    known = _known_daily.get(key)
    if known is not None:
        return copy.copy(known)  # a row of the caller's own, which it may change or cache into
    deal = _stored_daily_deal(day, rules, layout)
    # Only a committed row: inside a transaction that may yet roll back, it may never exist.
    if KNOWN_DAILY_MAX and not transaction.get_connection().in_atomic_block:
        if len(_known_daily) >= KNOWN_DAILY_MAX:
            _known_daily.clear()
        _known_daily[key] = copy.copy(deal)
    return deal


def _stored_daily_deal(day: date, rules: Rules, layout: str) -> Deal:
    def make() -> dict[str, Any]:
        seeds = [
            secret_seed("daily", day.isoformat(), rules.key, layout, attempt)
            for attempt in range(MAX_SEED_TRIES)
        ]
        seed, made, moves = _first_winnable(rules, layout, seeds)
        return {"code": made.code, "seed": seed, "winnable": True, "par": moves}

    lookup = {"source": Source.DAILY, "day": day, "rules_key": rules.key, "layout": layout}
    return _unique_deal(lookup, make)


def make_random_deal(rules: Rules, layout: str, *, claimed: bool) -> Deal:
    """A freshly shuffled, solver-proven winnable deal."""
    seeds = [secrets.randbits(63) for _ in range(MAX_SEED_TRIES)]
    seed, made, moves = _first_winnable(rules, layout, seeds)
    return Deal.objects.create(
        source=Source.RANDOM,
        rules_key=rules.key,
        layout=layout,
        code=made.code,
        seed=seed,
        winnable=True,
        par=moves,
        claimed=claimed,
    )


def claim_random_deal(rules: Rules, layout: str) -> Deal:
    """A deal from the precomputed pool, or one solved on the spot when the pool is dry."""
    with transaction.atomic():
        pooled = (
            Deal.objects.select_for_update(skip_locked=True)
            .filter(source=Source.RANDOM, rules_key=rules.key, layout=layout, claimed=False)
            .order_by("id")
            .first()
        )
        if pooled is not None:
            pooled.claimed = True
            pooled.save(update_fields=["claimed"])
            return pooled
    return make_random_deal(rules, layout, claimed=True)


def refill_pool(rules: Rules, layout: str, target: int) -> int:
    """Top the pool of unclaimed random deals up to `target`; returns how many were added."""
    have = Deal.objects.filter(
        source=Source.RANDOM, rules_key=rules.key, layout=layout, claimed=False
    ).count()
    for _ in range(target - have):
        make_random_deal(rules, layout, claimed=False)
    return max(0, target - have)


def numbered_deal(number: int, rules: Rules, layout: str = "classic") -> Deal:
    """Deal #number: the same cards for everybody, forever. Its verdict may still be pending."""

    def make() -> dict[str, Any]:
        seed = secret_seed("numbered", layout, rules.key, number)
        return {"code": from_seed(seed, get_layout(layout), rules.start).code, "seed": seed}

    lookup = {"source": Source.NUMBERED, "number": number, "rules_key": rules.key, "layout": layout}
    return _unique_deal(lookup, make)


def custom_deal(code: str, rules: Rules, layout: str) -> Deal:
    """A deal the player typed in (for example dealt from a real deck): unranked."""
    made = parse_code(code, get_layout(layout), rules.start)
    return Deal.objects.create(
        source=Source.CUSTOM, rules_key=rules.key, layout=layout, code=made.code
    )


def record_verdict(deal: Deal) -> Deal:
    """Solve a deal whose verdict is unknown and store the verdict and par."""
    if deal.winnable is None:
        rules = Rules.from_key(deal.rules_key)
        made = engine_deal(deal)
        deal.winnable = solve(made, rules).winnable
        deal.par = par(made, rules) if deal.winnable else None
        deal.save(update_fields=["winnable", "par"])
    return deal
