from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TabletConfig(AppConfig):
    name = "larp.tablet"
    verbose_name = _("Players' tablets")
