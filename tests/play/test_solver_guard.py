"""Solver work where a request waits: a hint within its budget answers honestly, and solver calls
are limited per player and in total (429/503 with Retry-After), before any database work."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import redis
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from tests.play.helpers import client_for, move
from tripeaks.engine.deal import from_seed
from tripeaks.engine.game import new_game
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import solve
from tripeaks.infra import redis_client
from tripeaks.play import solver_guard
from tripeaks.play.models import Game

pytestmark = pytest.mark.django_db

# `waves` without wrap, seed 5: both searches need far more than a request's budget (a hint
# unbounded: seconds of CPU). See tests/engine/test_solver_budget.py.
HARD_CODE = from_seed(5, get_layout("waves")).code
# `waves` without wrap, seed 1: the fewest-draws search takes millions of nodes, the depth-first
# one a few dozen: a certain hint, though not the one with the fewest draws.
DEEP_CODE = from_seed(1, get_layout("waves")).code


@pytest.fixture(autouse=True)
def _node_budget_decides(settings: Any) -> None:
    """The node budget (deterministic) decides; the deadline would make these depend on how busy
    the machine is (tests/engine/test_solver_budget.py tests it on its own)."""
    settings.SOLVER_BUDGET_MS = 60_000


def start(api: Any, code: str, layout: str = "waves", wrap: bool = False) -> dict[str, Any]:
    body = {"mode": "custom", "deal": code, "layout": layout, "rules": {"wrap": wrap}}
    response = api.post("/api/games", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_a_hint_on_a_slow_custom_deal_answers_no_certain_hint(player: Any) -> None:
    api = client_for(player)
    game = start(api, HARD_CODE)
    response = move(api, game, "hint")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["hint"] == {"move": None, "winnable": None, "certain": False, "fewest_draws": False}
    # Asked and answered: it counts as a hint (the game is assisted), like any other.
    assert body["seq"] == 1 and body["hints"] == 1 and body["assisted"] is True


def test_when_the_fewest_draws_run_out_a_hint_still_keeps_the_game_winnable(player: Any) -> None:
    api = client_for(player)
    game = start(api, DEEP_CODE)
    body = move(api, game, "hint").json()
    hint = body["hint"]
    assert hint["certain"] is True and hint["fewest_draws"] is False and hint["winnable"] is True
    after = move(api, body, hint["move"]["action"], hint["move"].get("position"))
    assert after.status_code == 200
    state = solver_guard_state(after.json()["id"])
    assert solve(state.deal, state.rules, state.position).winnable


def solver_guard_state(game_id: str) -> Any:
    from tripeaks.play.services import load_game_state

    return load_game_state(Game.objects.select_related("deal").get(pk=game_id))


def test_an_easy_hint_is_certain_and_the_best(player: Any) -> None:
    api = client_for(player)
    code = from_seed(41, get_layout("classic")).code
    game = start(api, code, layout="classic", wrap=True)
    hint = move(api, game, "hint").json()["hint"]
    assert hint["certain"] is True and hint["fewest_draws"] is True and hint["winnable"] is True
    assert hint["move"] is not None


def test_with_no_budget_left_a_hint_is_never_a_guess() -> None:
    state = new_game(from_seed(41, get_layout("classic")), Rules())
    with override_settings(SOLVER_BUDGET_NODES=0):
        assert solver_guard.budgeted_hint(state) == {
            "move": None,
            "winnable": None,
            "certain": False,
            "fewest_draws": False,
        }


@override_settings(SOLVER_MAX_CONCURRENT=2)
def test_beyond_the_global_limit_a_hint_is_a_503_with_retry_after(make_player: Any) -> None:
    api = client_for(make_player("hinter"))
    game = start(api, HARD_CODE)
    with (
        solver_guard.solver_slot(solver_guard.Asker("someone")),
        solver_guard.solver_slot(solver_guard.Asker("someone-else")),
    ):
        refused = move(api, game, "hint")
        assert refused.status_code == 503, refused.content
        assert refused["Retry-After"] == "1" and refused.json()["code"] == "solver_busy"
        # Refused before anything was written: the game did not move on.
        assert Game.objects.get(pk=game["id"]).seq == 0
        # Another player's plain request is not held up by the solver's limit.
        other = client_for(make_player("bystander"))
        assert other.get("/api/me").status_code == 200
    # The slots are free again: the hint is answered.
    assert move(api, game, "hint").status_code == 200


def test_a_player_already_solving_gets_a_429(player: Any) -> None:
    api = client_for(player)
    game = start(api, HARD_CODE)
    with solver_guard.solver_slot(solver_guard.Asker(player.pk)):
        refused = move(api, game, "hint")
    assert refused.status_code == 429, refused.content
    assert refused["Retry-After"] == "1" and refused.json()["code"] == "throttled"
    assert move(api, game, "hint").status_code == 200


def test_a_player_over_the_solver_rate_gets_a_429(player: Any, settings: Any) -> None:
    # An hour's window: a minute's could turn between the hints and start the count again.
    settings.PLAY_THROTTLE_RATES = {**settings.PLAY_THROTTLE_RATES, "solver": "3/hour"}
    api = client_for(player)
    game = start(api, from_seed(41, get_layout("classic")).code, layout="classic", wrap=True)
    for _ in range(3):
        answered = move(api, game, "hint")
        assert answered.status_code == 200
        game = answered.json()
    refused = move(api, game, "hint")
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 3600
    # Other moves are not solver work: not limited by it.
    assert move(api, game, "draw").status_code == 200


def test_a_lease_of_a_process_that_died_expires(settings: Any) -> None:
    settings.SOLVER_MAX_CONCURRENT = 1
    held = solver_guard.solver_slot(solver_guard.Asker("crashed"))
    held.__enter__()  # never released, as if its process died
    with (
        pytest.raises(solver_guard.SolverBusy),
        solver_guard.solver_slot(solver_guard.Asker("next")),
    ):
        pass
    client = redis_client.client()
    key = solver_guard._keys(solver_guard.Asker())[0]
    # Every lease carries its expiry: move it into the past instead of waiting LEASE_SECONDS.
    for token, _ in client.zrange(key, 0, -1, withscores=True):
        client.zadd(key, {token: 0})
    with solver_guard.solver_slot(solver_guard.Asker("next")):
        pass


def refused(error: type[Exception], player: str) -> bool:
    try:
        with solver_guard.solver_slot(solver_guard.Asker(player)):
            return False
    except error:
        return True


SWARM = "203.0.113.5"  # one address, many guests (a documentation range: never a real host)


def test_a_swarm_behind_one_address_gets_that_addresss_share_of_the_solver() -> None:
    """The fault: 30 guests from one address took every solver slot, and 35 % of other players'
    hints were refused. Now an address holds at most half the slots (one of two)."""
    with solver_guard.solver_slot(solver_guard.Asker("guest-1", SWARM)):
        with (
            pytest.raises(solver_guard.SolverBusy, match="your network"),
            solver_guard.solver_slot(solver_guard.Asker("guest-2", SWARM)),
        ):
            pass
        with solver_guard.solver_slot(solver_guard.Asker("bystander", "198.51.100.7")):
            pass
    with solver_guard.solver_slot(solver_guard.Asker("guest-2", SWARM)):
        pass  # released: the address's share is free again


def test_an_address_over_its_solver_rate_gets_a_429_whoever_asks(settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = {**settings.PLAY_THROTTLE_RATES, "solver_address": "3/hour"}
    for n in range(3):
        with solver_guard.solver_slot(solver_guard.Asker(f"guest-{n}", SWARM)):
            pass
    with (
        pytest.raises(solver_guard.SolverThrottled),
        solver_guard.solver_slot(solver_guard.Asker("guest-3", SWARM)),
    ):
        pass
    with solver_guard.solver_slot(solver_guard.Asker("guest-3", "198.51.100.7")):
        pass


def test_a_hint_counts_against_the_address_its_game_was_started_from(make_player: Any) -> None:
    swarm = client_for(make_player("swarm-guest"))
    swarm.defaults["REMOTE_ADDR"] = SWARM
    game = start(swarm, from_seed(41, get_layout("classic")).code, layout="classic", wrap=True)
    other = client_for(make_player("bystander"))
    elsewhere = start(other, from_seed(41, get_layout("classic")).code, layout="classic", wrap=True)
    with solver_guard.solver_slot(solver_guard.Asker("another-guest", SWARM)):
        refused = move(swarm, game, "hint")
        assert refused.status_code == 503 and refused.json()["code"] == "solver_busy"
        assert Game.objects.get(pk=game["id"]).seq == 0
        assert move(other, elsewhere, "hint").status_code == 200
    assert move(swarm, game, "hint").status_code == 200


def heavy(player: str) -> None:
    """`player` asks for solver work over and over, as a script does (within its rate)."""
    for _ in range(solver_guard.LIGHT_CALLS):
        with solver_guard.solver_slot(solver_guard.Asker(player)):
            pass


def test_a_persons_occasional_hint_finds_the_slot_kept_for_light_askers() -> None:
    """The fault: six accounts of one script, each within its rate, kept both slots busy, and
    35 % of other players' hints were refused. Heavy askers now share all slots but one."""
    for bot in ("bot-1", "bot-2"):
        heavy(bot)
    with solver_guard.solver_slot(solver_guard.Asker("bot-1")):
        with (
            pytest.raises(solver_guard.SolverBusy),
            solver_guard.solver_slot(solver_guard.Asker("bot-2")),
        ):
            pass
        with solver_guard.solver_slot(solver_guard.Asker("person")):
            pass


