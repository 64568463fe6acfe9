from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "tripeaks.play"
    label = "play"
    verbose_name = "Play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Every `@shared_task` of the project binds to this app when queued from a server process.
        import tripeaks.config.celery  # noqa: F401
