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
