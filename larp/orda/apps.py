from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OrdaConfig(AppConfig):
    name = "larp.orda"
    label = "orda"
    verbose_name = _("Orda")
