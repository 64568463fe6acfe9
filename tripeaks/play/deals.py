"""Making deals: secret seeds, solver-proven daily and random deals, numbered and custom deals."""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from datetime import date, timedelta
from functools import lru_cache
from typing import NamedTuple, TypedDict

from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, IntegrityError, transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext

from tripeaks.engine.deal import Deal as EngineDeal
from tripeaks.engine.deal import from_seed, parse_code
from tripeaks.engine.layouts import LAYOUTS, get_layout
from tripeaks.engine.rules import CLASSIC_RULE_SETS, Rules, Start
from tripeaks.engine.solver import Budget, BudgetExceeded, par, solve
from tripeaks.play import pool_demand, solver_queue
from tripeaks.play.deal_digests import SCHEME, copies, digests
from tripeaks.play.dealday import deal_day
from tripeaks.play.errors import BadRequest, PlayError
from tripeaks.play.models import RANKED_SOURCES, Deal, Game, Source

log = logging.getLogger("tripeaks.deals")

NUMBERED_DEALS = 50_000
# A daily deal is the first winnable one among these many seeds; at ~97% solvability the chance
# that all fail is nil, but the bound keeps a broken layout from looping forever.
MAX_SEED_TRIES = 200


# Pool deals are made by Celery workers, where nobody waits, but still within bounds: a seed whose
# verdict takes more than this many nodes is skipped (its winnability stays unknown, so it is never
# pooled), and a par that takes more is stored as unknown (None). About a microsecond a node.
POOL_SOLVE_NODES = 5_000_000
POOL_PAR_NODES = 10_000_000
# One worker tops a pool up at a time: the others find it being filled and leave it.
POOL_FILLING_SECONDS = 300
# A dry pool's refill is queued at once; a worker proves most deals within seconds.
POOL_EMPTY_RETRY_AFTER = 5


class DealUnavailable(Exception):
    """No winnable deal could be made (a layout and rules that almost never win)."""


class RankedDealCopy(BadRequest):
    """A custom deal with the cards of a deal that still ranks: practising it is scouting."""

    code = "ranked_deal"


class PoolEmpty(PlayError):
    """No random deal of these rules and layout is pooled: a refill is queued, try again soon."""

    status_code = 503
    code = "pool_empty"
    retry_after = POOL_EMPTY_RETRY_AFTER


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


class Digests(TypedDict):
    card_bands: list[str]
    game_digest: str


class NewDeal(Digests, total=False):
    """The fields a deal is made with, beside those it is looked up by."""

    code: str
    seed: int
    winnable: bool | None
    par: int | None


def digest_fields(made: EngineDeal) -> Digests:
    found = digests(made)
    return {"card_bands": found.bands, "game_digest": found.game}


def _first_winnable(rules: Rules, layout: str, seeds: list[int]) -> tuple[int, EngineDeal, int]:
    for seed in seeds:
        candidate = from_seed(seed, get_layout(layout), rules.start)
        if solve(candidate, rules).winnable:
            moves = par(candidate, rules)
            assert moves is not None
            return seed, candidate, moves
    raise DealUnavailable(f"no winnable {layout} deal under {rules.key} in {len(seeds)} tries")


def _first_proven(
    rules: Rules, layout: str, seeds: list[int]
) -> tuple[int, EngineDeal, int | None]:
    """The first seed whose deal is proven winnable within the pool's bounds, with its par (None
    if not found within them); a seed whose verdict does not fit them is skipped."""
    for seed in seeds:
        candidate = from_seed(seed, get_layout(layout), rules.start)
        try:
            proven = solve(candidate, rules, budget=Budget(max_nodes=POOL_SOLVE_NODES)).winnable
        except BudgetExceeded:
            continue
        if proven:
            try:
                moves = par(candidate, rules, budget=Budget(max_nodes=POOL_PAR_NODES))
            except BudgetExceeded:
                moves = None
            return seed, candidate, moves
    raise DealUnavailable(f"no winnable {layout} deal under {rules.key} in {len(seeds)} tries")


def _unique_deal(lookup: dict[str, object], make: Callable[[], NewDeal]) -> Deal:
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


