"""REST views of arenas: thin, they parse, call one service or selector and shape the answer."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tripeaks.arenas import selectors, services
from tripeaks.arenas.errors import ArenaNotFound
from tripeaks.infra.addresses import client_address
from tripeaks.infra.api_errors import refusal_response
from tripeaks.infra.devices import request_device
from tripeaks.infra.throttling import (
    FailOpenAnonRateThrottle,
    FailOpenUserRateThrottle,
    GameStartThrottle,
)
from tripeaks.play.api import view_of
from tripeaks.play.errors import PlayError
from tripeaks.play.visitors import signed_in

ARENA = OpenApiResponse(description="The arena, its standings, your line, its podium when over.")
REFUSED = OpenApiResponse(description="Not now: the arena is over, not running, or not joined.")
NOT_FOUND = OpenApiResponse(description="No such arena")


class ArenasView(APIView):
    """Public: running arenas, the next ones, those that ended in the last two days."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="arenas_list",
        responses={200: OpenApiResponse(description="running, upcoming, finished")},
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.arena_lists())


class ArenaView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="arena_retrieve", responses={200: ARENA, 404: NOT_FOUND})
    def get(self, request: Request, arena_id: str) -> Response:
        arena = selectors.arena_or_none(arena_id)
        if arena is None:
            return refusal_response(ArenaNotFound("no such arena"))
        return Response(selectors.arena_detail(arena, request.user, timezone.now()))


class JoinView(APIView):
    @extend_schema(request=None, responses={200: ARENA, 404: NOT_FOUND, 409: REFUSED})
    def post(self, request: Request, arena_id: str) -> Response:
        try:
            entry = services.join(arena_id=arena_id, user=signed_in(request.user))
        except PlayError as error:
            return refusal_response(error)
        return Response(selectors.arena_detail(entry.arena, request.user))


class LeaveView(APIView):
    @extend_schema(request=None, responses={200: ARENA, 404: NOT_FOUND, 409: REFUSED})
    def post(self, request: Request, arena_id: str) -> Response:
        try:
            entry = services.leave(arena_id=arena_id, user=signed_in(request.user))
        except PlayError as error:
            return refusal_response(error)
        return Response(selectors.arena_detail(entry.arena, request.user))


class PlayView(APIView):
    """Your next game of the arena (or the one you have not finished): its id and its view.
    Its moves go to /api/games/{id}/moves or the game socket, as every game's."""

    throttle_classes = [FailOpenAnonRateThrottle, FailOpenUserRateThrottle, GameStartThrottle]

    @extend_schema(
        request=None,
        responses={
            200: OpenApiResponse(description="Your unfinished game of this arena"),
            201: OpenApiResponse(description="A new game: {game_id, game}"),
            404: NOT_FOUND,
            409: REFUSED,
        },
    )
    def post(self, request: Request, arena_id: str) -> Response:
        try:
            game, new = services.play(
                arena_id=arena_id,
                user=signed_in(request.user),
                device=request_device(request),
                address=client_address(request),
            )
        except PlayError as error:
            return refusal_response(error)
        return Response(
            {"game_id": str(game.pk), "game": view_of(game)},
            status=status.HTTP_201_CREATED if new else status.HTTP_200_OK,
        )


def arenas_page(request: HttpRequest) -> HttpResponse:
    """/arenas/: the app's arenas screen."""
    return HttpResponseRedirect("/#/arenas")


def arena_page(request: HttpRequest, arena_id: str) -> HttpResponse:
    """/arenas/{id}/: the app's screen of one arena."""
    return HttpResponseRedirect(f"/#/arenas/{arena_id}")
