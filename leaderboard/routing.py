from django.urls import path

from leaderboard.consumers import DailyBoardConsumer

websocket_urlpatterns = [
    path("ws/leaderboards/daily/<str:rules>/", DailyBoardConsumer.as_asgi()),
]
