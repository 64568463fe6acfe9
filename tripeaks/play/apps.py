from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "tripeaks.play"
    label = "play"
    verbose_name = "Play"
    default_auto_field = "django.db.models.BigAutoField"
