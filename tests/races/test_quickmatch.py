"""Quick match: a queue per rule set in Redis, paired atomically; the pair's race counts down."""

from __future__ import annotations

from typing import Any

import pytest

from tests.races.helpers import api, open_race
from tests.races.test_race_api import in_threads
from tripeaks.races import quickmatch
from tripeaks.races.models import Race, Seat, State


def queue(user: Any, **rules: Any) -> Any:
    return api(user).post("/api/quickmatch", {"rules": rules} if rules else {}, format="json")


@pytest.mark.django_db
def test_two_queued_players_are_paired_into_a_race_that_counts_down(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    first = queue(ann)
    assert first.status_code == 200, first.content
    assert first.json()["state"] == "waiting" and first.json()["empty"] is True
    assert api(ann).get("/api/quickmatch").json()["state"] == "waiting"

    second = queue(bob).json()
    assert second["state"] == "matched"
    race = Race.objects.get(pk=second["race"])
    assert race.state == State.COUNTDOWN and race.matched and not race.public
    assert set(race.entries.values_list("user__username", flat=True)) == {"ann", "bob"}
    assert race.host == ann  # the longer waiter
    told = api(ann).get("/api/quickmatch").json()
    assert told == {"state": "matched", "race": second["race"]}
    assert api(ann).get("/api/quickmatch").json()["state"] == "idle"  # told once
    assert api(ann).get(f"/api/races/{second['race']}").status_code == 200


@pytest.mark.django_db
def test_queues_are_per_rule_set(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    assert queue(ann, wrap=False).json()["state"] == "waiting"
    answer = queue(bob).json()
    assert (
        answer["state"] == "waiting"
        and answer["empty"] is True
        and answer["rules"] == "wrap-closed"
    )


@pytest.mark.django_db
def test_quick_match_twice_is_refused_and_leaving_works(make_player: Any) -> None:
    ann = make_player("ann")
    assert queue(ann).json()["state"] == "waiting"
    again = queue(ann)
    assert again.status_code == 409 and again.json()["code"] == "already_queued"
    elsewhere = queue(ann, wrap=False)
    assert elsewhere.status_code == 409 and elsewhere.json()["code"] == "already_queued"
    assert api(ann).delete("/api/quickmatch").json() == {"state": "idle"}
    assert api(ann).get("/api/quickmatch").json()["state"] == "idle"
    assert queue(ann).json()["state"] == "waiting"


@pytest.mark.django_db
def test_a_player_in_a_running_race_cannot_queue(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    race = open_race(ann)
    api(bob).post(f"/api/races/{race['id']}/join", {}, format="json")
    refused = queue(ann)
    assert refused.status_code == 409 and refused.json()["code"] == "in_race"


@pytest.mark.django_db
def test_a_player_waiting_in_an_open_race_leaves_it_when_paired(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    lobby = open_race(ann, seats=4)
    queue(ann)
    matched = queue(bob).json()
    assert matched["state"] == "matched"
    assert Race.objects.get(pk=lobby["id"]).state == State.FINISHED  # nobody left in it
    assert (
        Seat.objects.filter(user=ann, active=True).get().race_id
        == Race.objects.get(pk=matched["race"]).pk
    )


@pytest.mark.django_db(transaction=True)
def test_concurrent_queueing_pairs_everyone_once(make_player: Any) -> None:
    players = [make_player(f"p{i}") for i in range(6)]
    answers = in_threads(6, lambda i: queue(players[i]))
    # A pair that found no proven deal ready is told 503 (Retry-After) and stays queued.
    assert all(answer.status_code in (200, 503) for answer in answers)
    # Those still waiting read their race (or pair now): everyone ends in exactly one race.
    for _ in range(5):
        for player in players:
            api(player).get("/api/quickmatch")
    seats = Seat.objects.filter(user__in=players, active=True)
    assert sorted(seats.values_list("user__username", flat=True)) == sorted(
        p.username for p in players
    )
    races = Counter_of(seats.values_list("race_id", flat=True))
    assert sorted(races.values()) == [2, 2, 2]


def Counter_of(values: Any) -> dict[Any, int]:
    from collections import Counter

    return dict(Counter(values))


@pytest.mark.django_db
def test_the_window_widens_with_waiting(make_player: Any, monkeypatch: Any) -> None:
    """Far apart in rating: not paired at first, paired once the waiting one's window is wide."""
    ann, bob = make_player("ann"), make_player("bob")
    ratings = {ann.pk: 1500.0, bob.pk: 1900.0}
    monkeypatch.setattr(quickmatch.rating, "rating_for_pairing", lambda uid, key: ratings[uid])
    clock = [1_000_000.0]
    monkeypatch.setattr(quickmatch.time, "time", lambda: clock[0])
    assert queue(ann).json()["state"] == "waiting"
    assert queue(bob).json()["state"] == "waiting"  # 400 apart, nobody has waited
    clock[0] += 5  # ann's window: 50 + 5 * 50 = 300: still short of 400
    assert api(ann).get("/api/quickmatch").json()["state"] == "waiting"
    clock[0] += 2.5  # 50 + 7.5 * 50 = 425
    assert api(ann).get("/api/quickmatch").json()["state"] == "matched"
    assert api(bob).get("/api/quickmatch").json()["state"] == "matched"


@pytest.mark.django_db
def test_pairs_are_made_by_close_rating(make_player: Any) -> None:
    from tripeaks.ratings.models import Rating

    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    for user, rating in ((ann, 1500.0), (bob, 1900.0), (cat, 1520.0)):
        Rating.objects.create(user=user, rules_key="wrap-closed", rating=rating)
    assert queue(ann).json()["state"] == "waiting"
    assert queue(bob).json()["state"] == "waiting"  # 400 points from ann: not now
    paired = queue(cat).json()
    assert paired["state"] == "matched"
    players = set(
        Race.objects.get(pk=paired["race"]).entries.values_list("user__username", flat=True)
    )
    assert players == {"ann", "cat"}
    assert api(bob).get("/api/quickmatch").json()["state"] == "waiting"
