"""The door of every Red Plains post: each field checked for shape, with a message in the user's language.

Whether a deployment or an order is legal is the engine's to say (situation.py); these forms only make sure
what arrives names a cell of the field, a unit of the side, an order the page offered, dice 1–6.
"""
from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Faction
from larp.redplains import labels
from larp.redplains import situation as sit

PICK = {"invalid_choice": _("No such choice: choose from the list."), "required": _("Choose from the list.")}
ARMY_ROWS = 6
# What the «new battle» page suggests (the moderator changes it): a small army on each side.
DEFAULT_ARMIES = {"north_type_1": "samurai_spears", "north_figures_1": 8, "north_type_2": "cavalry",
                  "north_figures_2": 6, "north_type_3": "samurai_bows", "north_figures_3": 8,
                  "south_type_1": "ashigaru_spears", "south_figures_1": 8, "south_type_2": "samurai_spears",
                  "south_figures_2": 8, "south_type_3": "ashigaru_arquebus", "south_figures_3": 8,
                  "north_messengers": 1, "south_messengers": 1, "defender": "south", "north_shinobi": 0,
                  "south_shinobi": 0}


def type_choices():
    return [("", "—")] + [(k, v) for k, v in labels.TYPES.items()]


class NewTableForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=200)
    north_name = forms.CharField(label=_("North side"), max_length=120)
    north_faction = forms.ModelChoiceField(label=_("Faction playing north"), queryset=Faction.objects.none(),
                                           required=False, error_messages=PICK)
    south_name = forms.CharField(label=_("South side"), max_length=120)
    south_faction = forms.ModelChoiceField(label=_("Faction playing south"), queryset=Faction.objects.none(),
                                           required=False, error_messages=PICK)
    defender = forms.ChoiceField(label=_("Defending army (places the terrain)"),
                                 choices=[(k, v) for k, v in labels.SIDE_WORDS.items()], initial="south",
                                 error_messages=PICK)
    north_messengers = forms.IntegerField(label=_("Messengers of the north"), min_value=0, max_value=5, initial=1)
    south_messengers = forms.IntegerField(label=_("Messengers of the south"), min_value=0, max_value=5, initial=1)
    north_shinobi = forms.IntegerField(label=_("Shinobi of the north"), min_value=0, max_value=10, initial=0,
                                       required=False)
    south_shinobi = forms.IntegerField(label=_("Shinobi of the south"), min_value=0, max_value=10, initial=0,
                                       required=False)
    hills = forms.CharField(label=_("Hills (cells, e.g. C23 D25)"), max_length=40, required=False)
    forests = forms.CharField(label=_("Forests (cells)"), max_length=40, required=False)

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        factions = Faction.objects.filter(game=game) if game else Faction.objects.none()
        self.fields["north_faction"].queryset = factions
        self.fields["south_faction"].queryset = factions
        for side in sit.SIDES:
            for banner in sit.BANNERS:
                self.fields[f"{side}_banner_{banner}"] = forms.BooleanField(label=labels.BANNERS[banner],
                                                                            required=False)
            for i in range(1, ARMY_ROWS + 1):
                self.fields[f"{side}_type_{i}"] = forms.ChoiceField(label=_("Troop type"), choices=type_choices(),
                                                                    required=False, error_messages=PICK)
                self.fields[f"{side}_figures_{i}"] = forms.IntegerField(label=_("Figures"), min_value=4,
                                                                        max_value=16, required=False)
                self.fields[f"{side}_shields_{i}"] = forms.BooleanField(label=_("Shields"), required=False)
                self.fields[f"{side}_clan_{i}"] = forms.CharField(label=_("Minor clan"), max_length=60,
                                                                  required=False)
            for j in (1, 2):
                self.fields[f"{side}_general_{j}"] = forms.CharField(label=_("General"), max_length=60,
                                                                     required=False)
                self.fields[f"{side}_general_unit_{j}"] = forms.TypedChoiceField(
                    label=_("rides in unit"), coerce=int, required=False, empty_value=None, error_messages=PICK,
                    choices=[("", "—")] + [(i, str(i)) for i in range(1, ARMY_ROWS + 1)])

    def banner_boxes(self, side):
        return [self[f"{side}_banner_{banner}"] for banner in sit.BANNERS]

    def general_rows(self, side):
        return [(self[f"{side}_general_{j}"], self[f"{side}_general_unit_{j}"]) for j in (1, 2)]

    def army_rows(self, side):
        return [(self[f"{side}_type_{i}"], self[f"{side}_figures_{i}"], self[f"{side}_shields_{i}"],
                 self[f"{side}_clan_{i}"]) for i in range(1, ARMY_ROWS + 1)]

    def _cells(self, name):
        raw = (self.cleaned_data.get(name) or "").upper().replace(",", " ").split()
        known = {c["id"] for c in sit.cells()}
        if any(c not in known for c in raw):
            raise forms.ValidationError(_("No such cell: cells are named A11…D36."))
        return raw

    def clean_hills(self):
        return self._cells("hills")

    def clean_forests(self):
        return self._cells("forests")

    def clean(self):
        data = super().clean()
        armies = {}
        for side in sit.SIDES:
            army, number_of_row = [], {}
            for i in range(1, ARMY_ROWS + 1):
                t, f = data.get(f"{side}_type_{i}"), data.get(f"{side}_figures_{i}")
                if t and not f:
                    self.add_error(f"{side}_figures_{i}", _("A unit has 4 to 16 figures."))
                elif t:
                    army.append({"type": t, "figures": f, "shields": bool(data.get(f"{side}_shields_{i}"))
                                 and t != "cavalry", "minor_clan": (data.get(f"{side}_clan_{i}") or "").strip()})
                    number_of_row[i] = len(army)
            gens = []
            for j in (1, 2):
                name, number = (data.get(f"{side}_general_{j}") or "").strip(), data.get(f"{side}_general_unit_{j}")
                if name and number not in number_of_row:
                    self.add_error(f"{side}_general_unit_{j}", _("Choose the unit the general rides in."))
                elif name:
                    gens.append((name, number_of_row[number]))
            data.setdefault("generals", {})[side] = gens
            if len(army) < 2:
                self.add_error(None, _("Each army needs at least two units (the two central cells must be held)."))
            armies[side] = army
        if data.get("north_faction") and data.get("north_faction") == data.get("south_faction"):
            self.add_error("south_faction", _("The two sides need different factions."))
        data["armies"] = armies
        return data

    def setup(self) -> dict:
        d = self.cleaned_data
        return sit.make_setup(d["armies"], defender=d["defender"],
                              messengers={"north": d["north_messengers"], "south": d["south_messengers"]},
                              hills=d["hills"], forests=d["forests"],
                              shinobi={"north": d["north_shinobi"] or 0, "south": d["south_shinobi"] or 0},
                              generals=d.get("generals"),
                              banners={side: {b: 1 for b in sit.BANNERS if d.get(f"{side}_banner_{b}")}
                                       for side in sit.SIDES})


