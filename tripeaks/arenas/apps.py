from django.apps import AppConfig


class ArenasConfig(AppConfig):
    name = "tripeaks.arenas"
    label = "arenas"
    verbose_name = "Arenas"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # An arena's points are written with the finish of its games (play's signal).
        from tripeaks.arenas import receivers
        from tripeaks.play.signals import game_finished

        game_finished.connect(receivers.arena_game_finished, dispatch_uid="arenas-points")
