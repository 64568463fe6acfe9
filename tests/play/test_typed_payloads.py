"""The small helpers the typed payloads brought: each says plainly what it refuses."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from rest_framework.exceptions import NotAuthenticated

from tripeaks.engine.deal import from_seed
from tripeaks.engine.game import new_game
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.play.payloads import view_seq
from tripeaks.play.serializers import StartGameSerializer, rules_of
from tripeaks.play.state_codec import dump_state, load_state
from tripeaks.play.visitors import signed_in


def test_an_anonymous_visitor_is_told_to_sign_in() -> None:
    with pytest.raises(NotAuthenticated):
        signed_in(AnonymousUser())


def test_rules_of_fills_in_what_the_request_left_out() -> None:
    assert rules_of(None) == Rules()
    assert rules_of({"wrap": False}) == Rules(wrap=False)
    given = Rules(open=True, start="empty")
    assert rules_of(given) is given


def test_a_start_request_without_rules_gets_the_default_rules() -> None:
    serializer = StartGameSerializer(data={"mode": "random"})
    assert serializer.is_valid(), serializer.errors
    assert serializer.validated_data["rules"] == Rules()


def test_a_stored_position_that_is_not_one_is_refused() -> None:
    rules = Rules()
    deal = from_seed(7, LAYOUTS["classic"])
    stored = dump_state(new_game(deal, rules))
    stored["position"] = [stored["position"][0], "2", None]  # once read as 2
    with pytest.raises(ValueError, match="not a stored position"):
        load_state(stored, deal, rules)


def test_a_view_without_a_whole_seq_is_refused() -> None:
    assert view_seq({"seq": 3}) == 3
    with pytest.raises(TypeError):
        view_seq({"seq": "3"})
