"""REST views of the ratings: thin, they parse the query, call the selectors, shape the answer.

``GET /api/ratings?rules=<key>`` (public): the board of a rule set. ``GET /api/ratings/me``: the
signed-in player's ratings on every rule set they raced on, with their latest rated races. Bad
parameters are 400s with a readable ``detail`` (tripeaks.infra.api_errors).
"""

from __future__ import annotations

import re

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tripeaks.infra.rules_field import RulesField
from tripeaks.ratings import selectors
from tripeaks.ratings.services import PROVISIONAL_RACES


class LimitField(serializers.IntegerField):
    """ASCII digits only: ``int()`` takes '٣' or '３', which no client means."""

    def to_internal_value(self, data: object) -> int:
        if not isinstance(data, str) or not re.fullmatch(r"[0-9]{1,6}", data):
            raise ValidationError("a whole number written in the digits 0-9")
        value: int = super().to_internal_value(data)
        return value


class BoardQuery(serializers.Serializer[dict[str, object]]):
    rules = RulesField(
        required=False, default="wrap-closed", max_length=40, help_text="A rule-set key."
    )
    limit = LimitField(
        required=False,
        default=selectors.DEFAULT_LIMIT,
        min_value=1,
        max_value=selectors.MAX_LIMIT,
        help_text=f"Lines, 1 to {selectors.MAX_LIMIT}.",
    )


BAD = OpenApiResponse(description="Bad parameter (`detail` names it)")


class RatingsBoardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[BoardQuery],
        responses={
            200: OpenApiResponse(
                description="The board: `lines` (rank, player, rating, rd, races), established "
                "ratings only, highest first; `provisional`, how many players are still "
                "provisional (fewer than `provisional_races` rated races, not on the board); "
                "`me`, the caller's rating on the rule set (null when signed out)."
            ),
            400: BAD,
        },
    )
    def get(self, request: Request) -> Response:
        serializer = BoardQuery(data=request.query_params)
        serializer.is_valid(raise_exception=True)
        rules = serializer.validated_data["rules"]
        me = None
        if request.user.is_authenticated:
            me = selectors.standing_of(request.user.pk, rules)
        return Response(
            {
                "rules": rules,
                "provisional_races": PROVISIONAL_RACES,
                "provisional": selectors.provisional_count(rules),
                "lines": selectors.ratings_board(rules, limit=serializer.validated_data["limit"]),
                "me": me,
            }
        )


class MyRatingsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: OpenApiResponse(
                description="`ratings`: per rule set the player raced on, `rules`, `rating`, "
                "`rd`, `races`, `provisional`, `rank` (null while provisional) and `history`, "
                "their latest rated races (race, place, players, before, after, change, rd, at)."
            ),
            401: OpenApiResponse(description="Not signed in"),
        }
    )
    def get(self, request: Request) -> Response:
        user_id = request.user.pk
        assert user_id is not None  # IsAuthenticated
        return Response(
            {
                "provisional_races": PROVISIONAL_RACES,
                "ratings": [
                    {
                        **selectors.standing_of(user_id, rules_key, view=view),
                        "history": selectors.history_of(user_id, rules_key),
                    }
                    for rules_key, view in selectors.ratings_of(user_id).items()
                ],
            }
        )
