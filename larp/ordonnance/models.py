"""A game's deck lists for «Ордонанс» (docs/ordonnance.md C4): scenario data the source does not give.

The rules never list the deck (how many cards, which symbols on each), so the toolkit ships
none: a game's deck is «unknown» until a moderator enters one (symbols per card, how many
copies) or imports it as YAML. A table copies the list it is made with into its setup, so
editing a list later never changes a contest already played. A list made up for the tests
says so (`made_for_tests`) and is never offered as the real deck.
"""
from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Game


class DeckList(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="ordonnance_decks", verbose_name=_("game"))
    name = models.CharField(_("name"), max_length=120)
    cards = models.JSONField(_("cards"), default=list, blank=True,
                             help_text=_("Card kinds: each a list of symbols and how many copies."))
    made_for_tests = models.BooleanField(_("made for the tests"), default=False,
                                         help_text=_("Invented for the tests, not the published deck."))
    note = models.TextField(_("note"), blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("deck list")
        verbose_name_plural = _("deck lists")
        ordering = ["game", "name", "pk"]
        constraints = [models.UniqueConstraint(fields=["game", "name"], name="ordonnance_deck_unique_name")]

    def __str__(self) -> str:
        return self.name

    @property
    def size(self) -> int:
        return sum(int(c.get("count", 0)) for c in self.cards)
