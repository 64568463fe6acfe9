"""The analysis: computed by the Celery task (never in a request), asked when a game finishes
or when first asked, stored once per game however often it is asked."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from celery import current_app
from django.conf import settings
from django.db import connection, transaction
from django.test import override_settings

from tests.play.helpers import winnable_code
from tests.review.helpers import client_for, deal, move, played, start
from tripeaks.engine.review import REVIEW_BUDGET_NODES
from tripeaks.play import solver_queue
from tripeaks.play.services import load_game_state
from tripeaks.review import analysis
from tripeaks.review.models import StoredAnalysis
from tripeaks.review.queue import ANALYSE_TASK, analysis_key

pytestmark = pytest.mark.django_db


def _queued() -> list[str]:
    """The games whose analysis waits in the solver queue."""
    with current_app.pool.acquire(block=True) as conn:
        raw = conn.default_channel.client.lrange(solver_queue.SOLVER_QUEUE, 0, -1)
    messages = [json.loads(item) for item in raw]
    assert all(m["headers"]["task"] == ANALYSE_TASK for m in messages)
    return [m["headers"]["argsrepr"] for m in messages]


def _drains_asked() -> list[str]:
    """The drain tasks waiting in the broker's default queue."""
    with current_app.pool.acquire(block=True) as conn:
        raw = conn.default_channel.client.lrange(settings.CELERY_TASK_DEFAULT_QUEUE, 0, -1)
    tasks = [json.loads(item)["headers"]["task"] for item in raw]
    return [task for task in tasks if task == solver_queue.DRAIN_TASK]


def _won(player: Any) -> Any:
    _, line = winnable_code()
    game = start(player, deal("custom"))
    for step in line:
        game = move(player, game, step["action"], step.get("position"))
    assert game.status == "won"
    return game


def _drawn_out(player: Any) -> Any:
    """Every stock card drawn and nothing played, then resigned: lost (the deal was winnable)."""
    game = start(player, deal("custom"))
    while game.finished_at is None and load_game_state(game).stock_left:
        game = move(player, game, "draw")
    return game if game.finished_at else move(player, game, "resign")


def test_a_won_game_is_analysed_by_the_task_and_served(alice: Any, worker_here: None) -> None:
    from tripeaks.review.tasks import analyse_game

    game = _won(alice)
    StoredAnalysis.objects.all().delete()  # as if the finish had asked nothing
    assert analyse_game(str(game.pk)) is True
    body = client_for(alice).get(f"/api/games/{game.pk}/analysis")
    assert body.status_code == 200
    payload = body.json()
    replay = client_for(alice).get(f"/api/games/{game.pk}/replay").json()
    assert len(payload["verdicts"]) == len(replay["positions"])
    assert set(payload["verdicts"]) == {"winnable"}
    assert payload["losing_move"] is None and payload["winning_line"] == []
    assert (
        payload["par"] is not None and payload["over_par"] == len(replay["moves"]) - payload["par"]
    )
    assert payload["budget_nodes"] == REVIEW_BUDGET_NODES and payload["state"] == "ready"


def test_a_lost_game_names_its_losing_move_and_a_winning_line(
    alice: Any, worker_here: None
) -> None:
    from tripeaks.review.tasks import analyse_game

    game = _drawn_out(alice)
    analyse_game(str(game.pk))
    payload = client_for(alice).get(f"/api/games/{game.pk}/analysis").json()
    losing = payload["losing_move"]
    assert losing is not None and payload["verdicts"][0] == "winnable"
    assert payload["verdicts"][losing - 1] == "winnable" and payload["verdicts"][losing] == "lost"
    assert payload["winning_line"]
    assert StoredAnalysis.objects.get(game=game).losing_move == losing


