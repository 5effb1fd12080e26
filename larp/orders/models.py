"""Orders (R5): one per army or fleet per turn, secret until the Movement phase."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from larp.campaign.labels import ORDER_TYPES
from larp.campaign.models import Faction, Game
from larp.engine.model import OrderType
from larp.forces.models import Army, Fleet
from larp.turns.models import Turn


class Order(models.Model):
    # The engine's order kinds (R5), so the two can never spell one differently.
    HOLD = OrderType.HOLD.value
    MARCH = OrderType.MARCH.value
    ATTACK = OrderType.ATTACK.value
    SEA_ATTACK = OrderType.SEA_ATTACK.value
    LANDING = OrderType.LANDING.value
    FLEET_MOVE = OrderType.FLEET_MOVE.value
    FLEET_ATTACK = OrderType.FLEET_ATTACK.value
    TYPES = [(kind.value, label) for kind, label in ORDER_TYPES.items()]  # the one vocabulary
    ARMY_TYPES = [HOLD, MARCH, ATTACK, SEA_ATTACK, LANDING]
    FLEET_TYPES = [HOLD, FLEET_MOVE, FLEET_ATTACK]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="orders")
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="orders")
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="orders")
    army = models.ForeignKey(Army, on_delete=models.CASCADE, null=True, blank=True, related_name="orders")
    fleet = models.ForeignKey(Fleet, on_delete=models.CASCADE, null=True, blank=True, related_name="orders")
    type = models.CharField(_("order"), max_length=12, choices=TYPES)
    payload = models.JSONField(_("order as the engine reads it"), default=dict)
    implicit = models.BooleanField(_("implicit hold"), default=False)
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+", verbose_name=_("filed by"))
    filed_at = models.DateTimeField(_("filed at"), default=timezone.now)
    # The client's key of the confirmed order: a re-sent copy (a retry, a lost answer) is the same order.
    key = models.CharField(_("confirmation key"), max_length=64, blank=True, default="")
    # Reached the server after the deadline players saw, within the grace (settings.ORDER_GRACE_SECONDS, R3).
    in_grace = models.BooleanField(_("came in the grace"), default=False)

    class Meta:
        verbose_name = _("order")
        verbose_name_plural = _("orders")
        ordering = ["turn", "faction", "army__number", "fleet__number"]
        constraints = [
            models.CheckConstraint(condition=Q(army__isnull=False, fleet__isnull=True)
                                   | Q(army__isnull=True, fleet__isnull=False), name="order_for_army_or_fleet"),
            models.UniqueConstraint(fields=["turn", "army"], condition=Q(army__isnull=False), name="one_order_per_army"),
            models.UniqueConstraint(fields=["turn", "fleet"], condition=Q(fleet__isnull=False), name="one_order_per_fleet"),
        ]

    @property
    def unit(self):
        return self.army or self.fleet


class OrderEvent(models.Model):
    """Who filed, replaced or withdrew which order, and when; kept after the order changes."""

    FILED = "filed"
    REPLACED = "replaced"
    WITHDRAWN = "withdrawn"
    IMPLICIT = "implicit"
    DROPPED = "dropped"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="order_events")
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="order_events")
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="order_events")
    unit = models.CharField(max_length=60)
    action = models.CharField(max_length=10)
    payload = models.JSONField(default=dict)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    key = models.CharField(max_length=64, blank=True, default="")
    in_grace = models.BooleanField(default=False)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["unit", "key"], condition=~Q(key=""), name="order_event_key")]
