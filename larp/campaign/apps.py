from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignConfig(AppConfig):
    name = "larp.campaign"
    label = "campaign"
    verbose_name = _("Campaign")

    def ready(self):
        from larp import checks  # noqa: F401  (registers the system checks)
        from larp.celery import app  # noqa: F401  (tasks queued from Django use the project's broker)
        from django.db.models.signals import post_delete, post_save

        from larp.campaign.access import forget_roles
        from larp.campaign.models import Membership

        post_save.connect(forget_roles, sender=Membership, dispatch_uid="larp-forget-roles-saved")
        post_delete.connect(forget_roles, sender=Membership, dispatch_uid="larp-forget-roles-deleted")
