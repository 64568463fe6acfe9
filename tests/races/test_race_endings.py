"""Every way a race ends, over the API: the first to clear, a give-up (leaving), a resignation,
a lost connection claimed against, and what each does to the places and the ratings. When one
player is left playing they win at once; whoever gives up ranks below everyone still playing,
the earliest lowest; the ratings agree with the places."""

from __future__ import annotations

import time
from typing import Any

import pytest
from channels.db import database_sync_to_async as db

from tests.play.helpers import client_for
from tests.races.helpers import api, begun, join, open_race, race_socket, until, winning_line
from tripeaks.races.models import Race, Seat, State
from tripeaks.ratings.models import RatingEvent

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("quick_countdown")]


def running(*users: Any) -> str:
    race = open_race(users[0], seats=len(users))
    for user in users[1:]:
        assert join(user, race).status_code == 200
    begun(race["id"])
    return str(race["id"])


def game_of(user: Any, race_id: str) -> str:
    return str(api(user).get(f"/api/races/{race_id}").json()["game"])


def resign(user: Any, race_id: str) -> Any:
    game = game_of(user, race_id)
    seq = client_for(user).get(f"/api/games/{game}").json()["seq"]
    return api(user).post(
        f"/api/games/{game}/moves", {"seq": seq, "action": "resign"}, format="json"
    )


def leave(user: Any, race_id: str) -> Any:
    return api(user).post(f"/api/races/{race_id}/leave")


def claim(user: Any, race_id: str, against: Any) -> Any:
    return api(user).post(f"/api/races/{race_id}/claim", {"player": against}, format="json")


def results(race_id: str, viewer: Any) -> dict[str, tuple[int, str, int]]:
    """username -> (place, status, rating change) as the race's results show them."""
    race = api(viewer).get(f"/api/races/{race_id}").json()
    assert race["state"] == "finished", race["state"]
    return {
        p["username"]: (p["place"], p["status"], p["rating"]["change"]) for p in race["players"]
    }


def assert_ratings_agree(race_id: str) -> None:
    """Every place is its own (no tie here), and every rating written agrees with it: the first
    gains, the last loses, in the results and in each player's rating history alike."""
    seats = list(Seat.objects.filter(race_id=race_id, game__isnull=False).order_by("place"))
    places = [seat.place for seat in seats]
    assert places == list(range(1, len(seats) + 1)), places
    first, last = seats[0], seats[-1]
    assert first.rating_after is not None and first.rating_before is not None
    assert last.rating_after is not None and last.rating_before is not None
    assert first.rating_after > first.rating_before
    assert last.rating_after < last.rating_before
    history = {e.user_id: e for e in RatingEvent.objects.filter(race=f"race-{race_id}")}
    for seat in seats:
        event = history[seat.user_id]
        assert event.place == seat.place and event.players == len(seats)
        assert round(event.rating_after - event.rating_before) == round(
            seat.rating_after - seat.rating_before  # type: ignore[operator]
        )


