from django.urls import path

from tripeaks.play import api

urlpatterns = [
    path("api/games", api.GamesView.as_view(), name="games"),
    path("api/games/current", api.CurrentGameView.as_view(), name="game-current"),
    path("api/games/<uuid:game_id>", api.GameView.as_view(), name="game"),
    path("api/games/<uuid:game_id>/moves", api.MovesView.as_view(), name="game-moves"),
    path("api/layouts", api.LayoutsView.as_view(), name="layouts"),
    path("api/layouts/<str:name>", api.LayoutView.as_view(), name="layout"),
    path("api/today", api.TodayView.as_view(), name="today"),
]
