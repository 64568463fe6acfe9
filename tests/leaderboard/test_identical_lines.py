"""Issue 34, item 6: what the device and address rules cannot see, two people on two networks
sharing a line, shows in the review queue as one line won by several accounts on one deal."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from leaderboard import selectors
from leaderboard.lines import line_of
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


def test_the_finder_reads_no_move_log_unless_two_accounts_share_a_line(
    make_user: Any, django_assert_max_num_queries: Any
) -> None:
    """Before, every staff page load read the logs of every won run of two days (one query over
    all their moves); now the won runs' stored line digests are grouped, and only a shared
    line's runs are read."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tripeaks.play.models import Move

    winning = solution(deals.daily_deal(deal_day(), Rules()))
    one = player(make_user("one"), device="o" * 20, address="81.2.69.1")
    assert play(one, start(one), winning)["status"] == "won"
    moves_table = Move._meta.db_table
    with CaptureQueriesContext(connection) as alone:
        assert selectors.identical_lines() == []
    assert len(alone) == 1 and moves_table not in alone[0]["sql"]
    two = player(make_user("two"), device="t" * 20, address="203.0.113.9")
    assert play(two, start(two), winning)["status"] == "won"
    with django_assert_max_num_queries(2):
        [same] = selectors.identical_lines()
    assert same.players == ["one", "two"]


def test_the_backfill_migration_digests_a_line_as_the_finishing_path_does() -> None:
    import importlib
    import random

    from leaderboard.lines import line_digest

    migration = importlib.import_module("leaderboard.migrations.0006_result_line_digest")
    pick = random.Random(7)
    for _ in range(200):
        log = [
            (pick.choice(["play", "draw", "undo", "restart", "hint"]), pick.randrange(28))
            for _ in range(pick.randrange(40))
        ]
        positions = [position if action == "play" else None for action, position in log]
        actions = [action for action, _ in log]
        expected = line_digest(line_of(actions, positions))
        assert migration.frozen_line_digest(zip(actions, positions, strict=True)) == expected
