from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EditorConfig(AppConfig):
    name = "larp.editor"
    label = "editor"
    verbose_name = _("Scenario editor")
