"""Write paths of play: start a game, apply a move. Each is one transaction with the game row locked.

A move is worked out into a step (`play/steps.py`) and stored by `play/recorder.py`, the one
writer of the game and move-log tables, however it came (docs/architecture.md, "Moves")."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, cast
from uuid import UUID

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone

from tripeaks.engine import game as engine
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.scoring import score
from tripeaks.infra.addresses import ip_or_none
from tripeaks.infra.row_locks import for_update
from tripeaks.play import clock_sweep, deals, recorder, screens, solver_guard, solver_queue
from tripeaks.play.broadcast import broadcast_view
from tripeaks.play.dealday import deal_day
from tripeaks.play.errors import BadRequest, GameNotFound, SeqConflict
from tripeaks.play.models import Deal, Game, Move, Source
from tripeaks.play.payloads import BudgetedHint, ViewPayload, game_payload
from tripeaks.play.progress import publish_progress
from tripeaks.play.serializers import StartGameInput, rules_of
from tripeaks.play.state_codec import dump_state, load_state
from tripeaks.play.steps import ACTIONS, Step, advance, shown_again

log = logging.getLogger("tripeaks.events")


@dataclass(frozen=True)
class MoveOutcome:
    view: ViewPayload
    replayed: bool = False
    hint: BudgetedHint | None = field(default=None)
    # The game as stored after the move, for a caller that keeps a copy (the game socket).
    game: Game | None = None
    state: engine.State | None = None


@dataclass(frozen=True, slots=True)
class Earlier:
    """A player's earlier games on a deal: how many had a hint, how many were begun."""

    hinted: int
    played: int


def load_game_state(game: Game) -> engine.State:
    rules = Rules.from_key(game.deal.rules_key)
    return load_state(game.state, deals.engine_deal(game.deal), rules)


def _deal_for(
    *,
    mode: str,
    rules: Rules,
    layout: str,
    number: int | None,
    code: str | None,
    now: datetime,
) -> Deal:
    if mode == Source.DAILY:
        if layout != "classic" or rules.start != "waste":
            raise BadRequest("the daily deal is played on the classic layout with the usual start")
        return deals.daily_deal(deal_day(now), rules)
    if mode == Source.RANDOM:
        return deals.claim_random_deal(rules, layout, shipped=True)
    if mode == Source.NUMBERED:
        if number is None or not 1 <= number <= deals.NUMBERED_DEALS:
            raise BadRequest(f"a numbered deal needs a number from 1 to {deals.NUMBERED_DEALS}")
        return deals.numbered_deal(number, rules, layout)
    if mode == Source.CUSTOM:
        if not code:
            raise BadRequest("a custom deal needs a deal code")
        try:
            return deals.custom_deal(code, rules, layout)
        except ValueError as error:
            raise BadRequest(str(error)) from None
    raise BadRequest(f"unknown mode {mode!r}: use daily, random, numbered or custom")


def start_game(
    *,
    user: AbstractBaseUser,
    mode: str,
    rules: Rules,
    layout: str = "classic",
    number: int | None = None,
    code: str | None = None,
    device: str = "",
    address: str | None = None,
    deal: Deal | None = None,
    contest: str = "",
    deadline: datetime | None = None,
) -> Game:
    """Start a game: `start_games` for one player."""
    (game,) = start_games(
        users=[user],
        mode=mode,
        rules=rules,
        layout=layout,
        number=number,
        code=code,
        device=device,
        address=address,
        deal=deal,
        contest=contest,
        deadline=deadline,
    )
    return game


def start_games(
    *,
    users: Sequence[AbstractBaseUser],
    mode: str,
    rules: Rules,
    layout: str = "classic",
    number: int | None = None,
    code: str | None = None,
    device: str = "",
    address: str | None = None,
    deal: Deal | None = None,
    contest: str = "",
    deadline: datetime | None = None,
) -> list[Game]:
    """Start a game on one deal for each of `users` (a race's start: all its racers at once); each
    player's unfinished game, if any, is resigned first (a loss once it has begun).

    The games' clocks start now: the deal is shown with the answer (docs/fair-play.md, "One
    clock"). `device` and `address` say where it was started from (fair play: second accounts).
    A live contest passes its `deal` (the same for every player), its `contest` group and its
    end, the `deadline` from which the game takes no move but a resignation. The players are
    locked, their unfinished games read (those two in one round trip) and the games inserted by
    one statement each, however many: the starting position is worked out and encoded once."""
    try:
        get_layout(layout)
    except ValueError as error:
        raise BadRequest(str(error)) from None
    now = timezone.now()
    # Making a deal (a daily one not yet precomputed) can take a moment: before taking any lock.
    if deal is None:
        deal = _deal_for(mode=mode, rules=rules, layout=layout, number=number, code=code, now=now)
    # No savepoint of its own in a caller's transaction (a race's start): an error undoes all.
    # One player's earlier games on a deal that ranks are counted with their unfinished games.
    counted = users[0].pk if len(users) == 1 and not contest and _ranks(deal) else None
    with transaction.atomic(savepoint=False):
        earlier = _resign_unfinished([user.pk for user in users], now, deal, counted)
        games = _new_games(
            users,
            deal,
            rules,
            contest=contest,
            deadline=deadline,
            device=device[:64],
            address=ip_or_none(address),
            earlier=earlier,
        )
    _started(games, deal, mode, rules)
    return games


