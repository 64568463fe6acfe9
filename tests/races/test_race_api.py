"""The race API, and attacks on it: concurrency against its seats, a second join, a start by
someone else or twice, moves and reads before the start, an opponent's game, private races."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from django.db import connection

from tests.races.helpers import api, begun, join, leaks, open_race, race_row_held
from tripeaks.play.models import Game
from tripeaks.races import clock
from tripeaks.races.models import Race, Seat, State


def in_threads(count: int, work: Any) -> list[Any]:
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.django_db
def test_open_a_race_and_find_it_in_the_lobby(make_player: Any) -> None:
    ann = make_player("ann")
    race = open_race(ann, seats=4, rules={"wrap": False}, layout="classic")
    assert race["state"] == "open" and race["host"] == "ann" and race["seats"] == 4
    assert race["rules"]["key"] == "nowrap-closed" and race["cap_s"] == 300
    assert [p["username"] for p in race["players"]] == ["ann"]
    assert race["players"][0]["status"] == "waiting" and race["game"] is None
    assert set(race) >= {
        "id",
        "code",
        "state",
        "host",
        "seats",
        "rules",
        "layout",
        "starts_at",
        "players",
        "game",
    }
    assert leaks(race) == []
    lobby = api(make_player("bob")).get("/api/races?state=open").json()["races"]
    assert [r["id"] for r in lobby] == [race["id"]]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        {"seats": 9},
        {"seats": 1},
        {"seats": "4"},
        {"seats": True},
        {"public": "yes"},
        {"cap_s": 0},
        {"cap_s": 99999},
        {"layout": "nowhere"},
        {"rules": {"wrap": "no"}},
        {"rules": "wrap"},
    ],
)
def test_bad_input_is_a_clear_400(make_player: Any, body: dict[str, Any]) -> None:
    response = api(make_player("ann")).post("/api/races", body, format="json")
    assert response.status_code == 400, response.content
    assert Race.objects.count() == 0


@pytest.mark.django_db
def test_unknown_and_malformed_races_are_404(make_player: Any) -> None:
    client = api(make_player("ann"))
    assert client.get("/api/races/00000000-0000-0000-0000-000000000000").status_code == 404
    assert client.post("/api/races/00000000-0000-0000-0000-000000000000/join").status_code == 404
    assert client.get("/api/races/not-a-uuid").status_code == 404
    assert client.get("/api/races?state=running").status_code == 400


@pytest.mark.django_db
def test_signed_out_players_are_refused(make_player: Any) -> None:
    from rest_framework.test import APIClient

    assert APIClient().get("/api/races").status_code in (401, 403)
    assert APIClient().post("/api/races", {}, format="json").status_code in (401, 403)


@pytest.mark.django_db
def test_join_twice_start_by_a_guest_start_twice(make_player: Any) -> None:
    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    race = open_race(ann, seats=3)
    assert join(bob, race).status_code == 200
    second = join(bob, race)
    assert second.status_code == 409 and second.json()["code"] == "already_joined"
    assert join(ann, race).json()["code"] == "already_joined"  # the host is seated already

    refused = api(bob).post(f"/api/races/{race['id']}/start")
    assert refused.status_code == 403 and refused.json()["code"] == "not_host"
    started = api(ann).post(f"/api/races/{race['id']}/start")
    assert started.status_code == 200 and started.json()["state"] == "countdown"
    again = api(ann).post(f"/api/races/{race['id']}/start")
    assert again.status_code == 409 and again.json()["code"] == "already_started"
    late = join(cat, race)
    assert late.status_code == 409 and late.json()["code"] == "not_open"


@pytest.mark.django_db
def test_a_race_needs_two_players_to_start(make_player: Any) -> None:
    ann = make_player("ann")
    race = open_race(ann, seats=3)
    refused = api(ann).post(f"/api/races/{race['id']}/start")
    assert refused.status_code == 409 and refused.json()["code"] == "too_few_players"


@pytest.mark.django_db
def test_one_unfinished_race_per_player(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    first = open_race(ann)
    second = api(ann).post("/api/races", {"seats": 2}, format="json")
    assert second.status_code == 409 and second.json()["code"] == "in_another_race"
    other = open_race(bob, seats=3)
    assert join(ann, other).json()["code"] == "in_another_race"
    # Leaving the first frees her.
    assert api(ann).post(f"/api/races/{first['id']}/leave").status_code == 200
    assert join(ann, other).status_code == 200


@pytest.mark.django_db
def test_leaving_before_the_start_frees_the_seat_and_passes_the_host_on(make_player: Any) -> None:
    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    race = open_race(ann, seats=3)
    join(bob, race)
    left = api(ann).post(f"/api/races/{race['id']}/leave").json()
    assert left["host"] == "bob" and [p["username"] for p in left["players"]] == ["bob"]
    assert join(ann, race).status_code == 200  # she may come back while it is open
    assert join(cat, race).json()["state"] == "countdown"  # the last seat: it counts down
    # Leaving during the countdown with two left keeps it counting.
    assert api(cat).post(f"/api/races/{race['id']}/leave").json()["state"] == "countdown"
    # Below two players it waits for players again.
    assert api(bob).post(f"/api/races/{race['id']}/leave").json()["state"] == "open"
    assert api(bob).post(f"/api/races/{race['id']}/leave").json()["code"] == "not_seated"


@pytest.mark.django_db
def test_no_game_exists_and_no_card_is_seen_before_the_start_instant(
    make_player: Any, settings: Any
) -> None:
    settings.RACE_COUNTDOWN_S = 30
    ann, bob = make_player("ann"), make_player("bob")
    race = open_race(ann)
    counting = join(bob, race).json()
    assert counting["state"] == "countdown" and counting["game"] is None
    assert Game.objects.count() == 0
    assert api(bob).get("/api/games/current").status_code == 404
    assert api(bob).get(f"/api/races/{race['id']}").json()["game"] is None
    # Nothing a clock can do early: the worker's task, any read, any socket waits for starts_at.
    assert clock.advance_race_clock(race_id=race["id"]) is False
    assert Game.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_an_opponents_game_is_404_and_hints_and_pauses_are_refused(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    race = open_race(ann)
    join(bob, race)
    begun(race["id"])
    mine = api(ann).get(f"/api/races/{race['id']}").json()
    theirs = api(bob).get(f"/api/races/{race['id']}").json()
    assert mine["game"] and theirs["game"] and mine["game"] != theirs["game"]
    assert leaks(mine) == []
    assert api(ann).get(f"/api/games/{theirs['game']}").status_code == 404
    steal = api(ann).post(
        f"/api/games/{theirs['game']}/moves", {"seq": 0, "action": "draw"}, format="json"
    )
    assert steal.status_code == 404
    for action in ("hint", "pause"):
        refused = api(ann).post(
            f"/api/games/{mine['game']}/moves", {"seq": 0, "action": action}, format="json"
        )
        assert refused.status_code == 400 and refused.json()["code"] == "illegal_move"


@pytest.mark.django_db
def test_a_private_race_is_nowhere_without_its_code(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    race = open_race(ann, public=False)
    assert api(bob).get("/api/races?state=open").json()["races"] == []
    assert api(bob).get(f"/api/races/{race['id']}").status_code == 404
    assert join(bob, race).status_code == 404
    assert join(bob, race, code="WRONG1").status_code == 404
    found = api(bob).get(f"/api/races?code={race['code'].lower()}")
    assert found.status_code == 200 and found.json()["id"] == race["id"]
    assert api(bob).get(f"/api/races/{race['id']}?code={race['code']}").status_code == 200
    assert join(bob, race, code=race["code"]).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_twelve_players_race_for_seven_seats(make_player: Any) -> None:
    host = make_player("host")
    race = open_race(host, seats=8)
    players = [make_player(f"p{i}") for i in range(12)]
    answers = in_threads(12, lambda i: join(players[i], race))
    codes = Counter(answer.status_code for answer in answers)
    assert codes[200] == 7 and codes[409] == 5, codes
    assert {a.json()["code"] for a in answers if a.status_code == 409} <= {"race_full", "not_open"}
    assert Seat.objects.filter(race_id=race["id"], active=True).count() == 8
    assert Race.objects.get(pk=race["id"]).state == State.COUNTDOWN


@pytest.mark.django_db(transaction=True)
def test_one_player_joining_two_races_at_once_gets_one(make_player: Any) -> None:
    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    races = [open_race(bob, seats=3), open_race(cat, seats=3)]
    answers = in_threads(2, lambda i: join(ann, races[i]))
    assert sorted(a.status_code for a in answers) == [200, 409]
    assert Seat.objects.filter(user=ann, active=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_finishes_give_one_winner(
    make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two finishing moves at once: the race row's lock orders them. The first to lock it wins
    and ends the race; the second's move comes after the end and is refused, 409 `race_over`,
    with nothing of it stored, and the race's end resigns that game as it stood (lost): its seat is
    second with the cards it had. (Before: the second was stored as a win over a race already
    finished, [200, 200], or, when the end's resignation locked its game first, 409
    `seq_mismatch`: which one came at random.) The end's resignations wait until both answered,
    so the two finishes meet at the race's lock every time."""
    from tests.races.helpers import winning_line
    from tripeaks.races import ending

    ann, bob = make_player("ann"), make_player("bob")
    race = open_race(ann)
    join(bob, race)
    begun(race["id"])
    line = winning_line(race["id"])
    games = {}
    for user in (ann, bob):
        game = api(user).get(f"/api/races/{race['id']}").json()["game"]
        for seq, move in enumerate(line[:-1]):
            assert (
                api(user)
                .post(f"/api/games/{game}/moves", {"seq": seq, **move}, format="json")
                .status_code
                == 200
            )
        games[user.username] = game
    ended: list[list[Any]] = []
    monkeypatch.setattr(ending, "end_games_later", ended.append)
    users = [ann, bob]
    answers = in_threads(
        2,
        lambda i: api(users[i]).post(
            f"/api/games/{games[users[i].username]}/moves",
            {"seq": len(line) - 1, **line[-1]},
            format="json",
        ),
    )

    assert sorted(a.status_code for a in answers) == [200, 409], [a.content for a in answers]
    late = next(a for a in answers if a.status_code == 409).json()
    assert late["code"] == "race_over", late
    winner = users[[a.status_code for a in answers].index(200)].username
    loser = next(user for user in users if user.username != winner)
    assert Game.objects.get(pk=games[loser.username]).finished_at is None  # nothing stored
    assert len(ended) == 1
    ending.end_games(game_ids=ended[0])
    done = api(ann).get(f"/api/races/{race['id']}").json()
    assert done["state"] == "finished"
    places = {p["username"]: (p["place"], p["status"], p["cards_left"]) for p in done["players"]}
    assert places == {winner: (1, "won", 0), loser.username: (2, "finished", 1)}, places
    lost = Game.objects.get(pk=games[loser.username])
    assert lost.finished_at is not None and lost.status != "won" and lost.cards_left == 1
    assert Game.objects.get(pk=games[winner]).status == "won"


