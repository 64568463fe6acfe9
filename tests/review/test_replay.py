"""The replay: every position as the player saw it (the play table's own view, never a
face-down card nor the stock ahead), one per move and the deal first."""

from __future__ import annotations

from typing import Any

import pytest

from tests.play.helpers import winnable_code
from tests.review.helpers import client_for, deal, move, played, start
from tripeaks.engine import game as engine
from tripeaks.engine.deal import parse_code
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.view import player_view

pytestmark = pytest.mark.django_db


def _winning_moves() -> list[tuple[str, int | None]]:
    _, line = winnable_code()
    return [(step["action"], step.get("position")) for step in line]


def test_a_won_game_replays_move_by_move_as_the_player_saw_it(alice: Any) -> None:
    on = deal("custom")
    line = _winning_moves()
    game = start(alice, on)
    game = move(alice, game, "hint")  # logged, but no step of the replay
    for action, position in line:
        game = move(alice, game, action, position)
    assert game.status == "won"
    body = client_for(alice).get(f"/api/games/{game.pk}/replay").json()
    assert body["game"]["status"] == "won" and body["game"]["player"] == {
        "name": alice.display_name
    }
    assert body["game"]["deal"]["source"] == "custom"
    assert body["game"]["deal"]["label"] == "Custom deal"
    assert body["rules"]["key"] == on.rules_key and body["layout"]["name"] == "classic"
    assert [(m["action"], m["position"]) for m in body["moves"]] == line
    assert [m["seq"] for m in body["moves"]] == list(range(2, len(line) + 2))
    assert len(body["positions"]) == len(line) + 1
    rules = Rules.from_key(on.rules_key)
    state = engine.new_game(parse_code(on.code, get_layout("classic"), rules.start), rules)
    expected = [player_view(state)]
    for action, position in line:
        move_ = engine.Play(position) if action == "play" else engine.Draw()
        state = engine.apply(state, move_)
        expected.append(player_view(state))
    assert body["positions"] == expected
    assert body["positions"][-1]["cards_left"] == 0


def test_no_position_shows_a_face_down_card_or_the_stock_ahead(alice: Any) -> None:
    on = deal("custom")
    game = played(alice, on, [("draw", None)] * 5 + [("undo", None), ("restart", None)])
    body = client_for(alice).get(f"/api/games/{game.pk}/replay").json()
    assert [m["action"] for m in body["moves"]] == ["draw"] * 5 + ["undo", "restart"]
    for view in body["positions"]:
        for slot in view["positions"]:
            assert (slot["card"] is not None) == (slot["face_up"] and not slot["removed"])
        assert not ({"stock", "code", "deal", "seed"} & set(view))
    # The waste shows only cards drawn so far: after the restart, the deal's own waste card.
    assert body["positions"][-1]["waste"] == body["positions"][0]["waste"]
    assert body["positions"][-1]["stock_left"] == body["positions"][0]["stock_left"]


def test_a_resigned_game_ends_where_it_stood(alice: Any) -> None:
    game = played(alice, deal("random"), [("draw", None)])
    body = client_for(alice).get(f"/api/games/{game.pk}/replay").json()
    assert body["game"]["status"] == "lost"
    assert [m["action"] for m in body["moves"]] == ["draw"]  # the resignation is no step
    assert len(body["positions"]) == 2


def test_labels_name_the_deal(alice: Any) -> None:
    daily = played(alice, deal("daily"))
    numbered = played(alice, deal("numbered", number=77))
    client = client_for(alice)
    day = daily.deal.day.isoformat()
    assert client.get(f"/api/games/{daily.pk}/replay").json()["game"]["deal"]["label"] == (
        f"Daily deal {day}"
    )
    assert client.get(f"/api/games/{numbered.pk}/replay").json()["game"]["deal"] == {
        "source": "numbered",
        "layout": "classic",
        "rules_key": numbered.deal.rules_key,
        "number": 77,
        "day": None,
        "label": "Deal #77",
    }
    german = client.get(f"/api/games/{numbered.pk}/replay", HTTP_ACCEPT_LANGUAGE="de")
    assert german.json()["game"]["deal"]["label"] != "Deal #77"


def test_replays_are_sent_gzipped(alice: Any) -> None:
    for _ in range(4):  # a list of one game is so short that gzip's random padding can lose
        played(alice, deal("custom"), [("draw", None)] * 2)
    game = played(alice, deal("custom"), [("draw", None)] * 10)
    token = client_for(alice).post(f"/api/games/{game.pk}/share").json()["token"]
    for path in (f"/api/games/{game.pk}/replay", f"/api/replays/{token}", "/api/me/games"):
        plain = client_for(alice).get(path)
        packed = client_for(alice).get(path, HTTP_ACCEPT_ENCODING="gzip")
        assert packed["Content-Encoding"] == "gzip", path
        assert len(packed.content) < len(plain.content), path
