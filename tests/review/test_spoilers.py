"""No spoilers on a deal that still ranks (docs/fair-play.md "No spoilers"): a numbered deal's
analysis comes without its lines until the viewer reveals them, and revealing them ends the
viewer's ranking on the deal as a hint does (first try and best-run boards alike)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leaderboard.models import AnswerSeen, DealBest, FirstTry, Result
from tests.review.helpers import client_for, deal, move, played, start
from tripeaks.play.models import Deal, Game
from tripeaks.review.payloads import AnalysisPayload
from tripeaks.review.services import store_analysis

pytestmark = pytest.mark.django_db

LINES = ("winning_line", "par_line", "shorter_from")


def _analysed(game: Game) -> Game:
    """The game with an analysis stored (as the solver's task would), lines and all."""
    payload: AnalysisPayload = {
        "state": "ready",
        "verdicts": ["winnable"] * 3 + ["lost"],
        "losing_move": 3,
        "winning_line": [12, "draw", 3],
        "par": 41,
        "par_line": [5, 6, "draw"],
        "over_par": None,
        "shorter_from": 2,
        "budget_nodes": 1000,
    }
    store_analysis(game=game, payload=payload, nodes=1000)
    return game


def _numbered_game(player: Any, number: int = 7) -> Game:
    return _analysed(played(player, deal("numbered", number=number)))


def _share(owner: Any, game: Game) -> str:
    made = client_for(owner).post(f"/api/games/{game.pk}/share")
    assert made.status_code == 201
    return str(made.json()["token"])


def _assert_hidden(body: dict[str, Any]) -> None:
    assert body["lines_hidden"] is True
    assert all(body[field] is None for field in LINES)
    # What the viewer may know without the answer: the verdicts, the losing move, par's length.
    assert body["verdicts"][-1] == "lost" and body["losing_move"] == 3 and body["par"] == 41


def _assert_shown(body: dict[str, Any]) -> None:
    assert body["lines_hidden"] is False
    assert body["winning_line"] == [12, "draw", 3] and body["par_line"] == [5, 6, "draw"]
    assert body["shorter_from"] == 2


def _later_run(player: Any, on: Deal) -> tuple[Game, dict[str, Any]]:
    """The player's next run on the deal: its view before the first move, then finished."""
    game = start(player, on)
    before = client_for(player).get(f"/api/games/{game.pk}").json()
    game = move(player, game, "draw")
    move(player, game, "resign")
    return game, before


def _assert_unranked_by_the_answer(player: Any, game: Game, before: dict[str, Any]) -> None:
    assert before["ranking"] == "unranked" and before["ranks"] is False
    assert before["ranking_code"] == "answer_seen"
    result = Result.objects.get(game=game)
    assert result.attempt == "unranked" and not result.on_boards
    after = client_for(player).get(f"/api/games/{game.pk}").json()
    assert after["ranking_code"] == "answer_seen" and after["ranks"] is False
    assert "solver" in after["ranking_reason"]


def test_own_numbered_game_hides_lines_until_revealed_then_never_ranks_again(alice: Any) -> None:
    game = _numbered_game(alice)
    api = client_for(alice)
    got = api.get(f"/api/games/{game.pk}/analysis")
    assert got.status_code == 200
    _assert_hidden(got.json())
    assert not AnswerSeen.objects.exists()  # a GET never writes
    before_reveal = DealBest.objects.get(player=alice, deal=game.deal)

    revealed = api.post(f"/api/games/{game.pk}/analysis/reveal")
    assert revealed.status_code == 200
    _assert_shown(revealed.json())
    assert AnswerSeen.objects.filter(player=alice, deal=game.deal).count() == 1
    _assert_shown(api.get(f"/api/games/{game.pk}/analysis").json())  # from now on

    later, before = _later_run(alice, game.deal)  # practice: the best-run board's
    _assert_unranked_by_the_answer(alice, later, before)
    assert DealBest.objects.get(player=alice, deal=game.deal).result_id == before_reveal.result_id


def test_a_second_account_with_the_link_reveals_and_loses_its_first_try(
    alice: Any, bob: Any, carol: Any
) -> None:
    game = _numbered_game(alice)
    token = _share(alice, game)
    api = client_for(bob)
    _assert_hidden(api.get(f"/api/replays/{token}/analysis").json())
    assert api.post(f"/api/games/{game.pk}/analysis/reveal").status_code == 404  # not by id
    revealed = api.post(f"/api/replays/{token}/analysis/reveal")
    assert revealed.status_code == 200
    _assert_shown(revealed.json())
    _assert_shown(api.get(f"/api/replays/{token}/analysis").json())
    # The owner has revealed nothing: still hidden for them.
    _assert_hidden(client_for(alice).get(f"/api/games/{game.pk}/analysis").json())

    later, before = _later_run(bob, game.deal)  # bob's first try on the deal
    _assert_unranked_by_the_answer(bob, later, before)
    assert not DealBest.objects.filter(player=bob).exists()
    assert not FirstTry.objects.filter(player=bob).exists()
    # Control: carol, who saw nothing, takes the same deal's first try onto its board.
    control, _ = _later_run(carol, game.deal)
    assert Result.objects.get(game=control).attempt == "first-try"
    assert DealBest.objects.filter(player=carol, deal=game.deal).exists()


def test_signed_out_with_the_link_gets_no_lines_and_cannot_reveal(alice: Any) -> None:
    game = _numbered_game(alice)
    token = _share(alice, game)
    anonymous = client_for(None)
    _assert_hidden(anonymous.get(f"/api/replays/{token}/analysis").json())
    refused = anonymous.post(f"/api/replays/{token}/analysis/reveal")
    assert refused.status_code == 401 and refused.json()["code"] == "sign_in_to_reveal"
    assert not AnswerSeen.objects.exists()
    assert anonymous.post(f"/api/games/{game.pk}/analysis/reveal").status_code == 404


def test_a_guest_reveals_and_is_marked(alice: Any) -> None:
    from tests.factories import UserFactory

    guest = UserFactory(username="guest-1", is_guest=True)
    game = _numbered_game(alice)
    token = _share(alice, game)
    assert client_for(guest).post(f"/api/replays/{token}/analysis/reveal").status_code == 200
    assert AnswerSeen.objects.filter(player=guest, deal=game.deal).exists()


def test_revealing_twice_makes_one_mark(alice: Any) -> None:
    game = _numbered_game(alice)
    api = client_for(alice)
    for _ in range(2):
        assert api.post(f"/api/games/{game.pk}/analysis/reveal").status_code == 200
    assert AnswerSeen.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_reveals_at_once_make_one_mark(alice: Any) -> None:
    game = _numbered_game(alice)
    codes: list[int] = []
    barrier = threading.Barrier(2)

    def reveal() -> None:
        try:
            barrier.wait()
            codes.append(
                client_for(alice).post(f"/api/games/{game.pk}/analysis/reveal").status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=reveal) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert codes == [200, 200]
    assert AnswerSeen.objects.count() == 1


def test_a_custom_deal_never_ranks_so_its_lines_come_at_once(alice: Any, bob: Any) -> None:
    game = _analysed(played(alice, deal("custom")))
    _assert_shown(client_for(alice).get(f"/api/games/{game.pk}/analysis").json())
    token = _share(alice, game)
    for viewer in (None, bob):
        _assert_shown(client_for(viewer).get(f"/api/replays/{token}/analysis").json())
    assert client_for(bob).post(f"/api/replays/{token}/analysis/reveal").status_code == 200
    assert not AnswerSeen.objects.exists()  # nothing to end: no mark


def test_a_hint_already_taken_on_the_deal_shows_the_lines(alice: Any) -> None:
    on = deal("numbered", number=12)
    hinted = move(alice, start(alice, on), "hint")
    assert hinted.hints == 1
    move(alice, hinted, "resign")
    game = _analysed(played(alice, on))
    _assert_shown(client_for(alice).get(f"/api/games/{game.pk}/analysis").json())


def test_a_pending_analysis_reveals_nothing_and_marks_nothing(alice: Any) -> None:
    game = played(alice, deal("numbered", number=3))
    assert client_for(alice).post(f"/api/games/{game.pk}/analysis/reveal").status_code == 202
    assert not AnswerSeen.objects.exists()


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/00000000-0000-0000-0000-000000000000/analysis/reveal",
        "/api/games/not-a-uuid/analysis/reveal",
        "/api/replays/AAAAAAAAAAAAAAAAAAAAAA/analysis/reveal",
        "/api/replays/short/analysis/reveal",
        "/api/replays/..%2F..%2Fetc/analysis/reveal",
    ],
)
def test_hostile_ids_and_tokens_are_404_and_mark_nothing(bob: Any, path: str) -> None:
    assert client_for(bob).post(path).status_code == 404
    assert not AnswerSeen.objects.exists()


