"""The signed-in player's own pages: GET /api/me/today (standing on today's daily deals) and
GET /api/me/history (runs over time, for the statistics charts)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from leaderboard.history import my_history
from leaderboard.today import my_today
from tripeaks.engine.rules import CLASSIC_RULE_SETS
from tripeaks.play.visitors import signed_in

RULE_KEYS = {rules.key for rules in CLASSIC_RULE_SETS}


class MyTodayView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: OpenApiResponse(
                description="`day`, `rule_sets` (per rule set key: `state` not_played, playing, "
                "won or lost; for a result `time_ms`, `moves`, `cards_left`, `ranked`, `rank`, "
                "`lines`), `daily_streak`, `best_daily_streak`"
            )
        }
    )
    def get(self, request: Request) -> Response:
        return Response(my_today(signed_in(request.user)))


class MyHistoryView(APIView):
    """GET /api/me/history?rules=&layout=: the signed-in player's runs, oldest first."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("rules", str, enum=sorted(RULE_KEYS), description="one rule set"),
            OpenApiParameter("layout", str, description="one layout's name"),
        ],
        responses={
            200: OpenApiResponse(
                description="`fields`, `runs` (one array per run, newest 1000), `layouts` played"
            ),
            400: OpenApiResponse(description="Unknown rule set"),
        },
    )
    def get(self, request: Request) -> Response:
        rules = request.query_params.get("rules") or None
        if rules is not None and rules not in RULE_KEYS:
            raise ValidationError(
                {"rules": "use wrap-closed, wrap-open, nowrap-closed or nowrap-open"}
            )
        layout = request.query_params.get("layout") or None
        return Response(
            my_history(
                signed_in(request.user), rules_key=rules, layout=layout[:40] if layout else None
            )
        )
