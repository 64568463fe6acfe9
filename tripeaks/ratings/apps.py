from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "tripeaks.ratings"
    label = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"
