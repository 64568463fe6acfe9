"""Real games through play's services end in the game-over info of result_for_game."""

from __future__ import annotations

from typing import Any

import pytest

from leaderboard.models import FirstTry, Result
from tests.play.helpers import api_moves, client_for, move, solution
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import solve
from tripeaks.play import deals
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Deal

pytestmark = pytest.mark.django_db


def winnable_numbered() -> tuple[Deal, list[dict[str, Any]]]:
    for number in range(1, 30):
        deal = deals.record_verdict(deals.numbered_deal(number, Rules()))
        if deal.winnable:
            return deal, api_moves(solve(deals.engine_deal(deal), Rules()).line)
    raise AssertionError("no winnable numbered deal among the first 29")


def play_through(user: Any, number: int, line: list[dict[str, Any]], hint: bool = False) -> Any:
    api = client_for(user)
    response = api.post("/api/games", {"mode": "numbered", "number": number}, format="json")
    assert response.status_code == 201, response.content
    game = response.json()
    if hint:
        game = move(api, game, "hint").json()
    for step in line:
        game = move(api, game, step["action"], step.get("position")).json()
    assert game["status"] == "won", game
    return game


def daily_game(user: Any, steps: list[dict[str, Any]]) -> tuple[Any, dict[str, Any]]:
    """A daily game started and played through `steps` by play's services: the game, its view."""
    from tripeaks.play import services
    from tripeaks.play.payloads import game_payload

    game = services.start_game(user=user, mode="daily", rules=Rules())
    view = game_payload(game, services.load_game_state(game), game.created_at)
    for step in steps:
        view = services.apply_move(game_id=game.pk, user=user, seq=view["seq"], **step).view
    return game, view


def test_winning_a_numbered_deal_first_tells_the_player_everything(make_user: Any) -> None:
    deal, line = winnable_numbered()
    game = play_through(make_user("pioneer"), deal.number, line)

    result = game["result"]
    assert result["won"] and result["mode"] == "numbered" and result["number"] == deal.number
    assert result["par"] == deal.par
    assert result["matched_par"] == (len(line) <= deal.par)
    kinds = {news["kind"] for news in result["announcements"]}
    assert kinds == {"first_win", "record"}
    assert result["board"]["rank"] == 1 and result["board"]["lines"] == 1
    assert result["board"]["this_run"] is True
    assert result["stats"]["played"] == 1 and result["stats"]["won"] == 1
    assert result["stats"]["current_streak"] == 1


def test_a_hinted_win_counts_in_statistics_but_does_not_rank(make_user: Any) -> None:
    deal, line = winnable_numbered()
    play_through(make_user("first"), deal.number, line)
    game = play_through(make_user("helped"), deal.number, line, hint=True)

    result = game["result"]
    assert result["assisted"] is True
    assert result["announcements"] == [] and result["board"] is None
    assert result["stats"]["won"] == 1


def test_custom_games_are_unranked(make_user: Any) -> None:
    from tests.play.helpers import start_custom, winnable_code

    user = make_user("tinker")
    api = client_for(user)
    code, line = winnable_code()
    game = start_custom(api, code)
    for step in line:
        game = move(api, game, step["action"], step.get("position")).json()
    result = game["result"]
    assert result["ranked"] is False and result["stats"] is None and result["board"] is None


@pytest.mark.django_db(transaction=True)  # the board's Redis set is updated after commit
@pytest.mark.parametrize("mode", ["daily", "numbered"])
def test_the_game_over_view_says_what_reading_the_game_again_says(
    mode: str, make_user: Any
) -> None:
    """The ending move's view is built from what its finish learnt; it must equal the view of
    the finished game read back: new lines, a better run, and a run worse than the player's own."""
    deal = deals.daily_deal(deal_day(), Rules()) if mode == "daily" else winnable_numbered()[0]
    winning = solution(deal)
    start = {"mode": mode} | ({"number": deal.number} if mode == "numbered" else {})
    runs = [("ann", winning), ("bob", [{"action": "draw"}, {"action": "resign"}])]
    runs += [("ann", [{"action": "draw"}, {"action": "resign"}]), ("bob", winning)]
    users = {name: make_user(name) for name in ("ann", "bob")}
    seen = []
    for name, steps in runs:
        api = client_for(users[name])
        game = api.post("/api/games", start, format="json").json()
        for step in steps:
            game = move(api, game, step["action"], step.get("position")).json()
        read_back = api.get(f"/api/games/{game['id']}").json()
        assert game["result"] == read_back["result"]
        board = game["result"]["board"]
        seen.append((board["rank"], board["lines"], board["this_run"], board["best"]["won"]))
    assert seen[:3] == [
        (1, 1, True, True),
        (2, 2, True, False),
        (1, 2, False, True),
    ]
    # Bob's win is his best; which win leads is a matter of time or of finishing first.
    assert seen[3][1:] == (2, True, True)


