"""``GET /api/me/export``: everything the player played, as JSON (leaderboard/export.py)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from leaderboard import export

_ERROR = OpenApiResponse(description='Error: `{"detail": "...", "errors": {...}?}`')


class ExportView(APIView):
    """Everything the player played, as JSON (games with move logs and results, statistics).

    Up to 1,000 games a document, oldest first; `next` is the cursor of the rest."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "export"

    @extend_schema(
        parameters=[OpenApiParameter("cursor", str, required=False)],
        responses={
            200: OpenApiResponse(description="The export document."),
            400: _ERROR,
            401: _ERROR,
        },
    )
    def get(self, request: Request) -> Response:
        user = request.user
        assert user.is_authenticated
        try:
            document = export.export_page(user=user, cursor=request.query_params.get("cursor"))
        except export.BadCursor as exc:
            raise ValidationError({"cursor": ["Not a cursor of this export."]}) from exc
        response = Response(document)
        response["Content-Disposition"] = f'attachment; filename="tripeaks-{user.pk}.json"'
        return response
