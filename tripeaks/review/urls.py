from django.urls import path, register_converter

from tripeaks.review import api


class ShareTokenConverter:
    """A share token's shape (secrets.token_urlsafe): anything else is no token (404)."""

    regex = "[A-Za-z0-9_-]{16,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ShareTokenConverter, "share_token")

urlpatterns = [
    path("api/games/<uuid:game_id>/replay", api.ReplayView.as_view(), name="game-replay"),
    path("api/games/<uuid:game_id>/analysis", api.AnalysisView.as_view(), name="game-analysis"),
    path(
        "api/games/<uuid:game_id>/analysis/reveal",
        api.RevealView.as_view(),
        name="game-analysis-reveal",
    ),
    path("api/games/<uuid:game_id>/share", api.ShareView.as_view(), name="game-share"),
    path("api/replays/<share_token:token>", api.ReplayView.as_view(), name="shared-replay"),
    path(
        "api/replays/<share_token:token>/analysis",
        api.AnalysisView.as_view(),
        name="shared-analysis",
    ),
    path(
        "api/replays/<share_token:token>/analysis/reveal",
        api.RevealView.as_view(),
        name="shared-analysis-reveal",
    ),
    path("api/me/games", api.RecentGamesView.as_view(), name="my-games"),
]