# The daily deals read so far, by (day, rules, layout), as their rows' values (the model's
# fields in order): everybody starts the same few rows all day, and a daily deal never changes
# once made (winnable, with its par). Bounded by days.
_known_daily: dict[tuple[date, str, str], tuple[object, ...]] = {}
KNOWN_DAILY_MAX = 64


@lru_cache(maxsize=1)
def _deal_names() -> list[str]:
    return [field.attname for field in Deal._meta.concrete_fields]


def forget_daily_deals() -> None:
    """Drop the daily deals read so far (tests: their database is emptied between them)."""
    _known_daily.clear()


def daily_deal(day: date, rules: Rules, layout: str = "classic") -> Deal:
    """The day's deal for these rules, made on the spot if the precompute task has not run yet."""
    key = (day, rules.key, layout)
    known = _known_daily.get(key)
    if known is not None:
        # A row of the caller's own, which it may change or cache into, made as a read makes it
        # (`copy.copy` of a kept row went through Django's pickling: 59 Python calls a start).
        return Deal.from_db(DEFAULT_DB_ALIAS, _deal_names(), known)
    deal = _stored_daily_deal(day, rules, layout)
    # Only a committed row: inside a transaction that may yet roll back, it may never exist.
    if KNOWN_DAILY_MAX and not transaction.get_connection().in_atomic_block:
        if len(_known_daily) >= KNOWN_DAILY_MAX:
            _known_daily.clear()
        _known_daily[key] = tuple(getattr(deal, name) for name in _deal_names())
    return deal


def _stored_daily_deal(day: date, rules: Rules, layout: str) -> Deal:
    def make() -> NewDeal:
        seeds = [
            secret_seed("daily", day.isoformat(), rules.key, layout, attempt)
            for attempt in range(MAX_SEED_TRIES)
        ]
        seed, made, moves = _first_winnable(rules, layout, seeds)
        return {
            "code": made.code,
            "seed": seed,
            "winnable": True,
            "par": moves,
            **digest_fields(made),
        }

    lookup = {"source": Source.DAILY, "day": day, "rules_key": rules.key, "layout": layout}
    return _unique_deal(lookup, make)


def make_random_deal(rules: Rules, layout: str, *, claimed: bool) -> Deal:
    """A freshly shuffled deal, proven winnable within the pool's bounds (a worker's work)."""
    seeds = [secrets.randbits(63) for _ in range(MAX_SEED_TRIES)]
    seed, made, moves = _first_proven(rules, layout, seeds)
    return Deal.objects.create(
        source=Source.RANDOM,
        rules_key=rules.key,
        layout=layout,
        code=made.code,
        seed=seed,
        winnable=True,
        par=moves,
        claimed=claimed,
        **digest_fields(made),
    )


def claim_random_deal(rules: Rules, layout: str, *, shipped: bool = False) -> Deal:
    """A deal from the pool of these rules and layout, proven winnable by a worker: a start
    never waits for the solver. A dry pool answers at once, `PoolEmpty` (503, Retry-After). The
    pool's refill is queued now, not on commit (the start's transaction rolls back with a 503),
    and every start counts in the pool's demand (pool_demand), the dry ones too. `shipped`: a
    solo start may take a shipped deal (public, unranked: seeding.py) from a pool with no other;
    a contest never does (its places and ratings count)."""
    pool_demand.count_start(rules, layout)
    deal = _take_pooled(rules, layout, shipped=shipped)
    if deal is None and not settings.QUEUE_SOLVER_TASKS:
        refill_pool(rules, layout, 1)  # no worker to queue for (the test suite): right here
        deal = _take_pooled(rules, layout, shipped=shipped)
    # Asked at every claim, not only a dry one: the worker tops the pool up to its target now,
    # not at beat's next round (asked once while it waits: one Redis key a start).
    solver_queue.queue_pool_refill(rules, layout)
    if deal is None:
        log.info("a random pool is dry", extra={"layout": layout, "rules": rules.key})
        raise PoolEmpty(
            gettext("No deal of this layout and rules is ready yet. Try again in a few seconds.")
        )
    return deal


