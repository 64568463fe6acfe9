from django.urls import path

from tripeaks.races import api, pages

urlpatterns = [
    path("api/races", api.RacesView.as_view(), name="races"),
    path("api/races/<uuid:race_id>", api.RaceView.as_view(), name="race"),
    path("api/races/<uuid:race_id>/join", api.JoinView.as_view(), name="race-join"),
    path("api/races/<uuid:race_id>/leave", api.LeaveView.as_view(), name="race-leave"),
    path("api/races/<uuid:race_id>/claim", api.ClaimView.as_view(), name="race-claim"),
    path("api/races/<uuid:race_id>/start", api.StartView.as_view(), name="race-start"),
    path("api/races/<uuid:race_id>/rematch", api.RematchView.as_view(), name="race-rematch"),
    path("api/quickmatch", api.QuickMatchView.as_view(), name="quickmatch"),
    # The pages are the app's hash routes (frontend/static/frontend/js/pages/races.js).
    path("races/", pages.lobby, name="races-page"),
    path("races/<uuid:race_id>/", pages.race, name="race-page"),
]
