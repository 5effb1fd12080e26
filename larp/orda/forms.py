"""Forms at the door of every «Орда» page: nothing reaches a service unchecked."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from larp.orda import dataset, labels
from larp.orda.engine.data import STATS, load
from larp.orda.models import DataSet
from larp.orda.selectors import parse_hex

MODES = [("skirmish", _("Skirmish")), ("border", _("Holding the border")), ("conquest", _("Conquest"))]


def _factions():
    return [(f, labels.faction(f)) for f in ("rus", "china", "south_mongolia", "north_mongolia")]


class HexField(forms.CharField):
    """A hex typed or clicked as "q,r"."""

    def clean(self, value):
        value = super().clean(value)
        if value in (None, ""):
            return None
        h = parse_hex(value)
        if h is None or max(abs(h[0]), abs(h[1])) > dataset.MAX_COORD:
            raise forms.ValidationError(_("A hex is written as two numbers, q,r."))
        return h


class NewTableForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=200)
    data = forms.ModelChoiceField(label=_("Orda data"), queryset=DataSet.objects.none(), empty_label=None)
    mode = forms.ChoiceField(label=_("Mode"), choices=MODES)
    players = forms.TypedChoiceField(label=_("Players"), choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int,
                                      initial=2)
    rus_china = forms.ChoiceField(label=_("Rus or China (2 players)"),
                                  choices=[("rus", _("Rus")), ("china", _("China"))])
    mongolia = forms.ChoiceField(label=_("Which Mongolia (2 players)"),
                                 choices=[("north_mongolia", _("North Mongolia")),
                                          ("south_mongolia", _("South Mongolia"))])
    first = forms.ChoiceField(label=_("Who moves first"),
                              choices=[("rus_china", _("Rus and China")), ("mongolia", _("Mongolia")),
                                       ("rolloff", _("Decided by a roll-off at the table, before the first turn"))])

    def __init__(self, *args, game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["data"].queryset = DataSet.objects.filter(game=game)
        for f, name in _factions():
            self.fields[f"faction_{f}"] = forms.ModelChoiceField(
                label=_("Players of %(f)s") % {"f": name}, queryset=game.factions.all(), required=False)

    def order(self) -> list[str]:
        """The turn order (O8): the two factions, or the zigzag of four; a Mongol first moves the cycle by one. A
        roll-off keeps this order's cycle and only says who starts (docs/orda.md, "Table")."""
        d = self.cleaned_data
        if d["players"] in (3, 4):
            from larp.orda.situation import ZIGZAG
            order = list(ZIGZAG)
        else:
            order = [d["rus_china"], d["mongolia"]]
        return order[1:] + order[:1] if d["first"] == "mongolia" else order

    def rolloff(self) -> bool:
        return self.cleaned_data["first"] == "rolloff"

    def factions(self) -> dict:
        return {f: self.cleaned_data.get(f"faction_{f}") for f, _n in _factions()}


class TurnStartForm(forms.Form):
    summon_next = forms.CharField(required=False, max_length=80)
    summon_hex = HexField(required=False)

    def choices(self) -> dict:
        out = {}
        if self.cleaned_data.get("summon_next"):
            out["summon_next"] = self.cleaned_data["summon_next"]
        if self.cleaned_data.get("summon_hex"):
            out["summon_hex"] = self.cleaned_data["summon_hex"]
        return out


class DiceMixin(forms.Form):
    how = forms.ChoiceField(choices=[("server", _("Server dice")), ("hand", _("Dice by hand"))], initial="server",
                            required=False)
    hand = forms.CharField(required=False, max_length=100, label=_("Dice by hand"))

    def hand_dice(self) -> list[int] | None:
        if self.cleaned_data.get("how") != "hand":
            return None
        text = (self.cleaned_data.get("hand") or "").replace(",", " ").split()
        try:
            return [int(x) for x in text]
        except ValueError:
            raise forms.ValidationError(_("Dice are numbers from 1 to 6.")) from None


class MoveForm(DiceMixin):
    unit = forms.CharField(max_length=80)
    path = forms.CharField(max_length=400)

    def clean_path(self):
        hexes = [parse_hex(x) for x in self.cleaned_data["path"].split(";") if x.strip()]
        if not hexes or None in hexes or len(hexes) > 20:
            raise forms.ValidationError(_("The path is a list of hexes."))
        return hexes


