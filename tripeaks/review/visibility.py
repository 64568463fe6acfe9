"""Who may see a finished game's replay and analysis: `may_view`, the one place that says it.

Every rule of the review (REVIEW_CONTRACT, docs/fair-play.md "No spoilers"), any one of which
lets the viewer in:

- the player sees all of their own finished games at once;
- anyone (signed out too) sees a daily deal's runs once that deal day has ended in Kathmandu
  (`dealday.deal_day`);
- a race's players see every game of that race once the race has finished; an arena's players
  every game of that arena once it has ended;
- anyone holding a live share link of the game sees it (custom and numbered deals only: the
  owner makes the link, `services.create_share_link`).

An unfinished game is seen by nobody, and a game that may not be seen is answered exactly as a
game that does not exist (404), so that ids and tokens cannot be probed.

The analysis holds the answer (a winning line, par's line), so it waits, for everyone, the
player too, while the game's deal still counts: a daily deal's until its day has ended, a
contest's until the contest has ended. Otherwise it would be a hint that leaves no trace: a
player who lost today's first try would replay its winning line as practice onto the best-run
board, and a racer who gave up would hand the line to one still racing (contests refuse hints).
"""

from __future__ import annotations

from django.utils import timezone

from tripeaks.arenas.models import Arena, Entry
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Game, Source
from tripeaks.play.visitors import Visitor
from tripeaks.races.models import Race, Seat
from tripeaks.races.models import State as RaceState
from tripeaks.review.models import ShareLink

SHAREABLE_SOURCES = (Source.CUSTOM, Source.NUMBERED)
RACE_PREFIX = "race-"
ARENA_PREFIX = "arena-"


def may_view(viewer: Visitor, game: Game, token: str | None = None) -> bool:
    """May `viewer` (a user, or the anonymous visitor) see `game`'s replay, holding share `token`
    if any? Its analysis too, unless the deal `still_counts`. `game.deal` is read (select it with
    the game)."""
    if not game.finished:
        return False
    if viewer.is_authenticated and viewer.pk == game.player_id:
        return True
    if token is not None and _live_token_of(game, token):
        return True
    if game.deal.source == Source.DAILY:
        return not _daily_counts(game)
    if viewer.is_authenticated and game.contest:
        return _contest_over(game.contest) and _played_in(viewer.pk, game.contest)
    return False


def still_counts(game: Game) -> bool:
    """Does the game's deal still count: a daily deal whose day has not ended, a contest that
    has not? (Its analysis waits till then.)"""
    return _daily_counts(game) or (bool(game.contest) and not _contest_over(game.contest))


def _daily_counts(game: Game) -> bool:
    day = game.deal.day
    return game.deal.source == Source.DAILY and (day is None or day >= deal_day())


def shareable(game: Game) -> bool:
    """May the game's owner share it by a link? A custom or numbered deal's, in no contest."""
    return game.deal.source in SHAREABLE_SOURCES and not game.contest


def _live_token_of(game: Game, token: str) -> bool:
    if not shareable(game):
        return False
    return ShareLink.objects.filter(token=token, game=game, revoked_at__isnull=True).exists()


def _contest_over(contest: str) -> bool:
    """Has the contest named `contest` (a game's `Game.contest`) ended?"""
    if contest.startswith(RACE_PREFIX):
        race_id = contest.removeprefix(RACE_PREFIX)
        return Race.objects.filter(pk=race_id, state=RaceState.FINISHED).exists()
    if contest.startswith(ARENA_PREFIX):
        arena_id = contest.removeprefix(ARENA_PREFIX)
        return Arena.objects.filter(pk=arena_id, ends_at__lte=timezone.now()).exists()
    return False


def _played_in(viewer_id: int, contest: str) -> bool:
    if contest.startswith(RACE_PREFIX):
        race_id = contest.removeprefix(RACE_PREFIX)
        return Seat.objects.filter(race_id=race_id, user_id=viewer_id).exists()
    if contest.startswith(ARENA_PREFIX):
        arena_id = contest.removeprefix(ARENA_PREFIX)
        return Entry.objects.filter(arena_id=arena_id, player_id=viewer_id).exists()
    return False
