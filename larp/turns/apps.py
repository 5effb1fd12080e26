from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TurnsConfig(AppConfig):
    name = "larp.turns"
    label = "turns"
    verbose_name = _("Turns")

    def ready(self):
        from larp.turns import state_version

        state_version.connect()
