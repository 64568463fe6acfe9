from django.urls import path

from tripeaks.ratings import api, pages

urlpatterns = [
    path("ratings/", pages.ratings_page, name="ratings"),
    path("api/ratings", api.RatingsBoardView.as_view(), name="ratings-board"),
    path("api/ratings/me", api.MyRatingsView.as_view(), name="ratings-me"),
]
