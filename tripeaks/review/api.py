"""The review's REST views: thin, they parse, ask `visibility.may_view`, call a selector or a
service and shape the answer. A game that may not be seen is answered as one that does not
exist (404 `not_found`), never 403, so that ids and share tokens cannot be probed."""

from __future__ import annotations

from typing import ClassVar, cast
from uuid import UUID

from django.contrib.auth.base_user import AbstractBaseUser
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from leaderboard.services.answers import mark_answer_seen
from tripeaks.infra.api_errors import refusal_response
from tripeaks.play.models import Game
from tripeaks.play.visitors import signed_in
from tripeaks.review import selectors, services, spoilers
from tripeaks.review.errors import ReviewError
from tripeaks.review.queue import queue_analysis
from tripeaks.review.visibility import may_view, still_counts

NOT_FOUND = OpenApiResponse(description="No such finished game that you may see (`not_found`)")
ANALYSIS_NOT_FOUND = OpenApiResponse(
    description="`not_found` as the replay; `analysis_later` for one whose replay you may see"
    " while its deal still counts (a daily deal's day, a contest)"
)
REPLAY = OpenApiResponse(
    description="ReplayPayload: the game, its rules and layout, its moves and every position as"
    " the player saw it"
)
ANALYSIS = OpenApiResponse(
    description="AnalysisPayload: the solver's verdict on each position; on a deal that still"
    " ranks (numbered), `lines_hidden: true` and null lines until the viewer revealed them"
)
REVEALED = OpenApiResponse(
    description="AnalysisPayload with its lines (`lines_hidden: false`); on a numbered deal the"
    " viewer's runs on it never rank from now on"
)
SIGN_IN = OpenApiResponse(description="`sign_in_to_reveal`: signed out")
PENDING = OpenApiResponse(description='`{"state": "pending"}`: being computed, ask again')
THROTTLED = OpenApiResponse(description="Too many requests; see `Retry-After`.")
# By game id and by share token alike.
ANALYSIS_RESPONSES = {200: ANALYSIS, 202: PENDING, 404: ANALYSIS_NOT_FOUND, 429: THROTTLED}
REVEAL_RESPONSES = {
    200: REVEALED,
    202: PENDING,
    401: SIGN_IN,
    404: ANALYSIS_NOT_FOUND,
    429: THROTTLED,
}


def not_found() -> Response:
    return Response(
        {
            "detail": "There is no such finished game, or it may not be seen yet.",
            "code": "not_found",
        },
        status=status.HTTP_404_NOT_FOUND,
    )


def _analysis_later() -> Response:
    # Seen by this viewer (the replay is theirs to see): the analysis waits for the deal to stop
    # counting (visibility.still_counts), and they may be told so.
    return Response(
        {
            "detail": "The analysis opens once this deal no longer counts: when its day"
            " has ended in Kathmandu, or its contest has ended.",
            "code": "analysis_later",
        },
        status=status.HTTP_404_NOT_FOUND,
    )


def _pending(game: Game) -> Response:
    queue_analysis(game.pk)  # the first ask asks for it, if the game's end did not
    return Response({"state": "pending"}, status=status.HTTP_202_ACCEPTED)


def _analysis_response(request: Request, game: Game) -> Response:
    """`game`'s analysis for a viewer who may see its replay (the views asked `may_view`)."""
    if still_counts(game):
        return _analysis_later()
    payload = selectors.stored_analysis(game)
    if payload is None:
        return _pending(game)
    return Response(spoilers.shown(payload, hidden=spoilers.lines_hidden(request.user, game)))


def _reveal_response(request: Request, game: Game) -> Response:
    """The whole analysis, its lines too, for a signed-in viewer (a guest too) who may see the
    replay, marked as having seen the answer to the deal when it still ranks (spoilers.py)."""
    if still_counts(game):
        return _analysis_later()
    if not isinstance(request.user, AbstractBaseUser):
        return Response(
            {
                "detail": "Sign in, or play as a guest, to see the solver's line: it ends your"
                " ranking on this deal.",
                "code": "sign_in_to_reveal",
            },
            status=status.HTTP_401_UNAUTHORIZED,
            headers={"WWW-Authenticate": "Token"},
        )
    payload = selectors.stored_analysis(game)
    if payload is None:
        return _pending(game)  # nothing shown, nothing marked: ask again
    if spoilers.hides_lines(game):
        mark_answer_seen(player_id=request.user.pk, deal_id=game.deal_id, game_id=game.pk)
    return Response(spoilers.shown(payload, hidden=False))


