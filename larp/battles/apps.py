from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "larp.battles"
    label = "battles"
    verbose_name = _("Battles")
