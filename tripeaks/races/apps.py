from django.apps import AppConfig


class RacesConfig(AppConfig):
    name = "tripeaks.races"
    label = "races"
    verbose_name = "Races"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A race game's end (won, resigned) places its seat, inside play's finishing transaction.
        from tripeaks.play.signals import game_finished
        from tripeaks.races.receivers import on_game_finished

        game_finished.connect(on_game_finished, dispatch_uid="races.on_game_finished")
