from django.apps import AppConfig


class ArenasConfig(AppConfig):
    name = "tripeaks.arenas"
    label = "arenas"
    verbose_name = "Arenas"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tripeaks.arenas import receivers
        from tripeaks.arenas.export import entries_of
        from tripeaks.infra.player_signals import player_leaving
        from tripeaks.play.export_sections import contribute
        from tripeaks.play.signals import game_finished

        # An arena's points are written with the finish of its games (play's signal).
        game_finished.connect(receivers.arena_game_finished, dispatch_uid="arenas-points")
        # A deleted account leaves the arenas it joined, with the deletion.
        player_leaving.connect(receivers.player_leaving, dispatch_uid="arenas-leave")
        # The player's arena entries in their data export (GET /api/me/export).
        contribute("arenas", entries_of)