def test_a_give_up_ends_a_two_seat_race_at_once_and_the_other_wins(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    race_id = running(ann, bob)

    answer = leave(ann, race_id)

    assert answer.status_code == 200, answer.content
    assert answer.json()["state"] == "finished"  # at once, not at the cap
    shown = results(race_id, bob)
    assert shown["bob"][:2] == (1, "finished") and shown["bob"][2] > 0
    assert shown["ann"][:2] == (2, "left") and shown["ann"][2] < 0
    assert_ratings_agree(race_id)


def test_a_resignation_ends_a_two_seat_race_at_once_and_the_other_wins(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    race_id = running(ann, bob)

    assert resign(bob, race_id).status_code == 200

    shown = results(race_id, ann)
    assert shown["ann"][:2] == (1, "finished") and shown["bob"][:2] == (2, "resigned")
    assert_ratings_agree(race_id)


def test_the_earliest_to_give_up_ranks_lowest_however_they_gave_up(make_player: Any) -> None:
    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    race_id = running(ann, bob, cat)

    # Cat resigns first, then Bob leaves: Ann is the one left playing and wins at once.
    assert resign(cat, race_id).status_code == 200
    assert Race.objects.get(pk=race_id).state == State.RUNNING  # two still race
    assert leave(bob, race_id).status_code == 200

    shown = results(race_id, ann)
    assert {name: line[:2] for name, line in shown.items()} == {
        "ann": (1, "finished"),
        "bob": (2, "left"),
        "cat": (3, "resigned"),
    }
    assert_ratings_agree(race_id)


def test_two_who_left_in_turn_are_placed_apart_and_not_tied(make_player: Any) -> None:
    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    race_id = running(ann, bob, cat)

    assert leave(bob, race_id).status_code == 200
    assert leave(cat, race_id).status_code == 200

    shown = results(race_id, ann)
    assert [shown[name][:2] for name in ("ann", "cat", "bob")] == [
        (1, "finished"),
        (2, "left"),
        (3, "left"),
    ]
    assert_ratings_agree(race_id)


def test_a_give_up_after_the_cap_ends_the_race_as_the_cap_left_it(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    race = open_race(ann, cap_s=1)
    assert join(bob, race).status_code == 200
    begun(race["id"])
    game = game_of(bob, race["id"])
    drew = api(bob).post(f"/api/games/{game}/moves", {"seq": 0, "action": "draw"}, format="json")
    assert drew.status_code == 200
    time.sleep(1.1)  # past the cap; nothing has ended the race yet

    assert leave(ann, race["id"]).status_code == 200

    shown = results(race["id"], bob)
    # Both were playing at the cap: ranked by cards, then the clock (Ann never moved: time 0).
    assert {name: line[1] for name, line in shown.items()} == {
        "ann": "finished",
        "bob": "finished",
    }
    assert sorted(line[0] for line in shown.values()) == [1, 2]


def test_the_first_to_clear_wins_and_gains(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    race_id = running(ann, bob)
    game = game_of(ann, race_id)
    for seq, move in enumerate(winning_line(race_id)):
        answer = api(ann).post(f"/api/games/{game}/moves", {"seq": seq, **move}, format="json")
        assert answer.status_code == 200, answer.content

    shown = results(race_id, bob)
    assert shown["ann"][:2] == (1, "won") and shown["bob"][:2] == (2, "finished")
    assert_ratings_agree(race_id)


def test_a_racer_gone_for_the_absence_can_be_claimed_against(
    make_player: Any, settings: Any
) -> None:
    settings.RACE_ABSENT_S = 30  # (1 s below, once "too early" no longer hangs on the load)
    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    race_id = running(ann, bob)

    # Too early: the race has only just begun. Nothing changes.
    early = claim(ann, race_id, "bob")
    assert early.status_code == 409 and early.json()["code"] == "not_absent"
    assert claim(ann, race_id, "ann").status_code == 409  # not against oneself
    assert claim(ann, race_id, "nobody").status_code == 409
    assert claim(cat, race_id, "bob").status_code == 409  # not a racer of this race
    assert api(ann).post(f"/api/races/{race_id}/claim", {}, format="json").status_code == 400
    assert api(ann).post(f"/api/races/{race_id}/claim", ["bob"], format="json").status_code == 400
    assert Race.objects.get(pk=race_id).state == State.RUNNING

    # Bob moves: a sign of him, from now. Then he is gone: no socket, no move.
    game = game_of(bob, race_id)
    drew = api(bob).post(f"/api/games/{game}/moves", {"seq": 0, "action": "draw"}, format="json")
    assert drew.status_code == 200
    assert claim(ann, race_id, "bob").json()["code"] == "not_absent"
    settings.RACE_ABSENT_S = 1
    time.sleep(1.1)  # the absence is the clock under test

    answer = claim(ann, race_id, "bob")

    assert answer.status_code == 200, answer.content
    assert answer.json()["state"] == "finished"
    shown = results(race_id, ann)
    assert shown["ann"][:2] == (1, "finished") and shown["bob"][:2] == (2, "left")
    assert_ratings_agree(race_id)
    # A finished race takes no more claims.
    assert claim(ann, race_id, "bob").status_code == 409


@pytest.mark.asyncio
async def test_an_open_race_socket_keeps_its_racer_from_being_claimed_against(
    make_player: Any, settings: Any
) -> None:
    settings.RACE_ABSENT_S = 1
    ann, bob = await db(make_player)("ann"), await db(make_player)("bob")
    race_id = await db(running)(ann, bob)
    socket = race_socket(bob, race_id)
    assert (await socket.connect())[0]
    await until(socket, lambda r: r["state"] == "running")
    await db(time.sleep)(1.5)  # longer than the absence, the socket open all along

    here = await db(claim)(ann, race_id, "bob")
    assert here.status_code == 409 and here.json()["code"] == "not_absent"

    await socket.disconnect()  # the absence counts from the close
    await db(time.sleep)(1.1)
    gone = await db(claim)(ann, race_id, "bob")
    assert gone.status_code == 200, gone.content
    assert gone.json()["state"] == "finished"


def test_both_giving_up_at_once_gives_one_winner(make_player: Any) -> None:
    from tests.races.test_race_api import in_threads

    ann, bob = make_player("ann"), make_player("bob")
    race_id = running(ann, bob)
    users = [ann, bob]

    answers = in_threads(2, lambda i: leave(users[i], race_id))

    # The first leave decides the race (the other wins at once); the second finds it over.
    assert sorted(a.status_code for a in answers) == [200, 409]
    winner = users[[a.status_code for a in answers].index(409)].username
    shown = results(race_id, ann)
    assert shown[winner][:2] == (1, "finished")
    assert sorted(line[0] for line in shown.values()) == [1, 2]
    assert_ratings_agree(race_id)


@pytest.mark.asyncio
async def test_claimable_says_what_a_claim_would_get_for_an_idle_racer_who_is_here(
    make_player: Any, settings: Any
) -> None:
    """The race says of each racer whether a claim against them would be accepted now, by the
    claim's own rule (`races/absence.py`): an idle racer whose race socket is open is here (not
    claimable, and a claim is 409 `not_absent`); once their socket is closed for the absence,
    claimable, and the claim is taken. (Before: the page guessed from the moves it had heard of
    and showed "Claim the win" over a racer who was only idle; the claim was refused.)"""
    settings.RACE_ABSENT_S = 2  # the open socket notes its racer every 0.67 s
    ann, bob = await db(make_player)("ann"), await db(make_player)("bob")
    race_id = await db(running)(ann, bob)

    def line(name: str) -> dict[str, Any]:
        race = api(ann).get(f"/api/races/{race_id}").json()
        return next(p for p in race["players"] if p["username"] == name)

    assert (await db(line)("bob"))["claimable"] is False  # the race has only just begun
    socket = race_socket(bob, race_id)
    assert (await socket.connect())[0]
    await until(socket, lambda r: r["state"] == "running")
    await db(time.sleep)(2.5)  # idle for longer than the absence, the socket open all along

    here = await db(line)("bob")
    assert here["claimable"] is False and 0 < here["claimable_in_s"] <= 2, here
    refused = await db(claim)(ann, race_id, "bob")
    assert refused.status_code == 409 and refused.json()["code"] == "not_absent"

    await socket.disconnect()
    await db(time.sleep)(2.1)
    gone = await db(line)("bob")
    assert gone["claimable"] is True and gone["claimable_in_s"] == 0, gone
    # A watcher's list of races to watch says nothing of claims (it makes none).
    live = await db(lambda: api(ann).get("/api/races?state=live").json())()
    assert all(p["claimable_in_s"] is None for r in live["races"] for p in r["players"])
    taken = await db(claim)(ann, race_id, "bob")
    assert taken.status_code == 200, taken.content
    done = taken.json()
    assert all(p["claimable"] is False and p["claimable_in_s"] is None for p in done["players"])


@pytest.mark.asyncio
async def test_a_win_after_the_race_ended_or_after_leaving_is_refused_on_the_socket_too(
    make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Played as a cheater would: keep playing a race you lost (or left) to a "won" game. The
    end's resignations are held back, so the late win meets an open game: refused, `race_over`,
    nothing stored, on the game socket (the copy's finishing path) and REST alike."""
    from tests.play.helpers import connect
    from tripeaks.play.models import Game
    from tripeaks.races import ending, services

    for module in (ending, services):  # the end's and a leave's resignations
        monkeypatch.setattr(module, "end_games_later", lambda ids: None)
    ann, bob, cat = [await db(make_player)(name) for name in ("ann", "bob", "cat")]
    race_id = await db(running)(ann, bob, cat)
    line = await db(winning_line)(race_id)
    games = {u.username: await db(game_of)(u, race_id) for u in (ann, bob, cat)}

    def play_to_the_last(user: Any) -> None:
        for seq, move in enumerate(line[:-1]):
            body = {"seq": seq, **move}
            assert (
                api(user)
                .post(f"/api/games/{games[user.username]}/moves", body, format="json")
                .status_code
                == 200
            )

    for user in (bob, cat):
        await db(play_to_the_last)(user)
    assert (await db(leave)(cat, race_id)).status_code == 200  # Cat gives up, her game open
    late = {"seq": len(line) - 1, **line[-1]}
    left = await db(api(cat).post)(f"/api/games/{games['cat']}/moves", late, format="json")
    assert left.status_code == 409 and left.json()["code"] == "race_over", left.content
    for seq, move in enumerate(line):  # Ann wins: the race is over
        answer = await db(api(ann).post)(
            f"/api/games/{games['ann']}/moves", {"seq": seq, **move}, format="json"
        )
        assert answer.status_code == 200

    socket = await connect(bob, games["bob"])
    assert (await socket.connect())[0]
    view = (await socket.receive_json_from(timeout=10))["game"]
    await socket.send_json_to({"seq": view["seq"], **line[-1]})
    refused = await socket.receive_json_from(timeout=10)
    assert refused["type"] == "error" and refused["code"] == "race_over", refused
    await socket.disconnect()
    for name in ("bob", "cat"):
        game = await db(Game.objects.get)(pk=games[name])
        assert game.finished_at is None and game.seq == len(line) - 1  # nothing stored
    race = await db(lambda: api(ann).get(f"/api/races/{race_id}").json())()
    places = {p["username"]: (p["place"], p["status"]) for p in race["players"]}
    assert places == {"ann": (1, "won"), "bob": (2, "finished"), "cat": (3, "left")}, places