def test_a_light_askers_hint_waits_a_moment_for_a_slot_a_heavy_one_does_not(
    make_player: Any, settings: Any
) -> None:
    settings.SOLVER_MAX_CONCURRENT = 1
    settings.SOLVER_WAIT_MS = 5_000
    person = make_player("person")
    api = client_for(person)
    game = start(api, from_seed(41, get_layout("classic")).code, layout="classic", wrap=True)
    held = solver_guard.solver_slot(solver_guard.Asker("someone"))
    held.__enter__()
    releaser = threading.Timer(0.2, held.__exit__, args=(None, None, None))
    releaser.start()
    try:
        answered = move(api, game, "hint")
        assert answered.status_code == 200, answered.content  # once the slot was free
    finally:
        releaser.join()
    heavy(str(person.pk))
    with solver_guard.solver_slot(solver_guard.Asker("someone")):
        game = api.get(f"/api/games/{game['id']}").json()
        refused = move(api, game, "hint")
    assert refused.status_code == 503  # a heavy asker is refused at once, however long the wait


def test_a_script_asking_again_as_soon_as_answered_does_not_take_the_kept_slot() -> None:
    """The fault (bench/solver_share.py, 3.2 % of victims' hints refused): a fresh account was a
    light asker for its first LIGHT_CALLS calls of a window, so six accounts asking back to back
    took every slot at each window's start. Asking again within LIGHT_GAP_S is heavy."""
    with solver_guard.solver_slot(solver_guard.Asker("bot-1")):
        pass  # its first call: light
    with solver_guard.solver_slot(solver_guard.Asker("bot-2")):
        with (
            pytest.raises(solver_guard.SolverBusy),
            solver_guard.solver_slot(solver_guard.Asker("bot-1")),
        ):
            pass
        with solver_guard.solver_slot(solver_guard.Asker("person")):
            pass


