"""The door of the console's battle and regroup acts: each field checked, with a message for the moderator.

Acts on a battle name its number; a server roll names the roll it replaces; applying names the turn. So a
second press (a double click, another moderator) finds the state moved on and is refused, not done twice.
Choices of provinces, factions, armies and troop types come from this game only.
"""
from django import forms
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Faction, Province
from larp.forces.models import Army, TroopType
from larp.turns.forms import reason_field

BIG = 2**62


def battle_field() -> forms.IntegerField:
    return forms.IntegerField(min_value=1, max_value=BIG, error_messages={
        "required": _("The request does not say which battle it is for: reload the page and press again."),
        "invalid": _("No such battle: a battle is named by its number (1, 2, 3 ...)."),
        "min_value": _("No such battle: a battle is named by its number (1, 2, 3 ...)."),
        "max_value": _("No such battle: a battle is named by its number (1, 2, 3 ...)."),
    })


def turn_field() -> forms.IntegerField:
    return forms.IntegerField(required=False, min_value=1, max_value=BIG, error_messages={
        "invalid": _("No such turn: reload the page and press again."),
        "min_value": _("No such turn: reload the page and press again."),
        "max_value": _("No such turn: reload the page and press again."),
    })


def roll_field(required=False) -> forms.IntegerField:
    return forms.IntegerField(required=required, min_value=1, max_value=BIG, error_messages={
        "invalid": _("No such server roll: reload the page and press again."),
        "min_value": _("No such server roll: reload the page and press again."),
        "max_value": _("No such server roll: reload the page and press again."),
    })


class DiceField(forms.Field):
    """One or two dice of a side, sent as repeated fields (attacker=6&attacker=2); each a whole number 1-6."""

    widget = forms.MultipleHiddenInput
    default_error_messages = {"invalid": _("Dice are whole numbers from 1 to 6."),
                              "required": _("Enter the dice of both sides, or roll them on the server.")}

    def to_python(self, value):
        values = [v for v in (value or []) if str(v).strip() != ""]
        dice = []
        for v in values:
            text = str(v).strip()
            if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 6:
                raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
            dice.append(int(text))
        if len(dice) > 2:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return dice

    def validate(self, value):
        if self.required and not value:
            raise forms.ValidationError(self.error_messages["required"], code="required")


class RollForm(forms.Form):
    battle = battle_field()
    replaces = roll_field()
    reason = reason_field()

    def clean(self):
        data = super().clean()
        if not self.errors and data.get("replaces") is not None and not data.get("reason"):
            raise forms.ValidationError(_("Write why the dice are rolled again: the dice record keeps it."))
        return data


class ConfirmForm(forms.Form):
    battle = battle_field()
    roll = roll_field()
    attacker = DiceField(required=False)
    defender = DiceField(required=False)

    def clean(self):
        data = super().clean()
        if not self.errors and data.get("roll") is None and not (data.get("attacker") and data.get("defender")):
            raise forms.ValidationError(DiceField.default_error_messages["required"])
        return data


class UndoForm(forms.Form):
    battle = battle_field()
    reason = reason_field(required=True)


class ModifierForm(forms.Form):
    battle = battle_field()
    side = forms.ChoiceField(choices=[("attacker", _("attacker")), ("defender", _("defender"))], error_messages={
        "required": _("Choose the attacker or the defender."),
        "invalid_choice": _("Choose the attacker or the defender.")})
    value = forms.IntegerField(min_value=-99, max_value=99, error_messages={
        "required": _("A modifier is a whole number, e.g. 2 or -3."),
        "invalid": _("A modifier is a whole number, e.g. 2 or -3."),
        "min_value": _("A modifier is between -99 and 99."),
        "max_value": _("A modifier is between -99 and 99.")})
    reason = reason_field(required=True)


class RemoveModifierForm(forms.Form):
    battle = battle_field()
    index = forms.IntegerField(min_value=0, max_value=999, error_messages={
        "required": _("This modifier is no longer there: the page was out of date. Look again."),
        "invalid": _("This modifier is no longer there: the page was out of date. Look again."),
        "min_value": _("This modifier is no longer there: the page was out of date. Look again."),
        "max_value": _("This modifier is no longer there: the page was out of date. Look again.")})


