from django.urls import path

from tripeaks.play.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<uuid:game_id>/", GameConsumer.as_asgi()),
]