def test_another_players_numbered_game_by_id_is_404(alice: Any, bob: Any) -> None:
    game = _numbered_game(alice)
    assert client_for(bob).post(f"/api/games/{game.pk}/analysis/reveal").status_code == 404
    assert client_for(bob).get(f"/api/games/{game.pk}/analysis").status_code == 404
    assert not AnswerSeen.objects.exists()


def test_a_revoked_link_reveals_nothing(alice: Any, bob: Any) -> None:
    game = _numbered_game(alice)
    token = _share(alice, game)
    client_for(alice).delete(f"/api/games/{game.pk}/share")
    assert client_for(bob).post(f"/api/replays/{token}/analysis/reveal").status_code == 404
    assert not AnswerSeen.objects.exists()


def _finish_queries(player: Any, on: Deal) -> int:
    game = move(player, start(player, on), "draw")
    with CaptureQueriesContext(connection) as queries:
        move(player, game, "resign")
    return len(queries)


def test_the_mark_costs_the_finish_no_query_over_a_hint(alice: Any, bob: Any) -> None:
    """The mark rides in the fair-play answers' one query: a finish after a reveal reads no more
    than one after a hint taken in an earlier game."""
    on = deal("numbered", number=21)
    played(alice, on)  # a first try, then a hint in a game with a move
    move(alice, move(alice, move(alice, start(alice, on), "draw"), "hint"), "resign")
    bob_game = _analysed(played(bob, on))  # a first try, then the reveal and a game
    assert client_for(bob).post(f"/api/games/{bob_game.pk}/analysis/reveal").status_code == 200
    played(bob, on)
    after_hint, after_reveal = _finish_queries(alice, on), _finish_queries(bob, on)
    assert after_reveal == after_hint
    assert Result.objects.filter(deal=on, attempt="unranked").count() == 4


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "keeps the winning line back"), ("de", "hält die Gewinnfolge"), ("ne", "सोल्भरको")],
)
def test_the_fair_play_page_says_so_in_every_language(
    client: Any, language: str, words: str
) -> None:
    page = client.get("/fair-play/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200 and words in page.content.decode()


def test_a_games_views_read_the_answer_mark_once(
    alice: Any, django_assert_num_queries: Any
) -> None:
    """Every move's view says why the run is unranked; the socket keeps one loaded game for its
    moves, so the mark is read for its first view only (before: one query more on every move of
    such a run)."""
    from tripeaks.play.payloads import live_ranking

    numbered = _numbered_game(alice)
    AnswerSeen.objects.create(player=alice, deal=numbered.deal, game=numbered)
    game = Game.objects.select_related("deal").get(pk=start(alice, numbered.deal).pk)
    assert game.ranking == "unranked"
    with django_assert_num_queries(1):
        assert live_ranking(game, guest=False) == "answer_seen"
    with django_assert_num_queries(0):
        assert live_ranking(game, guest=False) == "answer_seen"
