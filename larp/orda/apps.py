from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OrdaConfig(AppConfig):
    name = "larp.orda"
    label = "orda"
    verbose_name = _("Orda")

    def ready(self):
        from larp.orda.readiness import for_game
        from larp.orda.services import prepare_war_battle
        from larp.tables.registry import register_prepare, register_readiness

        register_prepare("orda", prepare_war_battle)
        register_readiness("orda", for_game)
