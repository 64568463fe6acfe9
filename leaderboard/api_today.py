"""GET /api/me/today: the signed-in player's standing on today's daily deals."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from leaderboard.today import my_today


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
        return Response(my_today(request.user))
