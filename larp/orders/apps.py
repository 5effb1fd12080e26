from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OrdersConfig(AppConfig):
    name = "larp.orders"
    label = "orders"
    verbose_name = _("Orders")

    def ready(self):
        from larp.orders.services import reveal_at_strategy_close
        from larp.turns.services import register_strategy_close

        register_strategy_close(reveal_at_strategy_close)
