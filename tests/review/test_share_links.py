"""Share links: only the owner makes or revokes one, only for a finished custom or numbered
deal's game; a live token opens the replay (and analysis) for anyone, a guessed, revoked or
other game's token opens nothing (404)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from tests.review.helpers import client_for, deal, played
from tripeaks.review.models import ShareLink
from tripeaks.review.services import create_share_link

pytestmark = pytest.mark.django_db


def _share(user: Any, game: Any) -> Any:
    return client_for(user).post(f"/api/games/{game.pk}/share")


def test_the_owner_shares_a_custom_game_and_anyone_with_the_link_sees_it(
    alice: Any, bob: Any
) -> None:
    game = played(alice, deal("custom"))
    made = _share(alice, game)
    assert made.status_code == 201
    token = made.json()["token"]
    assert made.json()["url"] == f"/#/review/s/{token}"
    assert len(token) >= 22  # secrets.token_urlsafe(16)
    again = _share(alice, game)
    assert again.status_code == 201 and again.json()["token"] == token  # idempotent
    for viewer in (None, bob, alice):
        replay = client_for(viewer).get(f"/api/replays/{token}")
        assert replay.status_code == 200 and replay.json()["game"]["id"] == str(game.pk)
        assert client_for(viewer).get(f"/api/replays/{token}/analysis").status_code == 202
    # The link opens the token's routes only: the game's own routes stay the owner's.
    assert client_for(bob).get(f"/api/games/{game.pk}/replay").status_code == 404


def test_a_numbered_deals_game_can_be_shared(alice: Any) -> None:
    game = played(alice, deal("numbered", number=9))
    token = _share(alice, game).json()["token"]
    assert client_for(None).get(f"/api/replays/{token}").status_code == 200


@pytest.mark.parametrize("source", ["daily", "random"])
def test_other_deals_cannot_be_shared(alice: Any, source: str) -> None:
    game = played(alice, deal(source))
    refused = _share(alice, game)
    assert refused.status_code == 400 and refused.json()["code"] == "not_shareable"
    assert not ShareLink.objects.exists()


def test_a_contest_game_cannot_be_shared_even_on_a_custom_deal(alice: Any) -> None:
    game = played(alice, deal("custom"), contest="race-00000000-0000-0000-0000-000000000000")
    refused = _share(alice, game)
    assert refused.status_code == 400 and refused.json()["code"] == "not_shareable"


def test_an_unfinished_game_cannot_be_shared(alice: Any) -> None:
    game = played(alice, deal("custom"), finish=False)
    refused = _share(alice, game)
    assert refused.status_code == 400 and refused.json()["code"] == "not_finished"


def test_only_the_owner_shares_or_revokes_and_others_get_404(alice: Any, bob: Any) -> None:
    game = played(alice, deal("custom"))
    assert _share(bob, game).status_code == 404
    token = _share(alice, game).json()["token"]
    assert client_for(bob).delete(f"/api/games/{game.pk}/share").status_code == 404
    assert client_for(None).post(f"/api/games/{game.pk}/share").status_code in (401, 403)
    assert client_for(None).get(f"/api/replays/{token}").status_code == 200  # still live


def test_a_revoked_token_opens_nothing_and_a_new_link_has_a_new_token(alice: Any) -> None:
    game = played(alice, deal("custom"))
    token = _share(alice, game).json()["token"]
    assert client_for(alice).delete(f"/api/games/{game.pk}/share").status_code == 204
    for path in (f"/api/replays/{token}", f"/api/replays/{token}/analysis"):
        gone = client_for(alice).get(path)
        assert gone.status_code == 404 and gone.json()["code"] == "not_found"
    assert client_for(alice).delete(f"/api/games/{game.pk}/share").status_code == 204
    fresh = _share(alice, game).json()["token"]
    assert fresh != token
    assert client_for(None).get(f"/api/replays/{token}").status_code == 404
    assert client_for(None).get(f"/api/replays/{fresh}").status_code == 200


def test_guessed_tokens_are_404(alice: Any) -> None:
    game = played(alice, deal("custom"))
    token = _share(alice, game).json()["token"]
    guesses = [token[:-1] + ("A" if token[-1] != "A" else "B"), token.upper(), "a" * 22]
    for guess in guesses:
        if guess == token:
            continue
        assert client_for(None).get(f"/api/replays/{guess}").status_code == 404


def test_a_link_made_for_a_custom_game_that_is_then_in_no_shareable_deal_opens_nothing(
    alice: Any,
) -> None:
    """may_view checks the deal on every read: a link row pointing at a daily deal's game (made
    by no route, but say by hand) still opens nothing before the day ends."""
    game = played(alice, deal("daily"))
    ShareLink.objects.create(game=game, token="x" * 22)
    assert client_for(None).get("/api/replays/" + "x" * 22).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_two_shares_at_once_make_one_live_link(alice: Any) -> None:
    game = played(alice, deal("custom"))
    tokens: list[str] = []
    start = threading.Barrier(2)

    def share() -> None:
        try:
            start.wait()
            tokens.append(create_share_link(game=game).token)
        finally:
            connection.close()

    threads = [threading.Thread(target=share) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(tokens) == 2 and tokens[0] == tokens[1]
    assert ShareLink.objects.filter(game=game).count() == 1