def _new_games(
    users: Sequence[AbstractBaseUser],
    deal: Deal,
    rules: Rules,
    *,
    contest: str,
    deadline: datetime | None,
    device: str,
    address: str | None,
    earlier: Earlier | None = None,
) -> list[Game]:
    """The games of `users` on `deal`, inserted: one starting position, shown to all at once.
    `earlier`: the one player's earlier games on the deal, counted already (`_resign_unfinished`)."""
    state = engine.new_game(deals.engine_deal(deal), rules)
    shown = timezone.now()  # under the players' locks: their later start is later
    # One dict for every row: a move stores a new one (`dump_next_state`), none changes it.
    stored = dump_state(state)
    games = [
        Game(
            player=cast(Any, user),  # the project's user model, typed by its base in the callers
            deal=deal,
            state=stored,
            cards_left=state.cards_left,
            score=score(state, 0),
            created_at=shown,
            running_since=shown,
            ranking="unranked" if contest else _ranking(user.pk, deal, earlier),
            device=device,
            address=address,
            contest=contest,
            deadline=deadline,
        )
        for user in users
    ]
    recorder.create_games(games)
    return games


def _started(games: Sequence[Game], deal: Deal, mode: str, rules: Rules) -> None:
    """After a start: a deal whose verdict is unknown is queued for the solver (once); each game's
    start logged."""
    if deal.winnable is None:
        transaction.on_commit(lambda: solver_queue.queue_verdict(deal.pk))
    for game in games:
        log.info(
            "game started",
            extra={"game": str(game.id), "user": game.player_id, "mode": mode, "rules": rules.key},
        )


def _resign_unfinished(
    player_ids: Sequence[int], now: datetime, deal: Deal, counted: int | None
) -> Earlier | None:
    """Lock the players (their starts are serialized) and resign their unfinished games, if any.
    With `counted`, one of the players, their earlier games on `deal` are counted by the statement
    that lists the unfinished ones (a resignation changes neither count), and returned."""
    unfinished, earlier = _lock_players_for_start(player_ids, deal.pk, counted)
    if unfinished:
        for old in Game.objects.select_for_update().filter(
            pk__in=unfinished, finished_at__isnull=True
        ):
            step = advance(old, load_game_state(old), action="resign", position=None, now=now)
            recorder.record_move(game=old, step=step)
    return earlier


def _ranks(deal: Deal) -> bool:
    """Can a game on `deal` count for anything (a custom deal, or a shipped random deal that
    anyone can read, never does)?"""
    return deal.source != Source.CUSTOM and not deal.shipped


def _ranking(player_id: int, deal: Deal, earlier: Earlier | None = None) -> str:
    """What a new game on `deal` will count for (the player's earlier games are all finished):
    their first try, practice (they already played it), or nothing (a hint or the solver's lines
    seen, a custom deal, a shipped random deal: anyone can read it). `earlier`: the player's
    earlier games on the deal, if counted already.
    ``record_result`` decides the same from the results when the game ends."""
    if not _ranks(deal):
        return "unranked"
    if earlier is None:
        with connection.cursor() as cursor:  # in plain SQL, as `_lock_players_for_start`'s
            cursor.execute(_start_statements()[1], [player_id, deal.pk])
            earlier = Earlier(*(cursor.fetchone() or (0, 0)))
    if earlier.hinted or _answer_seen(player_id, deal):
        return "unranked"
    return "practice" if earlier.played else "first-try"


def _answer_seen(player_id: int, deal: Deal) -> bool:
    """Has the player opened the solver's lines of a game on this numbered deal (the review's
    reveal: leaderboard's ``AnswerSeen``, read through the deal; no other deal's are marked)?"""
    return deal.source == Source.NUMBERED and deal.answers_seen.filter(player_id=player_id).exists()


