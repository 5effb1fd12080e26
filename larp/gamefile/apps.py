from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamefileConfig(AppConfig):
    name = "larp.gamefile"
    label = "gamefile"
    verbose_name = _("Game files")