class DeployForm(forms.Form):
    unit = forms.CharField(max_length=80)
    hex = HexField(required=False)


class DeclareForm(forms.Form):
    attacker = forms.CharField(max_length=80)
    target = forms.CharField(max_length=80)
    aimed = forms.BooleanField(required=False)
    push_to = HexField(required=False, label=_("Push to"))
    second = forms.CharField(max_length=80, required=False, label=_("Second target"))

    def payload(self) -> dict:
        d = self.cleaned_data
        out = {"attacker": d["attacker"], "target": d["target"], "aimed": d["aimed"]}
        if d.get("push_to"):
            out["push_to"] = d["push_to"]
        if d.get("second"):
            out["second"] = d["second"]
        return out


class CounterForm(forms.Form):
    counter = forms.ChoiceField(choices=[("defence", _("Defence")), ("retreat", _("Retreat"))])
    retreat_to = HexField(required=False)

    def clean(self):
        d = super().clean()
        if d.get("counter") == "retreat" and not d.get("retreat_to"):
            raise forms.ValidationError(_("Choose the hex to retreat to."))
        return d


class RollForm(forms.Form):
    how = forms.ChoiceField(choices=[("server", _("Server dice")), ("hand", _("Dice by hand"))])
    die_attacker = forms.IntegerField(min_value=1, max_value=6, required=False, label=_("Attacker's die"))
    die_defender = forms.IntegerField(min_value=1, max_value=6, required=False, label=_("Defender's die"))

    def clean(self):
        d = super().clean()
        if d.get("how") == "hand" and (d.get("die_attacker") is None or d.get("die_defender") is None):
            raise forms.ValidationError(_("Enter both dice, from 1 to 6."))
        return d

    reroll_attacker = forms.IntegerField(min_value=1, max_value=6, required=False)
    reroll_defender = forms.IntegerField(min_value=1, max_value=6, required=False)

    def hand_dice(self):
        d = self.cleaned_data
        return [d["die_attacker"], d["die_defender"]] if d["how"] == "hand" else None

    def rerolls(self) -> dict:
        d = self.cleaned_data
        return {"attacker": d.get("reroll_attacker"), "defender": d.get("reroll_defender")}


class AbilityForm(forms.Form):
    unit = forms.CharField(max_length=80)
    trait = forms.ChoiceField(choices=[])
    target = forms.CharField(max_length=80, required=False)
    hex = HexField(required=False)
    param = forms.ChoiceField(choices=[("", "—")] + [(p, p) for p in ("attack", "defence", "speed", "range")],
                              required=False)
    copy = forms.CharField(max_length=80, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["trait"].choices = [(t, t) for t in load().traits]

    def payload(self) -> dict:
        d = self.cleaned_data
        out = {"unit": d["unit"], "trait": d["trait"]}
        for key in ("target", "hex", "param", "copy"):
            if d.get(key):
                out[key] = d[key]
        return out


class ValuesForm(forms.Form):
    """The data set whose numbers fill what the table lacks (the service checks it is this game's)."""
    data_set = forms.IntegerField(min_value=1)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Why"), max_length=500)

    def clean_reason(self):
        value = self.cleaned_data["reason"].strip()
        if not value:
            raise forms.ValidationError(_("Say why."))
        return value


class OverrideUnitForm(ReasonForm):
    unit = forms.CharField(max_length=80)
    damage = forms.IntegerField(min_value=0, max_value=4, label=_("Damage"))


class OverrideModifierForm(ReasonForm):
    unit = forms.CharField(max_length=80)
    param = forms.ChoiceField(choices=[("attack", _("attack value")), ("defence", _("defence value")),
                                       ("speed", _("speed value")), ("range", _("range value"))])
    value = forms.IntegerField(min_value=-10, max_value=10)
    source = forms.ChoiceField(choices=[("event", _("event")), ("moderator", _("by the moderator"))])


class OverrideUnmodifyForm(ReasonForm):
    index = forms.IntegerField(min_value=0, max_value=500)


class OverrideEndForm(ReasonForm):
    winner = forms.ChoiceField(choices=[("rus_china", _("Rus and China")), ("mongolia", _("Mongolia"))])


class RolloffForm(forms.Form):
    """One round of the roll-off for the first turn (O8, O10): server dice, or one die per faction typed in."""
    how = forms.ChoiceField(choices=[("server", _("Server dice")), ("hand", _("Dice by hand"))])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for f, name in _factions():
            self.fields[f"die_{f}"] = forms.IntegerField(min_value=1, max_value=6, required=False, label=name)

    def hand_dice(self) -> dict | None:
        d = self.cleaned_data
        if d["how"] != "hand":
            return None
        return {f: d[f"die_{f}"] for f, _n in _factions() if d.get(f"die_{f}") is not None}


class FirstForm(ReasonForm):
    """The moderator names the faction that moves first, with the reason (a roll at the table, a ruling)."""
    first = forms.ChoiceField(choices=_factions, label=_("Moves first"))


# ---------------------------------------------------------------- the data editor (O23)

class DataSetNewForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=200)