def _lock_players_for_start(
    player_ids: Sequence[int], deal_id: int, counted: int | None
) -> tuple[list[UUID], Earlier | None]:
    """Lock the players' rows, the locks that serialize their game starts (in the order of their
    keys, as every start takes them: two starts wait, never deadlock), then list their unfinished
    games (in plain SQL: the ORM's compiling costs more CPU than these round trips), with the
    player `counted`'s earlier games on the deal counted by the same statement. Two statements,
    sent together in one round trip (the simple query protocol: Django's cursor binds on the
    client): the second must see a game that a start holding a lock before committed, and
    PostgreSQL takes a statement's snapshot when it begins, after the first has its locks."""
    games, _, games_and_earlier = _start_statements()
    ids = list(player_ids)
    with connection.cursor() as cursor:
        if counted is None:
            cursor.execute(games, [ids, ids])
            cursor.nextset()  # the second statement's rows
            return [game_id for (game_id,) in cursor.fetchall()], None
        cursor.execute(games_and_earlier, [ids, ids, counted, deal_id])
        cursor.nextset()
        rows = cursor.fetchall()
    # The unfinished games' rows, and the count's (its id NULL).
    ((hinted, played),) = [(hinted, played) for game_id, hinted, played in rows if game_id is None]
    return [game_id for game_id, _, _ in rows if game_id is not None], Earlier(hinted, played)


@functools.cache
def _start_statements() -> tuple[str, str, str]:
    """The players' locks then their unfinished games; a player's earlier games on a deal (how
    many had a hint, how many were begun: `_ranking`); and the players' locks then their
    unfinished games and the earlier ones in one statement."""
    quote = connection.ops.quote_name
    games, users = quote(Game._meta.db_table), get_user_model()._meta
    assert users.pk is not None
    ids = f"ANY(%s::{users.pk.db_type(connection)}[])"
    unfinished = f"SELECT id FROM {games} WHERE player_id = {ids} AND finished_at IS NULL"
    counts = (
        "count(*) FILTER (WHERE hints > 0), count(*) FILTER (WHERE started_at IS NOT NULL)"
        f" FROM {games} WHERE player_id = %s AND deal_id = %s"
    )
    lock = f"SELECT 1 FROM {quote(users.db_table)} WHERE id = {ids} ORDER BY id{for_update()}"
    and_earlier = unfinished.replace("SELECT id", "SELECT id, 0, 0", 1)
    return (
        f"{lock}; {unfinished}",
        f"SELECT {counts}",
        f"{lock}; {and_earlier} UNION ALL SELECT NULL, {counts}",
    )


def start_requested_game(
    user: AbstractBaseUser, request: StartGameInput, *, device: str = "", address: str | None = None
) -> Game:
    """`start_game` with the fields of a start request, as `StartGameSerializer` passed them
    (POST /api/games and the socket's `new`), from `device` and `address`."""
    return start_game(
        user=user,
        mode=request["mode"],
        rules=rules_of(request.get("rules")),
        layout=request["layout"],
        number=request.get("number"),
        code=request.get("deal"),
        device=device,
        address=address,
    )


def _is_retry(game: Game, seq: int, action: str, position: int | None) -> bool:
    after = list(Move.objects.filter(game=game, seq__in=(seq + 1, seq + 2)).order_by("seq"))
    if after and after[0].action == "resume" and action != "resume":
        after = after[1:]  # the clock started again for this move (`_shown_again`)
    applied = after[0] if after else None
    return applied is not None and applied.action == action and applied.position == position


def _behind_by_a_resume(game: Game, seq: int, action: str) -> bool:
    """Is `seq` the game's but for the resume its socket's opening logged (`_shown_again`)? A
    resume changes nothing on the table, so a move made on the view read just before (the page
    reads the game, then its socket opens) is made on the current table."""
    if seq != game.seq - 1 or action == "resume":
        return False
    return Move.objects.filter(game=game, seq=game.seq, action="resume").exists()


def unwatched(game: Game) -> bool:
    """Is the clock stopped because no screen showed the game (`hide_game`)? (Pausing and the
    end stop it too; a contest's clock never stops.)"""
    return game.running_since is None and not game.paused and not game.finished


def _shown_again(game: Game, state: engine.State, now: datetime) -> Game:
    """The locked `game` with its clock started again, logged as a resume (`steps.shown_again`)."""
    return recorder.record_move(game=game, step=shown_again(game, state, now)).game


def _locked_game(
    game_id: UUID | str, user: AbstractBaseUser, *, related: bool = True
) -> Game | None:
    """The player's game, its row locked: of=self, the game only (every player of the daily deal
    shares its Deal row); its deal and player read with it unless not `related`."""
    games = Game.objects.select_for_update(of=("self",))
    if related:
        games = games.select_related("deal", "player")
    return games.filter(pk=game_id, player_id=user.pk).first()


