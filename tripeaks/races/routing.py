from django.urls import path

from tripeaks.races.consumers import RaceConsumer

websocket_urlpatterns = [
    path("ws/races/<uuid:race_id>/", RaceConsumer.as_asgi()),
]
