from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "tripeaks.review"
    label = "review"
    verbose_name = "Game review"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tripeaks.play.signals import game_finished
        from tripeaks.review.receivers import on_game_finished

        # A finished game's analysis is asked of the solver's worker once the finish commits.
        game_finished.connect(on_game_finished, dispatch_uid="review.on_game_finished")
