from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "larp.tables"
    label = "tables"
    verbose_name = _("Tables")

    def ready(self):
        from larp.dice.registry import register_names, register_seats
        from larp.tables.selectors import stream_names, stream_seats

        register_names(stream_names)
        register_seats(stream_seats)

        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_save

        from larp.tables import version_pass
        from larp.tables.models import Table

        # A table's cached version follows every save of the table (services.bump writes it too: an update()).
        post_save.connect(lambda sender, instance, **kw: version_pass.remember(instance.pk), sender=Table,
                          weak=False, dispatch_uid="table-version-pass")
        # A session signed out keeps no pass to a table's version.
        user_logged_out.connect(
            lambda sender, request=None, **kw: version_pass.revoke_session(
                getattr(getattr(request, "session", None), "session_key", None)),
            weak=False, dispatch_uid="table-version-pass-logout")
