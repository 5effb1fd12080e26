from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DiceConfig(AppConfig):
    name = "larp.dice"
    label = "dice"
    verbose_name = _("Dice record")
