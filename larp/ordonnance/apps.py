from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OrdonnanceConfig(AppConfig):
    name = "larp.ordonnance"
    label = "ordonnance"
    verbose_name = _("Ordonnance")
