"""Staff close a rating flag from the review queue: ``cleared`` keeps the rating on the board,
``removed`` takes it off the public board and its ranks (the rating stays the player's). Before,
a flag could only be looked at: nothing closed it and a boosted rating stayed first."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tripeaks.ratings import selectors
from tripeaks.ratings.models import Rating, RatingFlag

pytestmark = pytest.mark.django_db

RULES = "wrap-closed"


@pytest.fixture
def flagged(make_user: Any) -> tuple[Any, RatingFlag]:
    booster, honest = make_user("booster"), make_user("honest")
    Rating.objects.create(user=booster, rules_key=RULES, rating=2100, rd=60, races=12)
    Rating.objects.create(user=honest, rules_key=RULES, rating=1700, rd=60, races=12)
    flag = RatingFlag.objects.create(
        user=booster,
        rules_key=RULES,
        reason="3 rated wins against feeders",
        created_at=timezone.now(),
    )
    return booster, flag


def staff_client(make_user: Any, name: str = "staffer") -> Client:
    client = Client()
    client.force_login(make_user(name, is_staff=True))
    return client


def decide(client: Client, flag: RatingFlag, decision: str, note: str = "looked") -> Any:
    return client.post(
        f"/staff/review/rating-flags/{flag.pk}/", {"decision": decision, "note": note}
    )


def board_names() -> list[str]:
    return [line["player"]["username"] for line in selectors.ratings_board(RULES)]


def test_the_queue_offers_a_decision_on_each_open_flag(make_user: Any, flagged: Any) -> None:
    _, flag = flagged
    page = staff_client(make_user).get("/staff/review/").content.decode()
    assert f"/staff/review/rating-flags/{flag.pk}/" in page


def test_removed_takes_the_rating_off_the_board_and_its_rank(make_user: Any, flagged: Any) -> None:
    booster, flag = flagged
    assert board_names() == ["booster", "honest"]
    answer = decide(staff_client(make_user), flag, "removed", "fed by a second account")
    assert answer.status_code == 302
    assert board_names() == ["honest"]
    assert selectors.standing_of(booster.pk, RULES)["rank"] is None
    assert selectors.rating_of(booster.pk, RULES).rating == 2100  # still theirs
    flag.refresh_from_db()
    assert (flag.reviewed, flag.decision, flag.note) == (True, "removed", "fed by a second account")
    assert flag.reviewed_by is not None and flag.reviewed_by.username == "staffer"
    page = staff_client(make_user, "other").get("/staff/review/").content.decode()
    assert "fed by a second account" in page and "rating-flags-empty" in page


def test_cleared_keeps_the_rating_on_the_board(make_user: Any, flagged: Any) -> None:
    _, flag = flagged
    assert decide(staff_client(make_user), flag, "cleared").status_code == 302
    assert board_names() == ["booster", "honest"]
    assert RatingFlag.objects.get(pk=flag.pk).decision == "cleared"


@pytest.mark.parametrize(("decision", "note"), [("ban", "x"), ("removed", "   "), ("", "x")])
def test_a_bad_decision_is_refused_and_changes_nothing(
    make_user: Any, flagged: Any, decision: str, note: str
) -> None:
    _, flag = flagged
    answer = decide(staff_client(make_user), flag, decision, note)
    assert answer.status_code == 400
    assert not RatingFlag.objects.get(pk=flag.pk).reviewed
    assert board_names() == ["booster", "honest"]


def test_a_closed_flag_is_not_decided_twice(make_user: Any, flagged: Any) -> None:
    _, flag = flagged
    client = staff_client(make_user)
    assert decide(client, flag, "cleared").status_code == 302
    assert decide(client, flag, "removed").status_code == 400
    assert board_names() == ["booster", "honest"]
    assert decide(client, RatingFlag(pk=flag.pk + 999), "removed").status_code == 400


def test_only_staff_decide(make_user: Any, flagged: Any) -> None:
    _, flag = flagged
    player = Client()
    player.force_login(make_user("player"))
    assert decide(player, flag, "removed").status_code == 403
    assert decide(Client(), flag, "removed").status_code == 302  # to sign in
    assert not RatingFlag.objects.get(pk=flag.pk).reviewed
    assert player.get(f"/staff/review/rating-flags/{flag.pk}/").status_code == 405