class _IdOrTokenSchema(AutoSchema):
    """Names the operation of each of a view's two URLs: `game_<name>` by game id,
    `shared_<name>` by share token."""

    def get_operation_id(self) -> str:
        name = cast("type[_SeenGameView]", type(self.view)).operation
        return f"game_{name}" if "{game_id}" in self.path else f"shared_{name}"


# A finished game that the viewer may see, named by its id (`/api/games/<id>/...`) or by a share
# token (`/api/replays/<token>/...`): one view for both URLs. A game that may not be seen is
# answered as one that does not exist (`not_found`). (A comment: a docstring would describe
# every operation in the schema.)
class _SeenGameView(APIView):
    permission_classes = [AllowAny]
    schema = _IdOrTokenSchema()
    operation: ClassVar[str]

    def seen_game(self, request: Request, game_id: UUID | None, token: str | None) -> Game | None:
        if token is not None:
            game = selectors.game_by_token(token)
        else:
            game = None if game_id is None else selectors.game_by_id(game_id)
        return game if game is not None and may_view(request.user, game, token) else None

    def answer(self, request: Request, game: Game) -> Response:
        raise NotImplementedError

    def respond(self, request: Request, game_id: UUID | None, token: str | None) -> Response:
        game = self.seen_game(request, game_id, token)
        return not_found() if game is None else self.answer(request, game)


class _SeenGameRead(_SeenGameView):
    def get(
        self, request: Request, game_id: UUID | None = None, token: str | None = None
    ) -> Response:
        return self.respond(request, game_id, token)


@extend_schema(responses={200: REPLAY, 404: NOT_FOUND, 429: THROTTLED})
class ReplayView(_SeenGameRead):
    operation = "replay"

    def answer(self, request: Request, game: Game) -> Response:
        return Response(selectors.replay_of(game))


@extend_schema(responses=ANALYSIS_RESPONSES)
class AnalysisView(_SeenGameRead):
    operation = "analysis"

    def answer(self, request: Request, game: Game) -> Response:
        return _analysis_response(request, game)


@extend_schema(request=None, responses=REVEAL_RESPONSES)
class RevealView(_SeenGameView):
    """The analysis' lines, for a signed-in viewer who accepts that they end their ranking."""

    operation = "analysis_reveal"  # a signed-out visitor is told why (401 sign_in_to_reveal)

    def answer(self, request: Request, game: Game) -> Response:
        return _reveal_response(request, game)

    def post(
        self, request: Request, game_id: UUID | None = None, token: str | None = None
    ) -> Response:
        return self.respond(request, game_id, token)


def _own_game(player: AbstractBaseUser, game_id: str) -> Game | None:
    game = selectors.game_by_id(game_id)
    return game if game is not None and game.player_id == player.pk else None


class ShareView(APIView):
    """The owner's share link to a finished custom or numbered deal's game."""

    @extend_schema(
        operation_id="game_share_create",
        request=None,
        responses={
            201: OpenApiResponse(description='`{"token", "url"}`: the live link (the same again)'),
            400: OpenApiResponse(description="`not_shareable` or `not_finished`"),
            404: NOT_FOUND,
            429: THROTTLED,
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        game = _own_game(signed_in(request.user), game_id)
        if game is None:
            return not_found()
        try:
            link = services.create_share_link(game=game)
        except ReviewError as error:
            return refusal_response(error)
        return Response(
            {"token": link.token, "url": f"/#/review/s/{link.token}"},
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        operation_id="game_share_revoke",
        request=None,
        responses={204: OpenApiResponse(description="Revoked (or there was none)"), 404: NOT_FOUND},
    )
    def delete(self, request: Request, game_id: str) -> Response:
        game = _own_game(signed_in(request.user), game_id)
        if game is None:
            return not_found()
        services.revoke_share_link(game=game)
        return Response(status=status.HTTP_204_NO_CONTENT)


DEFAULT_RECENT = 20


class RecentGamesView(APIView):
    """The signed-in player's (a guest's too) latest finished games, with their review's state."""

    @extend_schema(
        operation_id="my_games",
        parameters=[
            OpenApiParameter(
                "limit", int, description=f"1-{selectors.MAX_RECENT}, default {DEFAULT_RECENT}"
            )
        ],
        responses={
            200: OpenApiResponse(description="`{games: [...]}`, newest first"),
            400: OpenApiResponse(description="Bad `limit`"),
        },
    )
    def get(self, request: Request) -> Response:
        raw = request.query_params.get("limit", str(DEFAULT_RECENT))
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= selectors.MAX_RECENT:
            return Response(
                {
                    "detail": f"limit must be a whole number from 1 to {selectors.MAX_RECENT}",
                    "code": "bad_limit",
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        player = signed_in(request.user)
        return Response({"games": selectors.recent_games(player.pk, int(raw))})