def test_a_finish_asks_for_its_analysis_after_the_commit(
    alice: Any, worker_here: None, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = _drawn_out(alice)
    stored = StoredAnalysis.objects.get(game=game)
    assert stored.nodes > 0 and stored.payload["verdicts"][-1] == "lost"
    assert client_for(alice).get(f"/api/games/{game.pk}/analysis").status_code == 200


def test_a_rolled_back_finish_asks_nothing(
    alice: Any, broker: None, django_capture_on_commit_callbacks: Any
) -> None:
    game = start(alice, deal("custom"))
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        move(alice, game, "resign")
        transaction.set_rollback(True)
    assert _queued() == []


def test_without_a_worker_nothing_is_queued_and_nothing_runs_in_the_request(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = _drawn_out(alice)  # the suite's settings: QUEUE_SOLVER_TASKS off
    response = client_for(alice).get(f"/api/games/{game.pk}/analysis")
    assert response.status_code == 202 and response.json() == {"state": "pending"}
    assert not StoredAnalysis.objects.exists()


def test_the_first_ask_queues_it_and_more_asks_queue_nothing_more(
    alice: Any, bob: Any, broker: None
) -> None:
    game = played(alice, deal("custom"))  # no on-commit here: the finish asked nothing
    token = client_for(alice).post(f"/api/games/{game.pk}/share").json()["token"]
    asks = [
        lambda: client_for(alice).get(f"/api/games/{game.pk}/analysis"),
        lambda: client_for(None).get(f"/api/replays/{token}/analysis"),
        lambda: client_for(bob).get(f"/api/replays/{token}/analysis"),
    ]
    for ask in asks:
        response = ask()
        assert response.status_code == 202 and response.json() == {"state": "pending"}
    assert _queued() == [repr((str(game.pk),))]
    games = client_for(alice).get("/api/me/games").json()["games"]
    assert games[0]["review"] == {"state": "pending", "losing_move": False}


@pytest.mark.django_db(transaction=True)
def test_two_asks_at_once_queue_one_task(alice: Any, broker: None) -> None:
    game = played(alice, deal("custom"))
    answers: list[int] = []
    start_together = threading.Barrier(4)

    def ask() -> None:
        try:
            start_together.wait()
            answers.append(client_for(alice).get(f"/api/games/{game.pk}/analysis").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [202] * 4
    solver_queue.send_deferred()  # the finish's own ask, deferred, as the drain sends it
    assert len(_queued()) == 1


@pytest.mark.django_db(transaction=True)
def test_finishes_defer_their_asks_to_one_drain_which_sends_each_once(
    alice: Any, bob: Any, broker: None
) -> None:
    """A game's finish asks for its analysis by one Redis call, not Celery's publish (770 us of a
    server's CPU): its key is held (the review says pending, a later ask asks nothing) and the
    first finish asks for one drain, which sends every finish's task to the solver queue."""
    games = [played(alice, deal("custom")), played(bob, deal("custom"))]
    assert _queued() == []
    assert _drains_asked() == [solver_queue.DRAIN_TASK]
    for player, game in zip((alice, bob), games, strict=True):
        recent = client_for(player).get("/api/me/games").json()["games"]
        assert recent[0]["id"] == str(game.pk)
        assert recent[0]["review"] == {"state": "pending", "losing_move": False}
        assert client_for(player).get(f"/api/games/{game.pk}/analysis").status_code == 202
    assert _queued() == []  # the asks found the finishes' keys held
    with current_app.pool.acquire(block=True) as conn:  # the drain's message lost: beat drains
        conn.default_channel.client.delete(settings.CELERY_TASK_DEFAULT_QUEUE)

    from tripeaks.play.tasks import send_deferred_asks

    assert send_deferred_asks() == 2
    assert sorted(_queued()) == sorted(repr((str(game.pk),)) for game in games)
    assert send_deferred_asks() == 0  # each sent once


def test_beat_drains_what_a_lost_drain_message_left(settings: Any) -> None:
    """A finish's ask outlives its drain's message: beat runs the drain too, off the solver
    queue (its tasks can take a minute)."""
    (entry,) = [
        entry
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
        if entry["task"] == solver_queue.DRAIN_TASK
    ]
    assert entry["schedule"] <= 60
    assert solver_queue.DRAIN_TASK not in settings.CELERY_TASK_ROUTES


@override_settings(SOLVER_QUEUE_MAX=0)
def test_a_full_solver_queue_leaves_it_for_a_later_ask(alice: Any, broker: None) -> None:
    game = played(alice, deal("custom"))
    assert client_for(alice).get(f"/api/games/{game.pk}/analysis").status_code == 202
    assert _queued() == []
    from django.core.cache import cache

    assert cache.get(analysis_key(game.pk)) is None  # asked again by the next ask


def test_the_task_stores_once_and_a_second_run_computes_nothing(
    alice: Any, worker_here: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tripeaks.review.tasks import analyse_game

    game = played(alice, deal("custom"))
    runs: list[str] = []
    real = analysis.analyse_game
    monkeypatch.setattr(analysis, "analyse_game", lambda g: runs.append(str(g.pk)) or real(g))
    assert analyse_game(str(game.pk)) is True
    assert analyse_game(str(game.pk)) is False
    assert runs == [str(game.pk)]
    assert StoredAnalysis.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_tasks_at_once_store_one_analysis(alice: Any) -> None:
    from tripeaks.review.tasks import analyse_game

    game = played(alice, deal("custom"))
    stored: list[bool] = []
    together = threading.Barrier(2)

    def run() -> None:
        try:
            together.wait()
            stored.append(analyse_game(str(game.pk)))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(stored) == [False, True]
    assert StoredAnalysis.objects.filter(game=game).count() == 1


def test_the_task_ignores_unfinished_and_unknown_games(alice: Any, worker_here: None) -> None:
    import uuid

    from tripeaks.review.tasks import analyse_game

    unfinished = played(alice, deal("custom"), finish=False)
    assert analyse_game(str(unfinished.pk)) is False
    assert analyse_game(str(uuid.uuid4())) is False
    assert not StoredAnalysis.objects.exists()


def test_an_idle_stack_stays_idle(settings: Any) -> None:
    """The review adds nothing to beat's schedule: it works only when a game ends or is asked."""
    assert not [
        entry for entry in settings.CELERY_BEAT_SCHEDULE.values() if "review" in entry["task"]
    ]
    assert settings.CELERY_TASK_ROUTES[ANALYSE_TASK] == {"queue": "solver"}


def test_the_deals_known_par_is_handed_to_the_analysis(alice: Any, worker_here: None) -> None:
    """A deal whose par the solver stored is analysed with it: the same answers, fewer nodes."""
    from tripeaks.engine.solver import par
    from tripeaks.review.selectors import engine_game
    from tripeaks.review.tasks import analyse_game

    game = _won(alice)
    StoredAnalysis.objects.all().delete()
    analyse_game(str(game.pk))
    searched = StoredAnalysis.objects.get(game=game)
    StoredAnalysis.objects.all().delete()
    played_ = engine_game(game)
    game.deal.par = par(played_.deal, played_.rules)
    game.deal.save(update_fields=["par"])
    analyse_game(str(game.pk))
    known = StoredAnalysis.objects.get(game=game)
    assert known.payload["par"] == searched.payload["par"] == game.deal.par
    assert known.payload["over_par"] == searched.payload["over_par"]
    assert known.nodes < searched.nodes
