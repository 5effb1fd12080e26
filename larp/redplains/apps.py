from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RedPlainsConfig(AppConfig):
    name = "larp.redplains"
    label = "redplains"
    verbose_name = _("Warlords: Battle of Red Plains")
