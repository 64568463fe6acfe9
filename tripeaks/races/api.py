"""REST views of races and quick match: thin, they parse, call one service and shape the answer."""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth.base_user import AbstractBaseUser
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tripeaks.infra.addresses import client_address
from tripeaks.infra.api_errors import refusal_response
from tripeaks.infra.devices import request_device
from tripeaks.play.errors import PlayError
from tripeaks.play.visitors import signed_in
from tripeaks.races import quickmatch, selectors, services
from tripeaks.races.errors import RaceError, RaceNotFound
from tripeaks.races.models import Race
from tripeaks.races.serializers import (
    ClaimSerializer,
    CreateRaceSerializer,
    JoinSerializer,
    QuickMatchSerializer,
)

RACE = OpenApiResponse(description="The race as the caller may see it (no player's cards).")
REFUSED = OpenApiResponse(description="Refused: `code` says why (not_open, race_full, ...).")


def race_response(
    race_id: UUID | str, user: AbstractBaseUser, code: int = status.HTTP_200_OK
) -> Response:
    race = selectors.get_race(race_id)
    if race is None:
        return refusal_response(RaceNotFound("no such race"))
    return Response(selectors.race_payload(race, viewer_id=user.pk), status=code)


class RacesView(APIView):
    @extend_schema(
        operation_id="races_list",
        parameters=[
            OpenApiParameter(
                "state",
                str,
                description="`open`: the lobby (public open races); `live`: public races"
                " counting down or running, to watch",
            ),
            OpenApiParameter("code", str, description="A race's join code: that race"),
            OpenApiParameter("mine", bool, description="The caller's finished races"),
        ],
        responses={200: RACE},
    )
    def get(self, request: Request) -> Response:
        code = request.query_params.get("code")
        if code:
            race = selectors.race_by_code(code)
            if race is None:
                return refusal_response(RaceNotFound("no race has that code"))
            return Response(selectors.race_payload(race, viewer_id=request.user.pk))
        if request.query_params.get("mine"):
            return Response({"races": selectors.history(int(request.user.pk or 0))})
        state = request.query_params.get("state", "open")
        if state == "live":
            return Response({"races": selectors.live()})
        if state != "open":
            return Response(
                {
                    "detail": "the lobby lists open races (state=open) or live ones (state=live)",
                    "code": "invalid",
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response({"races": selectors.lobby()})

    @extend_schema(request=CreateRaceSerializer, responses={201: RACE, 409: REFUSED})
    def post(self, request: Request) -> Response:
        serializer = CreateRaceSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            race = services.create_race(
                host=signed_in(request.user),
                rules=data["rules"],
                layout=data["layout"],
                seats=data["seats"],
                public=data["public"],
                cap_s=data.get("cap_s"),
            )
        except RaceError as error:
            return refusal_response(error)
        return race_response(race.pk, signed_in(request.user), status.HTTP_201_CREATED)


class RaceView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("code", str, description="A private race's code")],
        responses={200: RACE, 404: OpenApiResponse(description="No such race")},
    )
    def get(self, request: Request, race_id: str) -> Response:
        race = selectors.get_race(race_id)
        if race is None or not services.may_enter(
            race, request.user, request.query_params.get("code")
        ):
            return refusal_response(RaceNotFound("no such race"))
        # A read shows the race as stored: its clock moves by its task and its sockets' timers
        # (docs/races.md, "Clock"), never by a GET.
        return Response(selectors.race_payload(race, viewer_id=request.user.pk))


class _RaceAction(APIView):
    def act(self, request: Request, race_id: str) -> Race:  # pragma: no cover - abstract
        raise NotImplementedError

    @extend_schema(
        request=JoinSerializer, responses={200: RACE, 403: REFUSED, 404: REFUSED, 409: REFUSED}
    )
    def post(self, request: Request, race_id: str) -> Response:
        try:
            race = self.act(request, race_id)
        except (RaceError, PlayError) as error:  # PlayError: no deal ready (503 + Retry-After)
            return refusal_response(error)
        return race_response(race.pk, signed_in(request.user))


class JoinView(_RaceAction):
    def act(self, request: Request, race_id: str) -> Race:
        serializer = JoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return services.join_race(
            race_id=race_id,
            user=signed_in(request.user),
            code=serializer.validated_data.get("code"),
        )


class LeaveView(_RaceAction):
    def act(self, request: Request, race_id: str) -> Race:
        return services.leave_race(race_id=race_id, user=signed_in(request.user))


class ClaimView(_RaceAction):
    """A racer still playing claims against one absent for 30 s: that one is placed as having
    left (409 `not_absent` while they are still here)."""

    @extend_schema(request=ClaimSerializer, responses={200: RACE, 404: REFUSED, 409: REFUSED})
    def post(self, request: Request, race_id: str) -> Response:
        return super().post(request, race_id)

    def act(self, request: Request, race_id: str) -> Race:
        serializer = ClaimSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return services.claim_absent(
            race_id=race_id,
            user=signed_in(request.user),
            against=serializer.validated_data["player"],
        )


class StartView(_RaceAction):
    def act(self, request: Request, race_id: str) -> Race:
        return services.start_race(race_id=race_id, user=signed_in(request.user))


class RematchView(_RaceAction):
    def act(self, request: Request, race_id: str) -> Race:
        return services.rematch_race(race_id=race_id, user=signed_in(request.user))


QUEUE = OpenApiResponse(
    description="`state`: idle, waiting (with `others_waiting`, `empty`) or matched (`race`)."
)


class QuickMatchView(APIView):
    @extend_schema(responses={200: QUEUE})
    def get(self, request: Request) -> Response:
        try:
            return Response(quickmatch.status(user=signed_in(request.user)))
        except PlayError as error:  # paired, but no deal ready: still queued (503)
            return refusal_response(error)

    @extend_schema(request=QuickMatchSerializer, responses={200: QUEUE, 409: REFUSED})
    def post(self, request: Request) -> Response:
        serializer = QuickMatchSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            answer = quickmatch.join(
                user=signed_in(request.user),
                rules=serializer.validated_data["rules"],
                device=request_device(request),
                address=client_address(request),
            )
        except (RaceError, PlayError) as error:
            return refusal_response(error)
        return Response(answer)

    @extend_schema(request=None, responses={200: QUEUE})
    def delete(self, request: Request) -> Response:
        quickmatch.leave(user=signed_in(request.user))
        return Response({"state": "idle"})