class GreekFireForm(forms.Form):
    battle = battle_field()
    use = forms.BooleanField(required=False)


class GameForm(forms.Form):
    """A form whose choices come from one game."""

    def __init__(self, game, *args, **kwargs):
        self.game = game
        super().__init__(*args, **kwargs)


def province_field(game, required=True, label=_("province")) -> forms.ModelChoiceField:
    return forms.ModelChoiceField(
        Province.objects.filter(game=game, domain=Province.LAND), to_field_name="code", required=required,
        label=label, error_messages={"required": _("Choose a province."),
                                     "invalid_choice": _("No such province in this game: choose one from the list.")})


class StormsForm(GameForm):
    reason = reason_field(required=True)
    storms = forms.IntegerField(min_value=1, max_value=4, error_messages={
        "required": _("Storms are counted 1 to 4 (R7)."), "invalid": _("Storms are counted 1 to 4 (R7)."),
        "min_value": _("Storms are counted 1 to 4 (R7)."), "max_value": _("Storms are counted 1 to 4 (R7).")})

    def __init__(self, game, *args, **kwargs):
        super().__init__(game, *args, **kwargs)
        self.fields["province"] = province_field(game)


class ApplyForm(forms.Form):
    turn = turn_field()


class RetreatForm(GameForm):
    """Another legal retreat (R12): the unit must be retreating this turn, the province one of its options."""

    unit = forms.CharField(max_length=60, error_messages={"required": _("Choose the unit that retreats.")})
    province = forms.CharField(max_length=60, required=False)
    reason = reason_field(required=True)

    def __init__(self, game, retreats: list[dict], *args, **kwargs):
        self.retreats = {r["unit"]: r for r in retreats}
        super().__init__(game, *args, **kwargs)

    def clean(self):
        data = super().clean()
        unit = data.get("unit")
        if unit is None:
            return data
        retreat = self.retreats.get(unit)
        if retreat is None:
            raise forms.ValidationError(_("That unit does not retreat this turn."))
        if data.get("province") and data["province"] not in (retreat.get("options") or []):
            raise forms.ValidationError(_("The unit cannot retreat there: choose one of the offered provinces (R12)."))
        data["province"] = data.get("province") or None
        return data


class NewsForm(forms.Form):
    news = forms.CharField(required=False, max_length=10_000, error_messages={
        "max_length": _("The news is too long: at most %(limit_value)d characters.")})


class TransferForm(GameForm):
    reason = reason_field(required=True)

    def __init__(self, game, *args, **kwargs):
        super().__init__(game, *args, **kwargs)
        self.fields["province"] = province_field(game)
        self.fields["faction"] = forms.ModelChoiceField(
            Faction.objects.filter(game=game), to_field_name="code", required=False,
            error_messages={"invalid_choice": _("No such faction in this game: choose one from the list.")})


class RaiseForm(GameForm):
    def __init__(self, game, *args, **kwargs):
        super().__init__(game, *args, **kwargs)
        self.fields["army"] = forms.ModelChoiceField(
            Army.objects.filter(game=game, destroyed=True), error_messages={
                "required": _("Choose the army to raise."),
                "invalid_choice": _("No destroyed army of this game by that name: choose one from the list.")})
        self.fields["province"] = province_field(game, required=False)


class PurchaseForm(GameForm):
    count = forms.IntegerField(min_value=1, max_value=100, error_messages={
        "required": _("Give the number of cards."), "invalid": _("Give the number of cards."),
        "min_value": _("Give the number of cards: from 1 to 100."),
        "max_value": _("Give the number of cards: from 1 to 100.")})

    def __init__(self, game, *args, **kwargs):
        super().__init__(game, *args, **kwargs)
        self.fields["army"] = forms.ModelChoiceField(
            Army.objects.filter(game=game, destroyed=False), error_messages={
                "required": _("Choose the army."),
                "invalid_choice": _("No such army in this game: choose one from the list.")})
        self.fields["troop_type"] = forms.ModelChoiceField(
            TroopType.objects.filter(game=game), error_messages={
                "required": _("Choose the troop type."),
                "invalid_choice": _("No such troop type in this game: choose one from the list.")})
