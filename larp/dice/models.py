"""The dice record: committed seeds, the players' contributions, and every die rolled from them (docs/dice.md).

A `Stream` is one committed seed: the game's own (the military module's war)
or one table's (a battle or contest of a further rule system). Its SHA-256
fingerprint is shown and printed from the start; the seed stays secret until a
moderator reveals it. Every server die is `larp.rules.dice.die(seed, counter,
sides)` with the stream's next counter, and is stored as a `Roll` with that
counter, what it was for, and whether it was used or discarded by a re-roll
(with the reason). Hand-entered dice are stored too, without a counter.

A new stream commits to a 256-bit `secret`; the players add `Contribution`s
while its set is open; at the close the stream's `seed` becomes
`larp.rules.dice.mixed_seed(secret, contributions)`. A seed set by hand (tests,
demos) is `chosen`: its seed is the secret itself and every page says so.
"""
from __future__ import annotations

from hashlib import sha256

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Game


def fingerprint(seed: int) -> str:
    """The public commitment to a seed: SHA-256 of its decimal digits, as hex."""
    return sha256(str(int(seed)).encode()).hexdigest()


class BigNumberField(models.CharField):
    """A non-negative or negative whole number of any size (a 256-bit seed), stored as its decimal digits."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 80)
        super().__init__(*args, **kwargs)

    def from_db_value(self, value, expression, connection):
        return None if value is None else int(value)

    def to_python(self, value):
        return None if value in (None, "") else int(value)

    def get_prep_value(self, value):
        return None if value is None else str(int(value))


class Stream(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="dice_streams", verbose_name=_("game"))
    label = models.CharField(_("label"), max_length=60, help_text=_("'game' for the war, 'table-N' for a table."))
    secret = BigNumberField(_("secret"), null=True, help_text=_("The committed secret: fingerprint = sha256(str(secret))."))
    seed = BigNumberField(_("seed"), null=True, blank=True,
                          help_text=_("The seed the dice are rolled from, fixed at the close of the contributions."))
    fingerprint = models.CharField(_("fingerprint"), max_length=64)
    mixed = models.BooleanField(default=False, help_text=_("The seed mixes the secret with the players' contributions."))
    chosen = models.BooleanField(default=False, help_text=_("The seed was set by hand: the dice are not random."))
    closed_at = models.DateTimeField(null=True, blank=True)
    contributions_digest = models.CharField(max_length=64, blank=True)
    next_counter = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    revealed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "label"], name="dice_stream_unique_label")]
        ordering = ["game", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.label}"

    @property
    def revealed(self) -> bool:
        return self.revealed_at is not None

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


class Contribution(models.Model):
    """A player's random value added to a stream's seed before its close (a faction's tablet, a table's seat)."""
    stream = models.ForeignKey(Stream, on_delete=models.CASCADE, related_name="contributions")
    who = models.CharField(max_length=60, help_text=_("The seat: a faction's id for the war, a side's key at a table."))
    name = models.CharField(max_length=200, help_text=_("The seat as shown."))
    value = models.CharField(max_length=64, help_text=_("256 bits as 64 lower-case hex digits."))
    auto = models.BooleanField(default=False, help_text=_("Sent by the tablet when it opened, not by a tap."))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["stream", "at", "pk"]


class Roll(models.Model):
    SERVER, HAND = "server", "hand"
    SOURCES = [(SERVER, _("server")), (HAND, _("by hand"))]
    USED, DISCARDED = "used", "discarded"
    STATUSES = [(USED, _("used")), (DISCARDED, _("discarded by a re-roll"))]

    stream = models.ForeignKey(Stream, on_delete=models.CASCADE, related_name="rolls")
    counter = models.PositiveIntegerField(null=True, blank=True, help_text=_("Server dice only."))
    sides = models.PositiveSmallIntegerField(default=6)
    value = models.PositiveSmallIntegerField()
    source = models.CharField(max_length=6, choices=SOURCES)
    purpose = models.CharField(max_length=200, blank=True, help_text=_("What the die was for, in words."))
    ref = models.CharField(max_length=60, blank=True, help_text=_("The step or battle it belongs to, e.g. 'step:12'."))
    status = models.CharField(max_length=9, choices=STATUSES, default=USED)
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["stream", "counter"], name="dice_roll_unique_counter")]
        ordering = ["stream", "pk"]
