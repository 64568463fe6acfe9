from django.apps import AppConfig


class RacesConfig(AppConfig):
    name = "tripeaks.races"
    label = "races"
    verbose_name = "Races"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tripeaks.infra.player_signals import player_leaving
        from tripeaks.play.export_sections import contribute
        from tripeaks.play.signals import game_finished
        from tripeaks.races.export import races_of
        from tripeaks.races.receivers import on_game_finished, on_player_leaving

        # A race game's end (won, resigned) places its seat, inside play's finishing transaction.
        game_finished.connect(on_game_finished, dispatch_uid="races.on_game_finished")
        # A deleted account leaves its races and the quick-match queue, with the deletion.
        player_leaving.connect(on_player_leaving, dispatch_uid="races.on_player_leaving")
        # The player's races in their data export (GET /api/me/export).
        contribute("races", races_of)