class StatsForm(forms.Form):
    """One faction's nine kinds, six numbers each (blank = not entered yet)."""

    def __init__(self, *args, faction: str, data: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.faction = faction
        self.rows = []
        for kind in load().kinds[faction].values():
            row = {"kind": kind, "name": kind.name_ru, "trait": labels.trait_name(kind.trait), "fields": []}
            for s in STATS:
                if s == "range" and kind.cls != "ranged":
                    row["fields"].append(None)
                    continue
                lo, hi = {"health": (1, 4), "summon": (1, 20)}.get(s, (0, 20))
                name = f"{kind.id}__{s}"
                self.fields[name] = forms.IntegerField(min_value=lo, max_value=hi, required=False,
                                                       label=f"{kind.name_ru}: {labels.param(s)}",
                                                       initial=data["stats"][faction][kind.id][s])
                row["fields"].append(name)
            self.rows.append(row)

    def apply(self, data: dict) -> dict:
        for name, value in self.cleaned_data.items():
            kind, s = name.split("__")
            data["stats"][self.faction][kind][s] = value
        return data


class DataFieldsForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=200)
    capital_durability = forms.IntegerField(label=_("Capital durability"), min_value=1, max_value=100, required=False)
    city_durability = forms.IntegerField(label=_("City durability"), min_value=1, max_value=100, required=False)
    indicator_cells = forms.IntegerField(label=_("Summon indicator cells"), min_value=1, max_value=30,
                                         required=False)

    def __init__(self, *args, data: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.initial.update(title=data["title"], capital_durability=data["durability"]["capital"],
                            city_durability=data["durability"]["city"], indicator_cells=data["indicator_cells"])
        for e in dataset.EVENTS:
            self.fields[f"event_{e}"] = forms.CharField(label=_("Event card %(n)s") % {"n": e[1:]}, required=False,
                                                        max_length=1000, widget=forms.Textarea(attrs={"rows": 2}),
                                                        initial=data["events"][e])

    def apply(self, data: dict) -> dict:
        d = self.cleaned_data
        data["title"] = d["title"]
        data["durability"] = {"capital": d["capital_durability"], "city": d["city_durability"]}
        data["indicator_cells"] = d["indicator_cells"]
        for e in dataset.EVENTS:
            data["events"][e] = d.get(f"event_{e}") or None
        return data


BRUSHES = [("board", _("Board hex (add or remove)")), ("blue", _("Blue capital")), ("red", _("Red capital")),
           ("green", _("Green capital")), ("yellow", _("Yellow capital")), ("dark_blue", _("Dark-blue city")),
           ("dark_red", _("Dark-red city")), ("red_line", _("Beyond the red line")),
           ("green_line", _("Beyond the green line"))]


class BoardClickForm(forms.Form):
    """One click on the board editor: what to paint on which hex."""
    brush = forms.ChoiceField(choices=BRUSHES)
    hex = HexField()


class BoardDiscForm(forms.Form):
    radius = forms.IntegerField(label=_("Radius"), min_value=1, max_value=12)


class ImportForm(forms.Form):
    file = forms.FileField(label=_("YAML file"))

    def clean_file(self):
        f = self.cleaned_data["file"]
        if f.size > 200_000:
            raise forms.ValidationError(_("The file is too large."))
        try:
            text = f.read().decode("utf-8")
        except UnicodeDecodeError:
            raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        try:
            return dataset.from_yaml(text)
        except forms.ValidationError:
            raise
        except Exception as exc:  # a django.core ValidationError from the data's own checks
            raise forms.ValidationError(getattr(exc, "messages", [str(exc)])) from None