@transaction.atomic
def show_game(*, game_id: UUID | str, user: AbstractBaseUser) -> tuple[Game, engine.State] | None:
    """A screen shows the player's game again (a game socket opened): a clock stopped because
    none did starts again, logged as a resume. The socket is counted (`SocketGame.admit`) first.
    The game as it is now, with its state (the socket's view is made of them), or None when it is
    not the player's."""
    game = _locked_game(game_id, user)
    if game is None:
        return None
    state = load_game_state(game)
    if not game.contest and unwatched(game):
        game = _shown_again(game, state, timezone.now())
    return game, state


@transaction.atomic
def hide_game(*, game_id: UUID | str, user: AbstractBaseUser) -> None:
    """A game socket closed: with no other screen on the player's solo game, its clock stops
    until a socket opens or a move comes. The seq stays: nothing happened on the table, and a move
    sent again from the page by REST must still fit. The socket is uncounted (`screens.gone`)
    first, and the count read under the game's lock, so a socket opening meanwhile either counts
    here or finds the clock stopped and starts it."""
    game = _locked_game(game_id, user, related=False)
    if game is None or game.contest or game.finished or game.running_since is None:
        return
    if screens.watched(game_id):
        return
    recorder.bank_clock(game, timezone.now())


def finish_copy(*, game: Game, step: Step, now: datetime) -> MoveOutcome | None:
    """A game-ending move that `advance` worked out on a caller's copy of the game (the game
    socket's), stored with its result as `apply_move` stores one, or None, with nothing stored,
    when the row is no longer at the step's seq and unfinished: the caller then takes
    `apply_move`. The copy needs no reading again, which costs the ORM more CPU than the write."""
    (recorded,) = recorder.record_moves([(game, step)])
    if recorded is None:
        return None
    view = game_payload(recorded.game, step.state, now, recorded.result)
    return MoveOutcome(view, game=recorded.game, state=step.state)


def log_move(game: Game, user: AbstractBaseUser, action: str) -> None:
    # Debug: the move log in the database records every move already, and a line for each
    # costs the socket path some 4% of its time; building its fields when the level is off, 2%.
    if log.isEnabledFor(logging.DEBUG):
        log.debug(
            "move",
            extra={"game": str(game.id), "user": user.pk, "seq": game.seq, "action": action},
        )


def _fan_out(game: Game, state: engine.State, now: datetime, view: ViewPayload) -> None:
    """A stored move's news: its view to the game's other sockets, a contest game's progress to
    the contest. Best-effort, after the commit."""
    broadcast_view(game.pk, view)
    publish_progress(game, state, now)


def apply_move(
    *,
    game_id: UUID | str,
    user: AbstractBaseUser,
    seq: int,
    action: str,
    position: int | None = None,
    broadcast: bool = True,
    by_contest: bool = False,
    by_request: bool = False,
) -> MoveOutcome:
    """Apply one action to a player's game, or refuse it and change nothing.

    With `broadcast` the new view goes to the game's other sockets once committed; the game
    socket passes False and sends it itself, from its own event loop, which costs far less.
    `by_contest`: the resignation is the contest's end, not the player's (its result counts in
    no statistics). `by_request`: a REST move, the game's beat (`clock_sweep.beat_of_a_move`)."""
    if action not in ACTIONS:
        raise BadRequest(f"unknown action {action!r}: use one of {', '.join(sorted(ACTIONS))}")
    # A hint's solver slot is taken (or refused) before the game row is locked.
    with solver_guard.guard(action, user.pk, game_id), transaction.atomic():
        game = _locked_game(game_id, user)
        if game is None:
            raise GameNotFound("no such game")
        if by_request and clock_sweep.beat_of_a_move(game):
            game.refresh_from_db(fields=["elapsed_ms", "running_since"])
        state = load_game_state(game)
        now = timezone.now()
        if seq != game.seq and not _behind_by_a_resume(game, seq, action):
            if 0 <= seq < game.seq and _is_retry(game, seq, action, position):
                return MoveOutcome(
                    game_payload(game, state, now), replayed=True, game=game, state=state
                )
            raise SeqConflict(
                f"seq {seq} is not the game's; it is at {game.seq}",
                view=game_payload(game, state, now),
            )
        if not game.contest and unwatched(game):
            game = _shown_again(game, state, now)  # a move from a screen no socket counted (REST)
        step = advance(game, state, action=action, position=position, now=now)
        if by_contest and action == "resign" and game.contest:
            step = replace(step, by_contest=True)
        recorded = recorder.record_move(game=game, step=step)
    game = recorded.game
    # After the block: nothing may come between ranking's last statement and the commit
    # (leaderboard/record_row.py). A finished game's view shows the result its finish made.
    view = game_payload(game, step.state, now, recorded.result)
    if broadcast:
        # At once if that was the commit; inside a caller's transaction, once it commits.
        transaction.on_commit(functools.partial(_fan_out, game, step.state, now, view))
    log_move(game, user, action)
    return MoveOutcome(view, hint=step.hint, game=game, state=step.state)
