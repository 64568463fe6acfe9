"""REST views of play: thin, they parse, call one service and shape the answer."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tripeaks.engine.layouts import DEFAULT_LAYOUT, LAYOUTS
from tripeaks.engine.rules import CLASSIC_RULE_SETS
from tripeaks.engine.view import layout_outline, layout_view
from tripeaks.infra.addresses import client_address
from tripeaks.infra.api_errors import refusal_response
from tripeaks.infra.devices import request_device
from tripeaks.infra.throttling import (
    FailOpenAnonRateThrottle,
    FailOpenUserRateThrottle,
    GameStartThrottle,
    MoveThrottle,
)
from tripeaks.play import clock_sweep, selectors, services
from tripeaks.play.dealday import deal_day, next_day_start
from tripeaks.play.errors import GameNotFound, PlayError
from tripeaks.play.models import Game
from tripeaks.play.payloads import ViewPayload, game_payload, rules_payload
from tripeaks.play.serializers import MoveSerializer, StartGameSerializer
from tripeaks.play.visitors import signed_in


def view_of(game: Game) -> ViewPayload:
    return game_payload(game, services.load_game_state(game), timezone.now())


def shown(game: Game, *, read: bool = False) -> None:
    """A REST request shows a solo game's cards now: its beat, as a socket's server beats for it
    (docs/fair-play.md, "One clock"); a contest's clock never stops, a finished one is stopped."""
    if not game.contest and not game.finished:
        clock_sweep.shown_by_request(str(game.pk), read=read)


GAME_VIEW = OpenApiResponse(description="The game as its player may see it.")
THROTTLED = OpenApiResponse(description="Too many requests; see `Retry-After`.")


class GamesView(APIView):
    throttle_classes = [FailOpenAnonRateThrottle, FailOpenUserRateThrottle, GameStartThrottle]

    @extend_schema(
        request=StartGameSerializer,
        responses={201: GAME_VIEW, 400: OpenApiResponse(description="Bad input"), 429: THROTTLED},
    )
    def post(self, request: Request) -> Response:
        serializer = StartGameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            game = services.start_requested_game(
                signed_in(request.user),
                serializer.validated_data,
                device=request_device(request),
                address=client_address(request),
            )
        except PlayError as error:
            return refusal_response(error)
        shown(game)
        return Response(view_of(game), status=status.HTTP_201_CREATED)


class CurrentGameView(APIView):
    @extend_schema(
        responses={200: GAME_VIEW, 404: OpenApiResponse(description="No unfinished game")}
    )
    def get(self, request: Request) -> Response:
        game = selectors.unfinished_game(player_id=signed_in(request.user).pk)
        if game is None:
            return refusal_response(GameNotFound("you have no unfinished game"))
        shown(game, read=True)
        return Response(view_of(game))


class GameView(APIView):
    @extend_schema(responses={200: GAME_VIEW, 404: OpenApiResponse(description="No such game")})
    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.players_game(game_id=game_id, player_id=signed_in(request.user).pk)
        if game is None:
            return refusal_response(GameNotFound("no such game"))
        shown(game, read=True)
        return Response(view_of(game))


class MovesView(APIView):
    throttle_classes = [FailOpenAnonRateThrottle, FailOpenUserRateThrottle, MoveThrottle]

    @extend_schema(
        request=MoveSerializer,
        responses={
            200: GAME_VIEW,
            400: OpenApiResponse(description="Illegal move or bad input"),
            404: OpenApiResponse(description="No such game"),
            409: OpenApiResponse(
                description="seq mismatch (carries the current view as `game`), or `time_up`:"
                " the game's contest is over"
            ),
            429: THROTTLED,
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        serializer = MoveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = signed_in(request.user)
        try:
            outcome = services.apply_move(
                game_id=game_id,
                user=user,
                seq=data["seq"],
                action=data["action"],
                position=data.get("position"),
                by_request=True,  # the game's beat: one Redis command
            )
        except PlayError as error:
            return refusal_response(error)
        body = dict(outcome.view)
        if outcome.hint is not None:
            body["hint"] = outcome.hint
        if outcome.replayed:
            body["replayed"] = True
        return Response(body)


class LayoutsView(APIView):
    """Public: every layout's shape (no cards), for drawing thumbnails and the table.

    ``?form=outline`` is the picker's light form: each slot as ``[x, y, z]``, without the
    positions and what covers them (the game page asks for its one layout instead)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "form", str, enum=["outline"], description="outline: slots as [x, y, z] only"
            )
        ],
        responses={200: OpenApiResponse(description="Every layout: name, title, size, slots")},
    )
    def get(self, request: Request) -> Response:
        if request.query_params.get("form") == "outline":
            return Response(
                {
                    "default": DEFAULT_LAYOUT,
                    "layouts": [layout_outline(layout) for layout in LAYOUTS.values()],
                }
            )
        return Response(
            {
                "default": DEFAULT_LAYOUT,
                "layouts": [layout_view(layout) for layout in LAYOUTS.values()],
            }
        )


class LayoutView(APIView):
    """Public: one layout's shape (no cards), all the game page needs to draw its table."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="layout_retrieve",
        responses={
            200: OpenApiResponse(description="The layout: name, title, size, slots"),
            404: OpenApiResponse(description="No such layout"),
        },
    )
    def get(self, request: Request, name: str) -> Response:
        layout = LAYOUTS.get(name)
        if layout is None:
            return Response(
                {"detail": "There is no layout of that name.", "code": "not_found"},
                status=status.HTTP_404_NOT_FOUND,
            )
        return Response(layout_view(layout))


class TodayView(APIView):
    """Public: which deal day it is and when the next daily deal appears."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            200: OpenApiResponse(description="The deal day, its time zone and the next turn")
        }
    )
    def get(self, request: Request) -> Response:
        now = timezone.now()
        return Response(
            {
                "day": deal_day(now).isoformat(),
                "time_zone": settings.DEAL_DAY_TIME_ZONE,
                "next_day_at": next_day_start(now).isoformat(),
                "server_time": now.isoformat(),
                "rule_sets": [rules_payload(rules) for rules in CLASSIC_RULE_SETS],
            }
        )