class SideForm(forms.Form):
    """Which side a post is for (a moderator acts for either; a player's own side is forced by the view)."""
    side = forms.ChoiceField(choices=[(s, s) for s in sit.SIDES], required=False, error_messages=PICK)


class DeployForm(SideForm):
    infiltrate = forms.IntegerField(min_value=0, max_value=20, required=False)

    def __init__(self, *args, units=(), zone=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.unit_ids = list(units)
        for uid in self.unit_ids:
            self.fields[f"cell_{uid}"] = forms.ChoiceField(choices=[("", "—")] + [(c, c) for c in zone],
                                                           required=False, error_messages=PICK)

    def placed(self) -> dict[str, str]:
        return {uid: self.cleaned_data[f"cell_{uid}"] for uid in self.unit_ids if self.cleaned_data.get(f"cell_{uid}")}


class ScoutForm(SideForm):
    cells = forms.CharField(max_length=100)

    def clean_cells(self):
        raw = self.cleaned_data["cells"].upper().replace(",", " ").split()
        known = {c["id"] for c in sit.cells()}
        if not raw or any(c not in known for c in raw):
            raise forms.ValidationError(_("No such cell: cells are named A11…D36."))
        return raw


class StakeForm(SideForm):
    stake = forms.ChoiceField(choices=[(k, v) for k, v in labels.STAKES.items()], error_messages=PICK)


def parse_dice(text: str, exactly: int | None = None) -> list[int]:
    text = (text or "").strip()
    if not re.fullmatch(r"[1-6](?:[\s,]+[1-6]){0,199}", text):
        raise forms.ValidationError(_("Type the dice as numbers 1 to 6, separated by spaces."))
    values = [int(v) for v in re.split(r"[\s,]+", text)]
    if exactly is not None and len(values) != exactly:
        raise forms.ValidationError(_("Type exactly %(n)s dice.") % {"n": exactly})
    return values


class RollForm(SideForm):
    source = forms.ChoiceField(choices=[("server", "server"), ("hand", "hand")], error_messages=PICK)
    dice = forms.CharField(max_length=20, required=False)

    def clean(self):
        data = super().clean()
        if data.get("source") == "hand":
            data["values"] = parse_dice(data.get("dice"), exactly=2)
        return data


class OrdersForm(SideForm):
    """Two slots per unit, each one of the orders the page offered for it (or none)."""

    general_retreat = forms.BooleanField(required=False)

    def __init__(self, *args, pickers=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.pickers = list(pickers)
        for p in self.pickers:
            allowed = [("", "—")] + [(c["value"], c["label"]) for c in p["choices"] if not c["refused"]]
            for slot in (1, 2):
                self.fields[f"o_{p['unit']}_{slot}"] = forms.ChoiceField(choices=allowed, required=False,
                                                                         error_messages=PICK)
            if p["may_withdraw"]:
                self.fields[f"w_{p['unit']}"] = forms.BooleanField(required=False)
            self.fields[f"b_{p['unit']}"] = forms.ChoiceField(choices=[("", "—")] + [(b, b) for b in p["banners"]],
                                                              required=False, error_messages=PICK)

    def withdraw(self) -> list[str]:
        return [p["unit"] for p in self.pickers if self.cleaned_data.get(f"w_{p['unit']}")]

    def banners(self) -> list[dict]:
        return [{"unit": p["unit"], "banner": self.cleaned_data[f"b_{p['unit']}"]} for p in self.pickers
                if self.cleaned_data.get(f"b_{p['unit']}")]

    def orders(self) -> list[dict]:
        out = []
        for p in self.pickers:
            for slot in (1, 2):
                value = self.cleaned_data.get(f"o_{p['unit']}_{slot}")
                if not value:
                    continue
                kind, otype, extra = value.split(":", 2)
                order = {"unit": p["unit"], "slot": slot, "kind": kind, "type": otype}
                if otype in sit.TARGETED:
                    order["target"] = extra
                elif otype == "reform":
                    order["dir"] = extra
                elif otype == "regroup":
                    order["face"] = extra
                elif otype == "move" and extra == "2":
                    order["actions"] = ["move", "move"]
                out.append(order)
        return out


class ShinobiForm(SideForm):
    """W10: a shinobi's task and, for sabotage, panic and signals, the enemy unit it names (one the side sees)."""
    task = forms.ChoiceField(choices=[(k, v) for k, v in labels.TASKS.items()], error_messages=PICK)
    unit = forms.ChoiceField(choices=[], required=False, error_messages=PICK)
    source = forms.ChoiceField(choices=[("server", "server"), ("hand", "hand")], required=False, error_messages=PICK)
    dice = forms.CharField(max_length=20, required=False)

    def __init__(self, *args, targets=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"].choices = [("", "—")] + [(uid, uid) for uid in targets]

    def clean(self):
        data = super().clean()
        if data.get("task") in sit.TARGETED_TASKS and not data.get("unit"):
            self.add_error("unit", _("Choose the enemy unit for the shinobi."))
        if data.get("task") == "sabotage" and data.get("source") == "hand":
            data["values"] = parse_dice(data.get("dice"), exactly=1)
        return data


class DiceForm(forms.Form):
    source = forms.ChoiceField(choices=[("server", "server"), ("hand", "hand")], error_messages=PICK)
    dice = forms.CharField(max_length=400, required=False)

    def clean(self):
        data = super().clean()
        if data.get("source") == "hand":
            data["values"] = parse_dice(data.get("dice"))
        return data


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=500, error_messages={"required": _("Say why.")})


class OverrideForm(ReasonForm):
    unit = forms.CharField(max_length=20)
    figures = forms.IntegerField(min_value=0, max_value=16, required=False)
    status = forms.ChoiceField(choices=[("", "—")] + [(k, v) for k, v in labels.STATUSES.items()], required=False,
                               error_messages=PICK)
    cell = forms.ChoiceField(choices=[("", "—")] + [(c["id"], c["id"]) for c in sit.cells()], required=False,
                             error_messages=PICK)
    facing = forms.ChoiceField(choices=[("", "—")] + [(k, v) for k, v in labels.FACINGS.items()], required=False,
                               error_messages=PICK)

    def changes(self) -> dict:
        d = self.cleaned_data
        out = {k: d[k] for k in ("status", "cell", "facing") if d.get(k)}
        if d.get("figures") is not None:
            out["figures"] = d["figures"]
        return out


class RosterForm(forms.Form):
    """One unit of an army before play: a unit to change or remove, or a new one for a side."""
    unit = forms.CharField(max_length=20, required=False)
    side = forms.ChoiceField(choices=[("", "—")] + [(s, s) for s in sit.SIDES], required=False, error_messages=PICK)
    type = forms.ChoiceField(choices=type_choices(), required=False, error_messages=PICK)
    figures = forms.IntegerField(min_value=4, max_value=16, required=False)
    shields = forms.BooleanField(required=False)
    remove = forms.BooleanField(required=False)
    cell = forms.ChoiceField(choices=[("", "—")] + [(c["id"], c["id"]) for c in sit.cells()], required=False,
                             error_messages=PICK)

    def clean(self):
        data = super().clean()
        if not data.get("remove") and (not data.get("type") or not data.get("figures")):
            raise forms.ValidationError(_("Choose the troop type and 4 to 16 figures."))
        if not data.get("unit") and not data.get("side"):
            raise forms.ValidationError(_("Choose a unit to change, or the side of a new one."))
        return data

    def payload(self) -> dict:
        d = self.cleaned_data
        out = {"unit": d.get("unit") or None, "side": d.get("side") or None}
        if d.get("remove"):
            return {**out, "remove": True}
        out.update({"type": d["type"], "figures": d["figures"], "shields": bool(d.get("shields"))})
        if d.get("cell"):
            out["cell"] = d["cell"]
        return out


def errors_text(form) -> str:
    return " ".join(str(m) for errors in form.errors.values() for m in errors)
