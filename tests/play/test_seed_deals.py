"""Issue #35 item 3: a fresh deployment deals at once. The repository ships solver-proven deals
for every random pool (tripeaks/play/seed_deals/), the stack's startup loads them into the empty
pools, and a random start on any layout and rules is dealt at once with no worker running. They
are public, so a game on one never ranks, a contest never gets one, and the workers' own deals
replace them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from leaderboard.models import PlayerStats, Result
from tests.play.helpers import api_moves, client_for, move
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.play import deals, seeding
from tripeaks.play.models import Deal, Game, Source
from tripeaks.play.tasks import refill_random_pool

pytestmark = pytest.mark.django_db

EVERY_POOL = {(rules.key, layout) for layout in LAYOUTS for rules in deals.POOL_RULE_SETS}


def pooled(**filters: Any) -> Any:
    return Deal.objects.filter(source=Source.RANDOM, claimed=False, **filters)


def shipped_in(layout: str, *, but: str = "") -> int:
    """How many deals the file ships for `layout`, leaving out the pool of rule set `but`."""
    entries = seeding.read_layout(seeding.layout_path(layout))
    return sum(1 for entry in entries if entry.rules_key != but)


def no_solving(*_: Any, **__: Any) -> Any:
    raise AssertionError("a start must not solve")


@pytest.fixture
def all_layouts(settings: Any) -> None:
    settings.RANDOM_POOL_LAYOUTS = ["*"]


# --------------------------------------------------------------------------- the shipped file


def test_the_file_holds_the_floor_of_deals_for_every_pool_and_every_line_wins() -> None:
    """Every deal's stored line, replayed through the engine, wins it (all of them: about 2,000
    replays, well under a second), and every pool the service offers has its share."""
    entries = seeding.read_all()
    held: dict[tuple[str, str], int] = {}
    for entry in entries:
        made = seeding.check(entry)  # raises unless the line wins and the par is the line's
        assert made.start == Rules.from_key(entry.rules_key).start
        held[(entry.rules_key, entry.layout)] = held.get((entry.rules_key, entry.layout), 0) + 1
    assert set(held) == EVERY_POOL
    assert min(held.values()) >= seeding.SEED_PER_POOL
    assert len({(entry.layout, entry.seed, entry.rules_key) for entry in entries}) == len(entries)


def _one_layout(tmp_path: Path, layout: str = "classic") -> list[seeding.SeedDeal]:
    entries = seeding.read_layout(seeding.layout_path(layout))
    seeding.write_layout(layout, entries, tmp_path)
    return entries


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda line: " ".join(line.split()[:-1]), id="a line one move short"),
        pytest.param(lambda line: "0 " + line, id="an illegal first move"),
        pytest.param(lambda line: line + " d", id="a move after the win"),
        pytest.param(lambda line: line.replace(" ", " x", 1), id="not a move"),
    ],
)
def test_a_file_whose_line_does_not_win_is_refused_and_nothing_is_loaded(
    tmp_path: Path, all_layouts: None, spoil: Any
) -> None:
    entries = _one_layout(tmp_path)
    bad = entries[3]._replace(line=spoil(entries[3].line))
    seeding.write_layout("classic", [*entries[:3], bad, *entries[4:]], tmp_path)
    with pytest.raises(seeding.SeedError):
        seeding.load_seed(tmp_path)
    assert not Deal.objects.exists()


def test_a_par_that_is_not_the_lines_is_refused(tmp_path: Path, all_layouts: None) -> None:
    entries = _one_layout(tmp_path)
    proven = next(entry for entry in entries if entry.par is not None)
    seeding.write_layout("classic", [proven._replace(par=proven.par - 1)], tmp_path)
    with pytest.raises(seeding.SeedError, match="par"):
        seeding.load_seed(tmp_path)
    assert not Deal.objects.exists()


def test_the_command_says_why_it_refuses(tmp_path: Path, all_layouts: None) -> None:
    entries = _one_layout(tmp_path)
    seeding.write_layout("classic", [entries[0]._replace(line="d")], tmp_path)
    with pytest.raises(CommandError, match="does not win"):
        call_command("load_seed_deals", "--dir", str(tmp_path))
    assert not Deal.objects.exists()


# --------------------------------------------------------------------------- loading on start


def test_after_the_startup_step_every_pool_holds_a_deal(all_layouts: None) -> None:
    call_command("load_seed_deals")
    counts: dict[tuple[str, str], int] = {}
    for key, layout in pooled().values_list("rules_key", "layout"):
        counts[(key, layout)] = counts.get((key, layout), 0) + 1
    assert set(counts) == EVERY_POOL and min(counts.values()) >= seeding.SEED_PER_POOL
    assert not pooled(seed__isnull=False).exists()  # all shipped: none has a seed of its own
    assert not pooled(winnable__isnull=True).exists() and not pooled(card_bands=[]).exists()


def test_loading_is_idempotent(all_layouts: None) -> None:
    first = seeding.load_seed()
    assert first == len(seeding.read_all())
    assert seeding.load_seed() == 0
    # A pool the players emptied is given only the shipped deals it has not dealt yet.
    rules = deals.POOL_RULE_SETS[0]
    shipped = pooled(rules_key=rules.key, layout="classic").count()
    taken = [deals.claim_random_deal(rules, "classic", shipped=True) for _ in range(2)]
    pooled(rules_key=rules.key, layout="classic").delete()
    assert seeding.load_seed() == shipped - 2
    dealt = set(Deal.objects.filter(pk__in=[deal.pk for deal in taken]).values_list("code"))
    assert not dealt & set(pooled(rules_key=rules.key, layout="classic").values_list("code"))
    assert Deal.objects.count() == first


def test_a_pool_a_worker_filled_gets_no_shipped_deal(settings: Any) -> None:
    settings.RANDOM_POOL_LAYOUTS = ["pyramid"]
    refill_random_pool("wrap-closed", "pyramid", 1)
    seeding.load_seed()
    assert pooled(layout="pyramid", rules_key="wrap-closed").count() == 1
    assert pooled(layout="pyramid", seed__isnull=True).count() == shipped_in(
        "pyramid", but="wrap-closed"
    )


# --------------------------------------------------------------------------- dealing


def test_with_no_worker_every_layout_and_rules_is_dealt_at_once(
    player: Any, broker: None, all_layouts: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh deployment after its startup step, no worker running yet: every pool deals, over
    the API for every layout (each under another rule set), and by a claim for every pool."""
    call_command("load_seed_deals")
    monkeypatch.setattr(deals, "make_random_deal", no_solving)
    monkeypatch.setattr(deals, "solve", no_solving)
    client = client_for(player)
    for index, layout in enumerate(LAYOUTS):
        rules = deals.POOL_RULE_SETS[index % len(deals.POOL_RULE_SETS)]
        body = {
            "mode": "random",
            "layout": layout,
            "rules": {"wrap": rules.wrap, "open": rules.open, "start": rules.start},
        }
        response = client.post("/api/games", body, format="json")
        assert response.status_code == 201, (layout, rules.key, response.content)
    for key, layout in sorted(EVERY_POOL):
        deal = deals.claim_random_deal(Rules.from_key(key), layout, shipped=True)
        assert deal.claimed and deal.shipped and deal.winnable


