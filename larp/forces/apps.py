from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ForcesConfig(AppConfig):
    name = "larp.forces"
    label = "forces"
    verbose_name = _("Forces")
