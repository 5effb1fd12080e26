from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TurnsConfig(AppConfig):
    name = "larp.turns"
    label = "turns"
    verbose_name = _("Turns")

    def ready(self):
        from larp.dice.registry import register_context
        from larp.turns import state_version
        from larp.turns.selectors import current_phase

        register_context(lambda game: {"phase": current_phase(game)})  # the console's menu on the dice page
        state_version.connect()