def test_a_workers_deal_goes_first_and_its_floor_retires_the_shipped_ones(
    settings: Any,
) -> None:
    settings.RANDOM_POOL_LAYOUTS = ["classic"]
    settings.RANDOM_POOL_SIZE = 2
    seeding.load_seed()
    rules = Rules()
    # Shipped deals do not count: the pool is empty to its refill, filled first.
    shortfalls = deals.pool_shortfalls()
    assert len(shortfalls) == 8 and {(item.held, item.missing) for item in shortfalls} == {(0, 2)}
    refill_random_pool(rules.key, "classic", 1)
    assert pooled(layout="classic", rules_key=rules.key, seed__isnull=True).exists()
    first = deals.claim_random_deal(rules, "classic", shipped=True)
    assert not first.shipped  # the worker's, though the shipped ones are older
    refill_random_pool(rules.key, "classic", 2)
    held = pooled(layout="classic", rules_key=rules.key)
    assert held.count() == 2 and not held.filter(seed__isnull=True).exists()
    assert pooled(layout="classic", seed__isnull=True).count() == shipped_in(
        "classic", but=rules.key
    )


def test_a_contest_never_gets_a_shipped_deal(broker: None, settings: Any) -> None:
    settings.RANDOM_POOL_LAYOUTS = ["classic"]
    seeding.load_seed()
    with pytest.raises(deals.PoolEmpty):
        deals.claim_random_deal(Rules(), "classic")
    assert not Deal.objects.filter(claimed=True).exists()


def test_a_game_on_a_shipped_deal_never_ranks(player: Any, settings: Any) -> None:
    """Anyone can read the file: a player who finds their deal in it knows every card. The game
    says so before the first move, and its win counts in the player's statistics only."""
    settings.RANDOM_POOL_LAYOUTS = ["classic"]
    seeding.load_seed()
    client = client_for(player)
    body = {"mode": "random", "layout": "classic", "rules": {"wrap": True}}
    game = client.post("/api/games", body, format="json").json()
    assert game["ranking"] == "unranked" and "shipped" in game["ranking_reason"]
    deal = Game.objects.select_related("deal").get(pk=game["id"]).deal
    entry = next(
        entry
        for entry in seeding.read_layout(seeding.layout_path("classic"))
        if seeding.check(entry).code == deal.code and entry.rules_key == deal.rules_key
    )
    for step in api_moves(seeding.parse_line(entry.line)):
        game = move(client, game, step["action"], step.get("position")).json()
    assert game["status"] == "won"
    result = Result.objects.get(game_id=game["id"])
    assert result.attempt == "unranked" and not result.counts_all_time
    stats = PlayerStats.objects.get(player=player, rules_key="all")
    assert stats.won == 1 and stats.board_won == 0


# --------------------------------------------------------------------------- the startup step


def test_make_run_loads_the_shipped_deals_after_migrate_before_anything_serves() -> None:
    from tripeaks.stack import prepare, run

    class Recorder:
        def __init__(self) -> None:
            self.calls: list[tuple[str, ...]] = []

        def run_once(self, *args: str) -> None:
            self.calls.append(args)

    supervisor = Recorder()
    run.migrate(supervisor, {"DEBUG": "1"})  # type: ignore[arg-type]
    # One process for the three steps (tripeaks/stack/prepare.py, forked as `stack-prepare`), in
    # this order.
    assert supervisor.calls == [("prepare", "tripeaks.stack.prepare")]
    assert [step[0] for step in prepare.STEPS] == ["migrate", "load_seed_deals", "collectstatic"]


def test_the_compose_web_service_loads_them_between_migrate_and_the_server() -> None:
    compose = (Path(__file__).resolve().parents[2] / "docker-compose.yml").read_text()
    (web,) = [line for line in compose.splitlines() if "manage.py migrate" in line]
    assert web.index("migrate") < web.index("load_seed_deals") < web.index("tripeaks.stack.serve")
