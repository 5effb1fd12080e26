from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RehearsalConfig(AppConfig):
    name = "larp.rehearsal"
    label = "rehearsal"
    verbose_name = _("Rehearsal")
