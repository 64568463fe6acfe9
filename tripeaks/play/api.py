"""REST views of play: thin, they parse, call one service and shape the answer."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tripeaks.play import services
from tripeaks.play.errors import GameNotFound, PlayError
from tripeaks.play.models import Game
from tripeaks.play.payloads import game_payload
from tripeaks.play.serializers import MoveSerializer, StartGameSerializer


def error_response(error: PlayError) -> Response:
    body: dict[str, Any] = {"detail": error.message, "code": error.code}
    if error.view is not None:
        body["game"] = error.view
    return Response(body, status=error.status_code)


def view_of(game: Game) -> dict[str, Any]:
    return game_payload(game, services.load_game_state(game), timezone.now())


GAME_VIEW = OpenApiResponse(description="The game as its player may see it.")


class GamesView(APIView):
    @extend_schema(
        request=StartGameSerializer,
        responses={201: GAME_VIEW, 400: OpenApiResponse(description="Bad input")},
    )
    def post(self, request: Request) -> Response:
        serializer = StartGameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            game = services.start_game(
                user=request.user,
                mode=data["mode"],
                rules=data["rules"],
                layout=data["layout"],
                number=data.get("number"),
                code=data.get("deal"),
            )
        except PlayError as error:
            return error_response(error)
        return Response(view_of(game), status=status.HTTP_201_CREATED)


class CurrentGameView(APIView):
    @extend_schema(
        responses={200: GAME_VIEW, 404: OpenApiResponse(description="No unfinished game")}
    )
    def get(self, request: Request) -> Response:
        game = (
            Game.objects.select_related("deal")
            .filter(player_id=request.user.pk, finished_at__isnull=True)
            .first()
        )
        if game is None:
            return error_response(GameNotFound("you have no unfinished game"))
        return Response(view_of(game))


class GameView(APIView):
    @extend_schema(responses={200: GAME_VIEW, 404: OpenApiResponse(description="No such game")})
    def get(self, request: Request, game_id: str) -> Response:
        game = (
            Game.objects.select_related("deal")
            .filter(pk=game_id, player_id=request.user.pk)
            .first()
        )
        if game is None:
            return error_response(GameNotFound("no such game"))
        return Response(view_of(game))


class MovesView(APIView):
    @extend_schema(
        request=MoveSerializer,
        responses={
            200: GAME_VIEW,
            400: OpenApiResponse(description="Illegal move or bad input"),
            404: OpenApiResponse(description="No such game"),
            409: OpenApiResponse(description="seq mismatch; carries the current view as `game`"),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        serializer = MoveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            outcome = services.apply_move(
                game_id=game_id,
                user=request.user,
                seq=data["seq"],
                action=data["action"],
                position=data.get("position"),
            )
        except PlayError as error:
            return error_response(error)
        body = dict(outcome.view)
        if outcome.hint is not None:
            body["hint"] = outcome.hint
        if outcome.replayed:
            body["replayed"] = True
        return Response(body)
