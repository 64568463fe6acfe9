"""REST views of the leaderboard: thin, they parse the query, call one selector, shape the answer.

Boards and a player's statistics are public; ``/api/me/stats`` needs a signed-in player. Bad
parameters are 400s with a readable ``detail`` (see tripeaks.infra.api_errors).
"""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from leaderboard import selectors
from leaderboard.models import ALL_RULES
from leaderboard.services import board_cache, exclusion
from tripeaks.engine.layouts import get_layout
from tripeaks.infra.rules_field import RulesField
from tripeaks.play.dealday import deal_day
from tripeaks.play.deals import NUMBERED_DEALS


class PageQuery(serializers.Serializer[dict[str, object]]):
    rules = RulesField(required=False, default="wrap-closed", help_text="A rule-set key.")
    limit = serializers.IntegerField(
        required=False,
        default=selectors.DEFAULT_LIMIT,
        min_value=1,
        max_value=selectors.MAX_LIMIT,
        help_text=f"Lines per page, 1 to {selectors.MAX_LIMIT}.",
    )
    cursor = serializers.CharField(
        required=False, max_length=400, help_text="`next_cursor` of the previous page."
    )


class DailyQuery(PageQuery):
    date = serializers.DateField(
        required=False, help_text="The deal day, YYYY-MM-DD (default: today, Asia/Kathmandu)."
    )
    board = serializers.ChoiceField(
        choices=sorted(selectors.DAILY_BOARDS),
        required=False,
        default="first",
        help_text="`first`: each player's first try (ranked, default); `best`: their best run.",
    )


class NumberedQuery(PageQuery):
    layout = serializers.CharField(required=False, default="classic", max_length=40)

    def validate_layout(self, value: str) -> str:
        try:
            get_layout(value)
        except ValueError as error:
            raise ValidationError(str(error)) from None
        return value


class AllTimeQuery(PageQuery):
    rules = RulesField(
        required=False, default=ALL_RULES, help_text="A rule-set key, or `all` (default)."
    )

    def to_internal_value(self, data: Any) -> Any:
        if data.get("rules") == ALL_RULES:
            data = data.copy()
            data.pop("rules")
        return super().to_internal_value(data)


def _parse(
    serializer_class: type[serializers.Serializer[dict[str, object]]], request: Request
) -> dict[str, Any]:
    serializer = serializer_class(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _page_body(page: selectors.Page, **board: Any) -> dict[str, Any]:
    return {
        "board": board,
        "total": page.total,
        "lines": page.lines,
        "next_cursor": page.next_cursor,
        "me": page.me,
    }


def _cursor_error(error: selectors.BadCursor) -> ValidationError:
    return ValidationError({"cursor": [str(error)]})


BOARD = OpenApiResponse(
    description="A page of the board: `lines` (rank, player, won, time_ms, moves, score, "
    "cards_left, finished_at), `next_cursor`, `total`, and `me`, the caller's own line and rank."
)
BAD = OpenApiResponse(description="Bad parameter (`detail` names it)")


class DailyBoardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[DailyQuery], responses={200: BOARD, 400: BAD})
    def get(self, request: Request) -> Response:
        query = _parse(DailyQuery, request)
        day = query.get("date") or deal_day()
        record = selectors.daily_record(day, query["rules"])
        try:
            page = selectors.deal_board(
                record,
                limit=query["limit"],
                cursor=query.get("cursor"),
                viewer=request.user,
                board=query["board"],
            )
        except selectors.BadCursor as error:
            raise _cursor_error(error) from None
        if record is not None and page.cold:  # the viewer's rank was counted: fill the rank set
            board_cache.warm_board_cache(deal_id=record.deal_id, board=query["board"])
        return Response(
            _page_body(
                page,
                kind="daily",
                date=day.isoformat(),
                rules=query["rules"],
                ranking=query["board"],
            )
        )


class NumberedBoardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            NumberedQuery,
            OpenApiParameter("number", OpenApiTypes.INT, OpenApiParameter.PATH),
        ],
        responses={200: BOARD, 400: BAD},
    )
    def get(self, request: Request, number: str) -> Response:
        # ASCII digits only: str.isdigit() takes '²', which int() then refuses (a 500).
        if not re.fullmatch(r"[0-9]{1,9}", number) or not 1 <= int(number) <= NUMBERED_DEALS:
            raise ValidationError({"number": [f"a deal number is 1 to {NUMBERED_DEALS}"]})
        query = _parse(NumberedQuery, request)
        record = selectors.numbered_record(int(number), query["rules"], query["layout"])
        try:
            page = selectors.deal_board(
                record, limit=query["limit"], cursor=query.get("cursor"), viewer=request.user
            )
        except selectors.BadCursor as error:
            raise _cursor_error(error) from None
        return Response(
            _page_body(
                page,
                kind="numbered",
                number=int(number),
                rules=query["rules"],
                layout=query["layout"],
            )
        )


class AllTimeBoardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            AllTimeQuery,
            OpenApiParameter(
                "board",
                OpenApiTypes.STR,
                OpenApiParameter.PATH,
                enum=sorted(selectors.ALLTIME_BOARDS),
            ),
        ],
        responses={
            200: OpenApiResponse(
                description="A page: `lines` (rank, player, value, played, won, win_rate, "
                "daily_won, best_daily_streak), `next_cursor`, `total`, `me`."
            ),
            400: BAD,
        },
    )
    def get(self, request: Request, board: str) -> Response:
        if board not in selectors.ALLTIME_BOARDS:
            names = ", ".join(sorted(selectors.ALLTIME_BOARDS))
            raise ValidationError({"board": [f"unknown board {board!r}: use one of {names}"]})
        query = _parse(AllTimeQuery, request)
        try:
            page = selectors.alltime_board(
                board,
                rules_key=query["rules"],
                limit=query["limit"],
                cursor=query.get("cursor"),
                viewer=request.user,
            )
        except selectors.BadCursor as error:
            raise _cursor_error(error) from None
        return Response(_page_body(page, kind="alltime", name=board, rules=query["rules"]))


STATS = OpenApiResponse(
    description="`player`, `overall` and per rule set `rules` statistics (played, won, lost, "
    "win_rate, current_streak, best_streak, best_win_ms, average_win_ms, daily_won, "
    "daily_streak, best_daily_streak), and the last 20 results as `recent`."
)


class PlayerStatsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: STATS, 404: OpenApiResponse(description="No such player")},
    )
    def get(self, request: Request, username: str) -> Response:
        user = selectors.player_named(username)
        if user is None:
            raise NotFound("no such player")
        return Response(selectors.player_stats(user, owner=user.pk == request.user.pk))


class MyStatsView(APIView):
    @extend_schema(responses={200: STATS})
    def get(self, request: Request) -> Response:
        return Response(selectors.player_stats(request.user))


# --------------------------------------------------------------------------- staff (fair play)


class RemovalSerializer(serializers.Serializer[dict[str, object]]):
    reason = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)


class RemoveFromBoardsView(APIView):
    """Staff only: take a player off every board (their statistics stay)."""

    permission_classes = [IsAdminUser]

    @extend_schema(
        request=RemovalSerializer,
        responses={
            200: OpenApiResponse(description="`player` and the board `deals` rebuilt"),
            403: OpenApiResponse(description="Not staff"),
            404: OpenApiResponse(description="No such player"),
        },
    )
    def post(self, request: Request, username: str) -> Response:
        serializer = RemovalSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = selectors.player_named(username, active_only=False)
        if user is None:
            raise NotFound("no such player")
        deals = exclusion.remove_player_from_boards(
            player=user, reason=serializer.validated_data["reason"], by=request.user
        )
        return Response({"player": selectors.player_payload(user), "deals": deals})


class FlaggedRunsView(APIView):
    """Staff only: the latest runs waiting for review (held or flagged), with why."""

    permission_classes = [IsAdminUser]

    @extend_schema(
        responses={
            200: OpenApiResponse(
                description="`results`: the 100 latest runs waiting for review, each with"
                " `held`, `flagged` and `reason` (why it was held or flagged)"
            ),
            403: OpenApiResponse(description="Not staff"),
        }
    )
    def get(self, request: Request) -> Response:
        return Response({"results": selectors.runs_to_review()})
