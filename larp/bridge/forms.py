"""The door of the bridge's acts: sending a battle to a table, cancelling it, confirming its result."""
from django import forms
from django.utils.translation import gettext_lazy as _

from larp.battles.forms import BIG, battle_field
from larp.bridge.convert import SYSTEMS
from larp.turns.forms import reason_field

WINNERS = [("attacker", _("the attacker won")), ("defender", _("the defender won")), ("tie", _("a tie"))]


def table_battle_field() -> forms.IntegerField:
    return forms.IntegerField(min_value=1, max_value=BIG, error_messages={
        "required": _("The request does not say which table it is for: reload the page and press again."),
        "invalid": _("No such table: reload the page and press again."),
        "min_value": _("No such table: reload the page and press again."),
        "max_value": _("No such table: reload the page and press again."),
    })


def losses_field() -> forms.IntegerField:
    return forms.IntegerField(min_value=0, max_value=100_000, error_messages={
        "required": _("Enter each side's losses in power points (0 if none)."),
        "invalid": _("Losses are whole numbers of power points."),
        "min_value": _("Losses are whole numbers of power points."),
        "max_value": _("Losses are whole numbers of power points."),
    })


class SendForm(forms.Form):
    battle = battle_field()
    system = forms.ChoiceField(choices=[(s, s) for s in SYSTEMS], error_messages={
        "required": _("Choose the rule system of the table."),
        "invalid_choice": _("Choose the rule system of the table."),
    })
    reason = reason_field(required=True)


class CancelForm(forms.Form):
    table_battle = table_battle_field()
    reason = reason_field(required=True)


class ConfirmForm(forms.Form):
    table_battle = table_battle_field()
    winner = forms.ChoiceField(choices=WINNERS, error_messages={
        "required": _("Choose the winner or a tie."), "invalid_choice": _("Choose the winner or a tie.")})
    attacker_losses = losses_field()
    defender_losses = losses_field()
    reason = reason_field()
