from django.urls import path

from tripeaks.arenas import api

urlpatterns = [
    path("api/arenas", api.ArenasView.as_view(), name="arenas"),
    path("api/arenas/<uuid:arena_id>", api.ArenaView.as_view(), name="arena"),
    path("api/arenas/<uuid:arena_id>/join", api.JoinView.as_view(), name="arena-join"),
    path("api/arenas/<uuid:arena_id>/leave", api.LeaveView.as_view(), name="arena-leave"),
    path("api/arenas/<uuid:arena_id>/play", api.PlayView.as_view(), name="arena-play"),
    path("arenas/", api.arenas_page, name="arenas-page"),
    path("arenas/<uuid:arena_id>/", api.arena_page, name="arena-page"),
]
