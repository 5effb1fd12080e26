from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BridgeConfig(AppConfig):
    """A battle of the war fought at a table of another rule system, and its result back into the turn."""
    name = "larp.bridge"
    label = "bridge"
    verbose_name = _("Battles of the war at the tables")

    def ready(self):
        from larp.battles.hooks import register_hold, register_panel
        from larp.bridge.services import conversions, hold, result_taken, unfinished_work
        from larp.bridge.views import panel
        from larp.tables.registry import register_conversions, register_result_taken
        from larp.turns.services import register_phase_work

        register_hold(hold)
        register_panel(panel)
        register_phase_work(unfinished_work)
        register_result_taken(result_taken)
        register_conversions(conversions)