def _take_pooled(rules: Rules, layout: str, *, shipped: bool) -> Deal | None:
    """The pool's oldest deal a worker made; only when there is none (and `shipped`), one of the
    shipped deals (`Deal.shipped`: public, so unranked), drawn at random among the pool's."""
    with transaction.atomic():
        pool = Deal.objects.select_for_update(skip_locked=True).filter(
            source=Source.RANDOM, rules_key=rules.key, layout=layout, claimed=False
        )
        pooled = pool.filter(shipped=False).order_by("id").first()
        if pooled is None and shipped:
            pooled = pool.filter(shipped=True).order_by("?").first()
        if pooled is not None:
            pooled.claimed = True
            pooled.save(update_fields=["claimed"])
        return pooled


STARTS: tuple[Start, ...] = ("waste", "empty")
# Every pool: each layout under each rule set (wrap, open) with each start (waste, empty).
POOL_RULE_SETS: tuple[Rules, ...] = tuple(
    Rules(wrap=rules.wrap, open=rules.open, start=start)
    for start in STARTS
    for rules in CLASSIC_RULE_SETS
)


def pool_layouts() -> list[str]:
    configured = list(settings.RANDOM_POOL_LAYOUTS)
    return list(LAYOUTS) if configured == ["*"] else configured


class Shortfall(NamedTuple):
    missing: int
    rules: Rules
    layout: str
    held: int


def pool_shortfalls(target: int | None = None) -> list[Shortfall]:
    """Every pool below its target, the least full first. The target is `target` for every pool
    if given, else each pool's own from its demand (pool_demand.targets). Shipped deals do not
    count: a pool that holds only those is empty to its refill, and filled first."""
    layouts = pool_layouts()
    counts = {
        (row["rules_key"], row["layout"]): row["n"]
        for row in Deal.objects.filter(
            source=Source.RANDOM, claimed=False, shipped=False, layout__in=layouts
        )
        .values("rules_key", "layout")
        .annotate(n=Count("id"))
    }
    pools = [(rules.key, layout) for layout in layouts for rules in POOL_RULE_SETS]
    wanted = dict.fromkeys(pools, target) if target is not None else pool_demand.targets(pools)
    short = [
        Shortfall(
            wanted[pool] - counts.get(pool, 0),
            Rules.from_key(pool[0]),
            pool[1],
            counts.get(pool, 0),
        )
        for pool in pools
        if counts.get(pool, 0) < wanted[pool]
    ]

    def fullness(item: Shortfall) -> tuple[float, int]:
        pool = (item.rules.key, item.layout)
        return (counts.get(pool, 0) / wanted[pool], -item.missing)

    return sorted(short, key=fullness)


def pool_target(rules: Rules, layout: str) -> int:
    return pool_demand.targets([(rules.key, layout)])[(rules.key, layout)]


def refill_pool(rules: Rules, layout: str, target: int, *, seconds: float | None = None) -> int:
    """Top the pool of unclaimed random deals up to `target`, for at most about `seconds`
    (None: until full); returns how many were added. One worker at a time per pool. Only
    deals a worker made count, and once the pool holds its floor of them, its unclaimed shipped
    deals are retired (a claim took those only from a pool that had no other)."""
    solver_queue.begun(solver_queue.pool_key(rules, layout))
    lock = f"deal-pool:filling:{rules.key}:{layout}"
    if not cache.add(lock, 1, timeout=POOL_FILLING_SECONDS):
        return 0
    try:
        pool = Deal.objects.filter(
            source=Source.RANDOM, rules_key=rules.key, layout=layout, claimed=False
        )
        have = pool.filter(shipped=False).count()
        until = None if seconds is None else time.monotonic() + seconds
        added = 0
        while have + added < target and (until is None or time.monotonic() < until):
            try:
                make_random_deal(rules, layout, claimed=False)
            except DealUnavailable:
                log.warning("no provable deal in a batch of seeds", extra={"layout": layout})
                break
            added += 1
        if have + added >= max(settings.RANDOM_POOL_SIZE, 1):
            pool.filter(shipped=True).delete()  # the shipped deals are not needed now
        return added
    finally:
        cache.delete(lock)


