from django import forms
from django.utils.translation import gettext_lazy as _

from larp.rehearsal.services import MAX_TABLETS, MAX_TURNS
from larp.rehearsal.tables import SYSTEMS

SYSTEM_NAMES = {"tactical": _("Tactical rules"), "red-plains": _("Battle of Red Plains"), "orda": _("Orda"),
                "ordonnance": _("Ordonnance")}


class StartForm(forms.Form):
    turns = forms.IntegerField(label=_("Turns"), min_value=1, max_value=MAX_TURNS, initial=1)
    tablets = forms.IntegerField(label=_("Bot tablets per faction"), min_value=1, max_value=MAX_TABLETS, initial=1)
    tables = forms.MultipleChoiceField(
        label=_("Battles sent to tables"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=lambda: [(s, SYSTEM_NAMES.get(s, s)) for s in SYSTEMS],
        help_text=_("The first battles go to a table of each of these systems in turn, then one battle in three; none: "
                    "every battle by dice."))
    fast = forms.BooleanField(label=_("Short Strategy phases"), required=False, initial=True,
                              help_text=_("20 s and half a second per unit, instead of the game's own length."))
    seed = forms.IntegerField(label=_("Seed"), min_value=0, max_value=2 ** 62, initial=1,
                              help_text=_("Every choice of the bots follows from it: the same seed, the same night."))
