from django.urls import path

from tripeaks.arenas.consumers import ArenaConsumer

websocket_urlpatterns = [
    path("ws/arenas/<uuid:arena_id>/", ArenaConsumer.as_asgi()),
]