@pytest.mark.django_db(transaction=True)  # the after-commit work (board set, live update) runs
def test_a_returning_players_ending_move_reads_nothing_back(
    make_user: Any, django_assert_num_queries: Any, settings: Any
) -> None:
    """Lock the game; store the move and the game (one statement); lock the statistics rows (asking whether staff
    took the player off the boards and how the game was timed), store the result, both statistics
    rows with the line read (one statement), store the line, settle the record; commit. The view is built from what the finish learnt:
    no query after the commit."""
    from tripeaks.play import services

    # The fair-play answers (timing, first try, hints seen, second accounts) are columns of the
    # statistics lock whether the timing check is on or off; off here: these runs are machine-fast.
    user = make_user("regular")

    daily_game(user, [{"action": "draw"}, {"action": "resign"}])  # a board line, statistics rows
    *before_the_end, last = solution(deals.daily_deal(deal_day(), Rules()))
    game, view = daily_game(user, before_the_end)
    with django_assert_num_queries(9):  # were 10: the statistics stored on their own
        view = services.apply_move(game_id=game.pk, user=user, seq=view["seq"], **last).view
    assert view["status"] == "won" and view["result"]["board"]["this_run"] is True
    assert view["result"]["stats"]["played"] == 2

    # A run that leaves the board alone (a loss after that win) reads the board's size with the
    # player's line, and settles no record: two statements fewer.
    game, view = daily_game(user, [{"action": "draw"}])
    with django_assert_num_queries(7):  # were 8, as above
        view = services.apply_move(
            game_id=game.pk, user=user, seq=view["seq"], action="resign"
        ).view
    board = view["result"]["board"]
    assert view["status"] == "lost" and board["this_run"] is False
    winning_moves = len(before_the_end) + 1
    assert (board["lines"], board["rank"], board["best"]["moves"]) == (1, 1, winning_moves)
    assert view["result"]["stats"]["played"] == 3


@pytest.mark.django_db(transaction=True)  # the after-commit work (board sets, live update) runs
def test_a_daily_first_try_writes_its_first_try_line_with_one_more_statement(
    make_user: Any, django_assert_num_queries: Any
) -> None:
    """In the transaction: the returning player's ending move above (9, the fair-play answers
    riding on the statistics lock) plus the first-try line's insert. After the commit: this is the
    board's first line, so both rank sets are cold: each is rebuilt (a Celery task, eager here)
    and the line's rank counted once meanwhile (4); the live update's total then comes from the
    first-try set."""
    from tripeaks.play import services
    from tripeaks.play.payloads import game_payload

    user = make_user("newcomer")
    api = client_for(user)
    api.post("/api/games", {"mode": "random"}, format="json")  # statistics rows, then resigned
    random_game = services.start_game(user=user, mode="random", rules=Rules())
    services.apply_move(game_id=random_game.pk, user=user, seq=0, action="draw")
    services.apply_move(game_id=random_game.pk, user=user, seq=1, action="resign")

    *before_the_end, last = solution(deals.daily_deal(deal_day(), Rules()))
    game = services.start_game(user=user, mode="daily", rules=Rules())
    assert game.ranking == "first-try"
    view = game_payload(game, services.load_game_state(game), game.created_at)
    for step in before_the_end:
        view = services.apply_move(game_id=game.pk, user=user, seq=view["seq"], **step).view
    with django_assert_num_queries(14):  # were 15: the statistics stored on their own
        view = services.apply_move(game_id=game.pk, user=user, seq=view["seq"], **last).view
    assert view["result"]["attempt"] == "first-try" and view["result"]["board"]["rank"] == 1
    assert FirstTry.objects.get().result_id == Result.objects.get(game_id=game.pk).pk


@pytest.mark.django_db(transaction=True)  # as above: the after-commit work runs
def test_a_flagged_runs_ending_move_reads_the_players_line_and_the_boards_size_at_once(
    make_user: Any, django_assert_num_queries: Any, settings: Any
) -> None:
    """A run the timing check flags leaves the board alone and ranks nothing: its game-over view
    shows the player's earlier line with the board's size, read in one statement (it was two of
    the ORM's, 5% of a server's CPU in bench.play_load, whose machine-fast runs are all flagged).
    Begin; lock the game; store the move; lock the statistics rows; store the result; store the
    statistics and read the line with the board's size (one statement, where the line was read
    after the commit); commit."""
    from tripeaks.play import services

    user = make_user("machine")

    daily_game(user, [{"action": "draw"}, {"action": "resign"}])  # a board line, statistics rows
    settings.FAIR_PLAY_TIMING_CHECK = True
    *before_the_end, last = solution(deals.daily_deal(deal_day(), Rules()))
    game, view = daily_game(user, before_the_end)
    with django_assert_num_queries(7):  # were 8
        view = services.apply_move(game_id=game.pk, user=user, seq=view["seq"], **last).view
    result = Result.objects.get(game_id=game.pk)
    assert view["status"] == "won" and result.flagged and not result.on_boards
    board = view["result"]["board"]
    assert (board["lines"], board["rank"], board["this_run"]) == (1, 1, False)
    assert board["best"]["won"] is False and board["best"]["player"]["username"] == "machine"
