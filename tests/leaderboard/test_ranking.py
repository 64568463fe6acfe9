"""Every ranking rule and tie-break of the daily and numbered boards, one line per player,
assisted and custom runs, records and what the player is told."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from leaderboard.models import BoardExclusion, DealBest, DealRecord, PlayerStats, Result
from leaderboard.selectors import daily_record, deal_board, numbered_record
from tests.leaderboard.helpers import T0, daily, finish, numbered, other

pytestmark = pytest.mark.django_db

DAY = date(2026, 3, 1)


def board_names(record: Any) -> list[str]:
    return [line["player"]["username"] for line in deal_board(record).lines]


def test_daily_board_puts_wins_first_then_shorter_time_then_fewer_moves_then_earlier_finish(
    make_user: Any,
) -> None:
    deal = daily(DAY)
    finish(make_user("loser_fast"), deal, won=False, time_ms=1_000, at=T0)
    finish(make_user("slow"), deal, time_ms=90_000, moves=30, at=T0)
    finish(make_user("fast_many"), deal, time_ms=50_000, moves=45, at=T0)
    finish(make_user("fast_few_late"), deal, time_ms=50_000, moves=41, at=T0 + timedelta(1))
    finish(make_user("fast_few_early"), deal, time_ms=50_000, moves=41, at=T0)

    assert board_names(daily_record(DAY, "wrap-closed")) == [
        "fast_few_early",
        "fast_few_late",
        "fast_many",
        "slow",
        "loser_fast",
    ]


def test_two_runs_finishing_at_the_same_moment_rank_by_who_was_stored_first(
    make_user: Any,
) -> None:
    deal = daily(DAY)
    first = finish(make_user("first"), deal, time_ms=50_000, moves=41, at=T0)
    second = finish(make_user("second"), deal, time_ms=50_000, moves=41, at=T0)
    assert first.pk < second.pk
    page = deal_board(daily_record(DAY, "wrap-closed"))
    assert [(line["rank"], line["player"]["username"]) for line in page.lines] == [
        (1, "first"),
        (2, "second"),
    ]


def test_a_player_has_one_line_their_best_run(make_user: Any) -> None:
    deal = daily(DAY)
    alice = make_user("alice")
    finish(alice, deal, won=False, at=T0)
    finish(alice, deal, time_ms=80_000, at=T0 + timedelta(minutes=5))
    finish(alice, deal, time_ms=70_000, at=T0 + timedelta(minutes=10))
    finish(alice, deal, time_ms=75_000, at=T0 + timedelta(minutes=15))  # worse: kept out

    page = deal_board(daily_record(DAY, "wrap-closed"))
    assert page.total == 1
    assert [(line["won"], line["time_ms"]) for line in page.lines] == [(True, 70_000)]
    assert DealBest.objects.filter(player=alice).count() == 1


def test_assisted_runs_count_in_statistics_but_never_rank(make_user: Any) -> None:
    deal = daily(DAY)
    hinted = make_user("hinted")
    result = finish(hinted, deal, time_ms=1_000, assisted=True, at=T0)
    finish(make_user("honest"), deal, time_ms=99_000, at=T0)

    assert board_names(daily_record(DAY, "wrap-closed")) == ["honest"]
    assert not result.first_win and not result.new_record
    assert PlayerStats.objects.get(player=hinted, rules_key="all").won == 1
    record = DealRecord.objects.get(deal=deal)
    assert record.holder.username == "honest" and record.first_winner.username == "honest"


def test_a_player_staff_took_off_the_boards_is_kept_off_from_their_first_run(
    make_user: Any,
) -> None:
    """Asked with the lock on the statistics rows: a new player's (made first) and a returning
    player's alike."""
    banned = make_user("banned")
    BoardExclusion.objects.create(player=banned, reason="bot")
    deal = numbered()
    runs = [finish(banned, deal, moves=20), finish(banned, daily(DAY), time_ms=1_000)]
    assert [run.hidden for run in runs] == [True, True]
    assert not any(run.personal_best or run.new_record or run.first_win for run in runs)
    assert not DealBest.objects.filter(player=banned).exists()
    assert not DealRecord.objects.exists()
    assert PlayerStats.objects.get(player=banned, rules_key="all").won == 2
    honest = finish(make_user("honest"), deal, moves=50)
    assert not honest.hidden and honest.new_record
    assert board_names(DealRecord.objects.get(deal=deal)) == ["honest"]


