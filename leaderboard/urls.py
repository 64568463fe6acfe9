from django.urls import path

from leaderboard import api, api_export, api_me, pages

urlpatterns = [
    path("fair-play/", pages.fair_play, name="fair-play"),
    path("staff/review/", pages.review_queue, name="leaderboard-review"),
    path(
        "staff/review/<int:result_id>/", pages.review_decision, name="leaderboard-review-decision"
    ),
    path(
        "staff/review/rating-flags/<int:flag_id>/",
        pages.rating_flag_decision,
        name="leaderboard-rating-flag-decision",
    ),
    path("api/leaderboards/daily", api.DailyBoardView.as_view(), name="leaderboard-daily"),
    path(
        "api/leaderboards/numbered/<str:number>",
        api.NumberedBoardView.as_view(),
        name="leaderboard-numbered",
    ),
    path(
        "api/leaderboards/alltime/<str:board>",
        api.AllTimeBoardView.as_view(),
        name="leaderboard-alltime",
    ),
    path("api/players/<str:username>/stats", api.PlayerStatsView.as_view(), name="player-stats"),
    path("api/me/stats", api.MyStatsView.as_view(), name="my-stats"),
    path("api/me/export", api_export.ExportView.as_view(), name="my-export"),
    path("api/me/today", api_me.MyTodayView.as_view(), name="my-today"),
    path("api/me/history", api_me.MyHistoryView.as_view(), name="my-history"),
    path("api/staff/flagged-runs", api.FlaggedRunsView.as_view(), name="staff-flagged-runs"),
    path(
        "api/staff/players/<str:username>/remove-from-boards",
        api.RemoveFromBoardsView.as_view(),
        name="staff-remove-from-boards",
    ),
]
