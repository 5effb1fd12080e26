from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "larp.battles"
    label = "battles"
    verbose_name = _("Battles")

    def ready(self):
        from larp.battles.selectors import war_battles
        from larp.battles.services import unfinished_work
        from larp.dice.registry import register_war
        from larp.turns.services import register_phase_work

        register_phase_work(unfinished_work)
        register_war(war_battles)