def test_custom_deals_count_nowhere_but_are_kept_as_results(make_user: Any) -> None:
    player = make_user("custom")
    result = finish(player, other("custom"), at=T0)
    assert result.ranked is False
    assert not PlayerStats.objects.filter(player=player).exists()
    assert not DealBest.objects.exists() and not DealRecord.objects.exists()
    assert Result.objects.filter(player=player).count() == 1


def test_random_deals_count_in_statistics_but_have_no_board(make_user: Any) -> None:
    player = make_user("rnd")
    finish(player, other("random"), at=T0)
    assert PlayerStats.objects.get(player=player, rules_key="wrap-closed").won == 1
    assert not DealBest.objects.exists()


def test_boards_are_per_rule_set(make_user: Any) -> None:
    finish(make_user("closed"), daily(DAY, "wrap-closed"), at=T0)
    finish(make_user("open"), daily(DAY, "wrap-open"), at=T0)
    assert board_names(daily_record(DAY, "wrap-closed")) == ["closed"]
    assert board_names(daily_record(DAY, "wrap-open")) == ["open"]


def test_numbered_board_ranks_fewest_cards_left_then_fewest_moves_then_first(
    make_user: Any,
) -> None:
    deal = numbered(77)
    finish(make_user("three_left"), deal, won=False, cards_left=3, moves=20, at=T0)
    finish(make_user("one_left"), deal, won=False, cards_left=1, moves=60, at=T0)
    finish(make_user("won_slow"), deal, moves=50, time_ms=999_000, at=T0)
    finish(make_user("won_late"), deal, moves=45, time_ms=1_000, at=T0 + timedelta(1))
    finish(make_user("won_first"), deal, moves=45, time_ms=500_000, at=T0)

    assert board_names(numbered_record(77, "wrap-closed", "classic")) == [
        "won_first",
        "won_late",
        "won_slow",
        "one_left",
        "three_left",
    ]


def test_first_win_record_and_personal_best_are_announced(make_user: Any) -> None:
    deal = numbered(5)
    alice, bob = make_user("alice"), make_user("bob")

    opening = finish(alice, deal, won=False, cards_left=4, at=T0)
    assert (opening.first_win, opening.new_record, opening.personal_best) == (False, True, False)

    better = finish(alice, deal, won=False, cards_left=2, at=T0 + timedelta(1))
    assert (better.first_win, better.new_record, better.personal_best) == (False, True, True)

    first_win = finish(bob, deal, moves=50, at=T0 + timedelta(2))
    assert (first_win.first_win, first_win.new_record, first_win.personal_best) == (
        True,
        True,
        False,
    )

    tie = finish(alice, deal, moves=50, at=T0 + timedelta(3))
    assert (tie.first_win, tie.new_record, tie.personal_best) == (False, False, True)

    record_again = finish(alice, deal, moves=49, at=T0 + timedelta(4))
    assert (record_again.first_win, record_again.new_record) == (False, True)

    worse = finish(bob, deal, moves=70, at=T0 + timedelta(5))
    assert (worse.first_win, worse.new_record, worse.personal_best) == (False, False, False)

    record = DealRecord.objects.get(deal=deal)
    assert record.holder == alice and record.best == record_again
    assert record.set_at == record_again.finished_at
    assert record.first_winner == bob and record.first_won_at == first_win.finished_at
    assert record.lines == 2


def test_own_line_and_rank_are_given_even_outside_the_page(make_user: Any) -> None:
    deal = daily(DAY)
    for i in range(5):
        finish(make_user(f"p{i}"), deal, time_ms=10_000 + i, at=T0)
    me = make_user("me")
    finish(me, deal, time_ms=99_000, at=T0)

    page = deal_board(daily_record(DAY, "wrap-closed"), limit=2, viewer=me)
    assert [line["rank"] for line in page.lines] == [1, 2]
    assert page.me is not None
    assert page.me["rank"] == 6 and page.me["player"]["username"] == "me"
    assert page.total == 6


def test_cursor_pages_walk_the_whole_board_in_order(make_user: Any) -> None:
    deal = daily(DAY)
    for i in range(7):
        finish(make_user(f"w{i}"), deal, time_ms=10_000, moves=40, at=T0 + timedelta(seconds=i))
    record = daily_record(DAY, "wrap-closed")
    seen: list[tuple[int, str]] = []
    cursor = None
    while True:
        page = deal_board(record, limit=3, cursor=cursor)
        seen += [(line["rank"], line["player"]["username"]) for line in page.lines]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [(i + 1, f"w{i}") for i in range(7)]
