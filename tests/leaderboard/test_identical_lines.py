"""Issue 34, item 6: what the device and address rules cannot see, two people on two networks
sharing a line, shows in the review queue as one line won by several accounts on one deal."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from leaderboard import selectors
from leaderboard.selectors.identical_lines import line_of
from tests.leaderboard.test_first_try import LOSS, play, start
from tests.leaderboard.test_second_accounts import player
from tests.play.helpers import solution
from tripeaks.engine.rules import Rules
from tripeaks.play import deals
from tripeaks.play.dealday import deal_day

pytestmark = pytest.mark.django_db


def test_a_line_is_what_the_moves_came_to() -> None:
    log = ["draw", "play", "undo", "play", "restart", "play", "hint", "draw", "play", "undo"]
    positions = [None, 3, None, 4, None, 7, None, None, 9, None]
    assert line_of(log, positions) == (7, -1)
    assert line_of(["undo", "draw"], [None, None]) == (-1,)


def test_a_scouts_search_and_anothers_clean_replay_are_one_line_in_the_review_queue(
    make_user: Any,
) -> None:
    """The scout searches today's deal (draws, undos, a restart) to a win; a friend on another
    device and network plays the same line cleanly: nothing holds it, the queue shows both."""
    winning = solution(deals.daily_deal(deal_day(), Rules()))
    scout = player(make_user("scout"), device="s" * 20, address="81.2.69.1")
    search = [{"action": "draw"}, {"action": "draw"}, {"action": "undo"}, {"action": "restart"}]
    search += winning[:5] + [{"action": "undo"}] * 5 + winning
    assert play(scout, start(scout), search)["status"] == "won"
    friend = player(make_user("friend"), device="f" * 20, address="203.0.113.9")
    replay = play(friend, start(friend), winning)
    assert replay["status"] == "won" and replay["result"]["held"] is False
    loser = player(make_user("loser"), device="l" * 20, address="198.51.100.7")
    play(loser, start(loser), LOSS)
    again = play(scout, start(scout), winning)  # the scout's own practice: not another account
    assert again["result"]["attempt"] == "practice"

    [same] = selectors.identical_lines()
    assert same.players == ["friend", "scout"] and same.moves == len(winning)
    assert [run.player.username for run in same.runs] == ["scout", "friend", "scout"]

    staff = Client()
    staff.force_login(make_user("referee", is_staff=True))
    page = staff.get("/staff/review/").content.decode()
    assert 'data-testid="identical-line"' in page and "friend, scout" in page


def test_different_lines_and_a_single_account_are_not_listed(make_user: Any) -> None:
    winning = solution(deals.daily_deal(deal_day(), Rules()))
    one = player(make_user("one"), device="o" * 20)
    play(one, start(one), winning)
    play(one, start(one), winning)
    two = player(make_user("two"), device="t" * 20, address="81.2.69.2")
    play(two, start(two), LOSS)
    assert selectors.identical_lines() == []
    staff = Client()
    staff.force_login(make_user("referee", is_staff=True))
    assert (
        "No line was won by more than one account." in staff.get("/staff/review/").content.decode()
    )