def test_solver_slots_unreachable_refuse_solver_work(monkeypatch: Any) -> None:
    """No Redis, no slots: refused (503) rather than every thread of every process solving."""

    def down(*args: Any, **kwargs: Any) -> Any:
        raise redis.exceptions.ConnectionError("Redis is down")

    monkeypatch.setattr(redis_client, "client", down)
    with (
        pytest.raises(solver_guard.SolverBusy),
        solver_guard.solver_slot(solver_guard.Asker("someone", "198.51.100.7"), wait=True),
    ):
        pass


def test_a_refused_hint_on_a_game_hinted_before_does_not_read_the_game(
    player: Any, settings: Any
) -> None:
    """A swarm's refusals slowed every request (bench/solver_share.py, p50 45 -> 525 ms): a
    refused request must be cheap. The game's start address (what its hints count against) is
    read once; the refusal comes before any query of the game."""
    settings.PLAY_THROTTLE_RATES = {**settings.PLAY_THROTTLE_RATES, "solver": "1/hour"}
    api = client_for(player)
    game = start(api, from_seed(41, get_layout("classic")).code, layout="classic", wrap=True)
    game = move(api, game, "hint").json()
    table = Game._meta.db_table
    with CaptureQueriesContext(connection) as queries:
        refused = move(api, game, "hint")
    assert refused.status_code == 429
    assert [q["sql"] for q in queries.captured_queries if table in q["sql"]] == []
