"""Forces: troop types (войско), armies, fleets, garrisons, commanders and their troop cards (стопка).

A troop card belongs to exactly one stack: an army, a fleet or a fortress's
garrison. Stack edits go through larp.forces.services, which enforces R1/R2.
"""
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Faction, Game, Province, code_validator
from larp.i18n import BilingualName

ROMAN = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
         (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def roman(number: int) -> str:
    out = []
    for value, numeral in ROMAN:
        while number >= value:
            out.append(numeral)
            number -= value
    return "".join(out)


class TroopType(BilingualName):
    LAND = "land"
    NAVAL = "naval"
    DOMAINS = [(LAND, _("land")), (NAVAL, _("naval"))]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="troop_types", verbose_name=_("game"))
    code = models.CharField(_("id"), max_length=50, validators=[code_validator])
    domain = models.CharField(_("domain"), max_length=5, choices=DOMAINS)
    power = models.PositiveIntegerField(_("power"))
    men = models.PositiveIntegerField(_("men"))
    supply = models.PositiveIntegerField(
        _("supply"),
        null=True,
        blank=True,
        help_text=_("Cards of this type that may still enter play (R2). Empty: no limit. Losses never return to it."),
    )

    class Meta:
        verbose_name = _("troop type")
        verbose_name_plural = _("troop types")
        ordering = ["game", "domain", "-power"]
        constraints = [
            models.UniqueConstraint(fields=["game", "code"], name="troop_type_code_unique_in_game"),
            models.CheckConstraint(condition=Q(power__gt=0), name="troop_type_power_positive"),
        ]


class Army(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="armies", verbose_name=_("game"))
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="armies", verbose_name=_("faction"))
    number = models.PositiveSmallIntegerField(_("number"))
    province = models.ForeignKey(
        Province, on_delete=models.RESTRICT, related_name="armies", verbose_name=_("province"),
        limit_choices_to={"domain": Province.LAND},
    )
    destroyed = models.BooleanField(_("destroyed"), default=False)

    class Meta:
        verbose_name = _("army")
        verbose_name_plural = _("armies")
        ordering = ["game", "faction", "number"]
        constraints = [models.UniqueConstraint(fields=["faction", "number"], name="army_number_unique_in_faction")]

    def __str__(self) -> str:
        return f"{self.faction} {roman(self.number)}"

    @property
    def code(self) -> str:
        """The id the rules engine sees."""
        return f"{self.faction.code}-{self.number}"

    @property
    def roman(self) -> str:
        return roman(self.number)


class Fleet(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="fleets", verbose_name=_("game"))
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="fleets", verbose_name=_("faction"))
    number = models.PositiveSmallIntegerField(_("number"))
    sea = models.ForeignKey(
        Province, on_delete=models.RESTRICT, related_name="fleets", verbose_name=_("sea zone"),
        limit_choices_to={"domain": Province.SEA},
    )
    destroyed = models.BooleanField(_("destroyed"), default=False)

    class Meta:
        verbose_name = _("fleet")
        verbose_name_plural = _("fleets")
        ordering = ["game", "faction", "number"]
        constraints = [models.UniqueConstraint(fields=["faction", "number"], name="fleet_number_unique_in_faction")]

    def __str__(self) -> str:
        return f"{self.faction}: {_('fleet')} {roman(self.number)}"

    @property
    def code(self) -> str:
        return f"{self.faction.code}-f{self.number}"

    @property
    def roman(self) -> str:
        return roman(self.number)


class TroopCard(models.Model):
    """One card of a stack. Exactly one of army, fleet, garrison is set."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="troop_cards")
    troop_type = models.ForeignKey(TroopType, on_delete=models.RESTRICT, related_name="cards", verbose_name=_("troop type"))
    army = models.ForeignKey(Army, on_delete=models.CASCADE, null=True, blank=True, related_name="cards")
    fleet = models.ForeignKey(Fleet, on_delete=models.CASCADE, null=True, blank=True, related_name="cards")
    garrison = models.ForeignKey(
        Province, on_delete=models.CASCADE, null=True, blank=True, related_name="garrison_cards",
        verbose_name=_("garrison of"),
    )

    class Meta:
        verbose_name = _("troop card")
        verbose_name_plural = _("troop cards")
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(army__isnull=False, fleet__isnull=True, garrison__isnull=True)
                    | Q(army__isnull=True, fleet__isnull=False, garrison__isnull=True)
                    | Q(army__isnull=True, fleet__isnull=True, garrison__isnull=False)
                ),
                name="card_in_exactly_one_stack",
            )
        ]

    def __str__(self) -> str:
        return str(self.troop_type)


class Commander(BilingualName):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="commanders", verbose_name=_("game"))
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="commanders", verbose_name=_("faction"))
    power = models.PositiveSmallIntegerField(_("power"))
    army = models.ForeignKey(
        Army, on_delete=models.SET_NULL, null=True, blank=True, related_name="commanders", verbose_name=_("army")
    )
    fleet = models.ForeignKey(
        Fleet, on_delete=models.SET_NULL, null=True, blank=True, related_name="commanders", verbose_name=_("fleet")
    )

    class Meta:
        verbose_name = _("commander")
        verbose_name_plural = _("commanders")
        ordering = ["game", "faction", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(army__isnull=True) | Q(fleet__isnull=True), name="commander_with_army_or_fleet_not_both"
            )
        ]

    @property
    def attached(self) -> bool:
        return self.army_id is not None or self.fleet_id is not None