@pytest.mark.django_db(transaction=True)
def test_history_lists_a_players_finished_races(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    race = open_race(ann)
    join(bob, race)
    begun(race["id"])
    assert api(ann).post(f"/api/races/{race['id']}/leave").status_code == 200
    game = api(bob).get(f"/api/races/{race['id']}").json()["game"]
    api(bob).post(f"/api/games/{game}/moves", {"seq": 0, "action": "resign"}, format="json")
    history = api(ann).get("/api/races?mine=1").json()["races"]
    assert [r["id"] for r in history] == [race["id"]]
    assert history[0]["state"] == "finished"
    assert {p["username"]: p["place"] for p in history[0]["players"]} == {"bob": 1, "ann": 2}


@pytest.mark.django_db
def test_the_page_addresses_lead_to_the_app(client: Any) -> None:
    assert client.get("/races/")["Location"] == "/#/races"
    race_id = "00000000-0000-0000-0000-000000000001"
    assert client.get(f"/races/{race_id}/")["Location"] == f"/#/races/{race_id}"
    assert client.get(f"/races/{race_id}/?code=ab12cd")["Location"] == f"/#/races/{race_id}/AB12CD"
    assert client.get(f"/races/{race_id}/?code=../x")["Location"] == f"/#/races/{race_id}"


@pytest.mark.django_db(transaction=True)
def test_one_who_resigned_can_leave_and_race_elsewhere_keeping_their_place(
    make_player: Any,
) -> None:
    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    race = open_race(ann, seats=3)
    join(bob, race)
    join(cat, race)
    begun(race["id"])
    game = api(cat).get(f"/api/races/{race['id']}").json()["game"]
    api(cat).post(f"/api/games/{game}/moves", {"seq": 0, "action": "resign"}, format="json")
    assert open_race_fails(cat)  # still seated until the race ends...
    assert api(cat).post(f"/api/races/{race['id']}/leave").status_code == 200
    assert api(cat).post("/api/races", {"seats": 2}, format="json").status_code == 201
    seat = Seat.objects.get(race_id=race["id"], user=cat)
    assert seat.status == "resigned" and not seat.active
    assert Race.objects.get(pk=race["id"]).state == State.RUNNING  # ann and bob race on


def open_race_fails(user: Any) -> bool:
    answer = api(user).post("/api/races", {"seats": 2}, format="json")
    return answer.status_code == 409 and answer.json()["code"] == "in_another_race"


@pytest.mark.django_db
def test_a_last_seat_with_no_deal_ready_stands_and_the_host_starts_later(
    make_player: Any, monkeypatch: Any
) -> None:
    from tripeaks.play import deals
    from tripeaks.play.errors import PlayError

    ann, bob = make_player("ann"), make_player("bob")
    race = open_race(ann)
    real = deals.claim_random_deal

    def dry(*args: Any, **kwargs: Any) -> Any:
        raise PlayError("no deal ready")

    monkeypatch.setattr(deals, "claim_random_deal", dry)
    joined = join(bob, race)
    assert joined.status_code == 200 and joined.json()["state"] == "open"
    assert len(joined.json()["players"]) == 2
    monkeypatch.setattr(deals, "claim_random_deal", real)
    started = api(ann).post(f"/api/races/{race['id']}/start")
    assert started.status_code == 200 and started.json()["state"] == "countdown"


@pytest.mark.django_db(transaction=True)
def test_a_socket_clock_that_finds_the_race_locked_gives_up_and_the_holder_moves_it_on(
    make_player: Any, settings: Any
) -> None:
    """The sockets' timers call without waiting (`wait=False`): at a race's instant each of its
    sockets calls, and one waiting on the row lock held a server's worker thread."""
    from datetime import timedelta

    from django.utils import timezone

    settings.RACE_COUNTDOWN_S = 0
    ann, bob = make_player("ann"), make_player("bob")
    race = open_race(ann)
    join(bob, race)
    begun(race["id"])
    Race.objects.filter(pk=race["id"]).update(ends_at=timezone.now() - timedelta(seconds=1))
    with race_row_held(race["id"]):
        assert clock.advance_race_clock(race_id=race["id"], wait=False) is False
        assert Race.objects.get(pk=race["id"]).state == State.RUNNING
    assert clock.advance_race_clock(race_id=race["id"], wait=False) is True
    assert Race.objects.get(pk=race["id"]).state == State.FINISHED
