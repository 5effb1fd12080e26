from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignConfig(AppConfig):
    name = "larp.campaign"
    label = "campaign"
    verbose_name = _("Campaign")

    def ready(self):
        from larp import checks  # noqa: F401  (registers the system checks)
        from larp.celery import app  # noqa: F401  (tasks queued from Django use the project's broker)