def numbered_deal(number: int, rules: Rules, layout: str = "classic") -> Deal:
    """Deal #number: the same cards for everybody, forever. Its verdict may still be pending."""

    def make() -> NewDeal:
        seed = secret_seed("numbered", layout, rules.key, number)
        made = from_seed(seed, get_layout(layout), rules.start)
        return {
            "code": made.code,
            "seed": seed,
            "winnable": None,
            "par": None,
            **digest_fields(made),
        }

    lookup = {"source": Source.NUMBERED, "number": number, "rules_key": rules.key, "layout": layout}
    return _unique_deal(lookup, make)


def custom_deal(code: str, rules: Rules, layout: str) -> Deal:
    """A deal the player typed in (for example dealt from a real deck): unranked. The cards of a
    deal that still ranks are refused (`RankedDealCopy`), in any layout, rules or spelling."""
    made = parse_code(code, get_layout(layout), rules.start)
    fields = digest_fields(made)
    if copies_a_ranking_deal(fields["card_bands"], fields["game_digest"]):
        raise RankedDealCopy("this deal is on a board that still ranks: play it there")
    return Deal.objects.create(
        source=Source.CUSTOM, rules_key=rules.key, layout=layout, code=made.code, **fields
    )


def copies_a_ranking_deal(card_bands: list[str], game_digest: str) -> bool:
    """Is there a deal that a run can still rank on sharing `MATCHING_BANDS` bands of these cards
    (or this game)? Numbered deals always rank; a daily ranks today and yesterday (a game started
    before midnight counts when it ends); any deal ranks while a game on it is unfinished (a
    race's, a paused random deal's: its player could scout, practise a copy elsewhere, undo and
    play). One query, on the digests' indexes: the deals sharing one band or more (a handful at
    most), then how many they share."""
    found = ranking_copies(card_bands, game_digest).values_list("card_bands", "game_digest")
    return any(copies(card_bands, game_digest, bands, game) for bands, game in found)


def ranking_copies(card_bands: list[str], game_digest: str) -> QuerySet[Deal]:
    unfinished = Game.objects.filter(deal=OuterRef("pk"), finished_at__isnull=True)
    return (
        Deal.objects.filter(Q(card_bands__overlap=card_bands) | Q(game_digest=game_digest))
        .filter(source__in=RANKED_SOURCES)
        .filter(
            Q(source=Source.NUMBERED)
            | Q(source=Source.DAILY, day__gte=deal_day() - timedelta(days=1))
            | Exists(unfinished)
        )
    )


def fill_missing_digests(batch: int = 500) -> int:
    """Give the deals made before digests existed theirs, and those whose bands were cut by an
    older scheme new ones (a worker's start, or `manage.py fill_deal_digests`); returns how many
    were filled."""
    filled = 0
    stale = Q(card_bands=[]) | Q(game_digest="") | ~Q(card_bands__0__startswith=f"{SCHEME}/")
    while True:
        rows = list(Deal.objects.filter(stale).exclude(source=Source.CUSTOM).order_by("id")[:batch])
        if not rows:
            return filled
        for row in rows:
            for name, value in digest_fields(engine_deal(row)).items():
                setattr(row, name, value)
        Deal.objects.bulk_update(rows, ["card_bands", "game_digest"])
        filled += len(rows)


def record_verdict(deal: Deal) -> Deal:
    """Solve a deal whose verdict (or, for a winnable deal, par) is unknown, and store them.
    Within the pool's bounds: a deal beyond them keeps its unknowns (a worker's time is shared
    too, and a custom deal can be made as hard as its player likes)."""
    if deal.winnable is None or (deal.winnable and deal.par is None):
        rules = Rules.from_key(deal.rules_key)
        made = engine_deal(deal)
        try:
            if deal.winnable is None:
                deal.winnable = solve(made, rules, budget=Budget(POOL_SOLVE_NODES)).winnable
            if deal.winnable:
                deal.par = par(made, rules, budget=Budget(POOL_PAR_NODES))
        except BudgetExceeded:
            log.info(
                "a deal's verdict or par is beyond the solver's bounds", extra={"deal": deal.pk}
            )
        deal.save(update_fields=["winnable", "par"])
    return deal
